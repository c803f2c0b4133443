// JSON form of a JobCalibration, stored inside a calibration profile's fit.
#include "clusterplan/sim/calibration_profile_json.h"
#include "clusterplan/sim/calibration_samples.h"
#include "measurement_fields.h"

#include <cmath>

namespace cp::sim {
namespace {

using nlohmann::json;

using detail::MeasurementFields;
using detail::Need;

// An optional figure of a run: absent reads as 0 (not recorded).
double recorded(const MeasurementFields& r, const json& obj, const char* key,
                const std::string& path) {
    const double v = r.non_negative(obj, key, path, Need::optional);
    return std::isnan(v) ? 0.0 : v;
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
    const MeasurementFields r{source};
    if (!doc.is_object()) r.fail("job", "is not an object");
    JobCalibration job;
    job.compute_factor = r.positive(doc, "compute_factor", "job");
    job.comm_factor = r.positive(doc, "comm_factor", "job");
    job.fit = r.string(doc, "fit", "job");
    const json& runs = *r.list(doc, "runs", "job", Need::required);
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const json& e = runs[i];
        const std::string path = MeasurementFields::at("job.runs", i);
        if (!e.is_object()) r.fail(path, "is not an object");
        JobRun run;
        run.log_name = r.string(e, "log", path);
        run.format = r.string(e, "format", path);
        run.scenario_name = r.string(e, "scenario", path);
        run.instance_type = r.string(e, "instance_type", path);
        run.layout = r.string(e, "layout", path);
        run.nodes = r.count(e, "nodes", path, Need::optional, 0);
        run.steps_used = r.count(e, "steps_used", path, Need::optional, 0);
        run.steps_skipped = r.count(e, "steps_skipped", path, Need::optional, 0);
        run.measured_step_s = r.positive(e, "measured_step_s", path);
        run.measured_p10_step_s = recorded(r, e, "measured_p10_step_s", path);
        run.measured_p90_step_s = recorded(r, e, "measured_p90_step_s", path);
        run.predicted_step_s = r.positive(e, "predicted_step_s", path);
        run.predicted_compute_s = recorded(r, e, "predicted_compute_s", path);
        run.predicted_comm_s = recorded(r, e, "predicted_comm_s", path);
        job.runs.push_back(std::move(run));
    }
    return job;
}

} // namespace cp::sim
