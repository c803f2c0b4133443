// JSON form of a JobCalibration, stored inside a calibration profile's fit.
#include "clusterplan/sim/calibration_profile_json.h"
#include "clusterplan/sim/calibration_samples.h"

#include <cmath>

namespace cp::sim {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& source, const std::string& field,
                       const std::string& reason) {
    throw CalibrationInputError(source + ": job." + field + " " + reason);
}

double positive(const json& obj, const char* key, const std::string& source,
                const std::string& at) {
    if (!obj.contains(key) || !obj[key].is_number()) fail(source, at + key, "is not a number");
    const double v = obj[key].get<double>();
    if (!std::isfinite(v) || v <= 0) fail(source, at + key, "must be a positive number");
    return v;
}

double non_negative(const json& obj, const char* key, const std::string& source,
                    const std::string& at) {
    if (!obj.contains(key)) return 0;
    if (!obj[key].is_number()) fail(source, at + key, "is not a number");
    const double v = obj[key].get<double>();
    if (!std::isfinite(v) || v < 0) fail(source, at + key, "must not be negative");
    return v;
}

std::string text(const json& obj, const char* key) {
    return obj.contains(key) && obj[key].is_string() ? obj[key].get<std::string>() : "";
}

} // namespace

json job_calibration_to_json(const JobCalibration& job) {
    json runs = json::array();
    for (const JobRun& r : job.runs)
        runs.push_back({{"log", r.log_name},
                        {"format", r.format},
                        {"scenario", r.scenario_name},
                        {"instance_type", r.instance_type},
                        {"layout", r.layout},
                        {"nodes", r.nodes},
                        {"steps_used", r.steps_used},
                        {"steps_skipped", r.steps_skipped},
                        {"measured_step_s", r.measured_step_s},
                        {"measured_p10_step_s", r.measured_p10_step_s},
                        {"measured_p90_step_s", r.measured_p90_step_s},
                        {"predicted_step_s", r.predicted_step_s},
                        {"predicted_compute_s", r.predicted_compute_s},
                        {"predicted_comm_s", r.predicted_comm_s}});
    return {{"compute_factor", job.compute_factor},
            {"comm_factor", job.comm_factor},
            {"fit", job.fit},
            {"runs", runs}};
}

JobCalibration job_calibration_from_json(const json& doc, const std::string& source) {
    if (!doc.is_object()) fail(source, "", "is not an object");
    JobCalibration job;
    job.compute_factor = positive(doc, "compute_factor", source, "");
    job.comm_factor = positive(doc, "comm_factor", source, "");
    job.fit = text(doc, "fit");
    if (!doc.contains("runs") || !doc["runs"].is_array()) fail(source, "runs", "is not a list");
    for (const json& r : doc["runs"]) {
        if (!r.is_object()) fail(source, "runs", "has a non-object entry");
        JobRun run;
        run.log_name = text(r, "log");
        run.format = text(r, "format");
        run.scenario_name = text(r, "scenario");
        run.instance_type = text(r, "instance_type");
        run.layout = text(r, "layout");
        run.nodes = static_cast<int>(non_negative(r, "nodes", source, "runs."));
        run.steps_used = static_cast<int>(non_negative(r, "steps_used", source, "runs."));
        run.steps_skipped = static_cast<int>(non_negative(r, "steps_skipped", source, "runs."));
        run.measured_step_s = positive(r, "measured_step_s", source, "runs.");
        run.measured_p10_step_s = non_negative(r, "measured_p10_step_s", source, "runs.");
        run.measured_p90_step_s = non_negative(r, "measured_p90_step_s", source, "runs.");
        run.predicted_step_s = positive(r, "predicted_step_s", source, "runs.");
        run.predicted_compute_s = non_negative(r, "predicted_compute_s", source, "runs.");
        run.predicted_comm_s = non_negative(r, "predicted_comm_s", source, "runs.");
        job.runs.push_back(std::move(run));
    }
    return job;
}

} // namespace cp::sim
