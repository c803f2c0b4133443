// `clusterplan calibrate import LOG --scenario S.json`: a training job's own log fitted into a
// job calibration profile (DESIGN.md "Calibration from a job log").
#include "args.h"
#include "calibrate_job.h"
#include "clusterplan/catalog/calibration_store.h"
#include "clusterplan/service/job_import.h"
#include "clusterplan/service/scenario_input.h"
#include "clusterplan/sim/calibration_profile_json.h"
#include "clusterplan/sim/format.h"
#include "clusterplan/sim/job_calibration.h"

#include <nlohmann/json.hpp>
#include <ostream>

namespace cp::cli {
namespace {

using nlohmann::json;

std::string seconds(double s) {
    return sim::fmt::figures(s) + " s";
}

// A factor's change as people read it: x1.089 -> "+8.9 %".
double change_pct(double factor) {
    return (factor - 1.0) * 100.0;
}

json report_json(const service::JobImport& in, const std::string& database) {
    const sim::JobRun& run = in.profile.job.runs.front();
    const sim::JobCalibration& job = in.profile.job;
    return json{
        {"name", in.profile.name},
        {"stored", true},
        {"database", database},
        {"log",
         {{"file", run.log_name},
          {"format", run.format},
          {"measure", sim::job_log_measure_name(in.log.measure)},
          {"steps_total", in.summary.steps_total},
          {"steps_skipped", in.summary.steps_skipped},
          {"steps_used", in.summary.steps_used},
          {"median", in.summary.median},
          {"p10", in.summary.p10},
          {"p90", in.summary.p90}}},
        {"measured_step_s",
         {{"median", run.measured_step_s},
          {"p10", run.measured_p10_step_s},
          {"p90", run.measured_p90_step_s}}},
        {"predicted_step_s",
         {{"before", in.before.result.step_time_s}, {"after", in.after.result.step_time_s}}},
        {"factors",
         {{"compute_factor", job.compute_factor},
          {"comm_factor", job.comm_factor},
          {"compute_time_change_pct", change_pct(job.compute_factor)},
          {"comm_time_change_pct", change_pct(job.comm_factor)},
          {"fit", job.fit}}},
        {"changes", sim::describe_job_calibration(job)},
        {"scenario", in.before.scenario_name},
        {"instance", in.before.instance},
        {"nodes", in.before.nodes},
        {"profile", sim::profile_to_json(in.profile)}};
}

void write_text(std::ostream& out, const service::JobImport& in, const std::string& database) {
    const sim::JobRun& run = in.profile.job.runs.front();
    out << "Job log " << run.log_name << " (" << run.format << ", "
        << sim::job_log_measure_name(in.log.measure) << "): " << in.summary.steps_total
        << " steps, " << in.summary.steps_skipped << " warm-up skipped, " << in.summary.steps_used
        << " used\n";
    out << "  measured step   median " << seconds(run.measured_step_s) << ", p10 "
        << seconds(run.measured_p10_step_s) << ", p90 " << seconds(run.measured_p90_step_s) << "\n";
    out << "  predicted step  " << seconds(in.before.result.step_time_s) << " before, "
        << seconds(in.after.result.step_time_s) << " after calibration (" << run.nodes << " × "
        << run.instance_type << ", " << run.layout << ")\n";
    const auto lines = sim::describe_job_calibration(in.profile.job);
    for (std::size_t i = 0; i < lines.size(); ++i)
        out << (i == 0 ? "  changed         " : "                  ") << lines[i] << "\n";
    out << "Stored as calibration '" << in.profile.name << "' in " << database
        << "; name it in the scenario's cluster.calibration to use it\n";
}

} // namespace

int cmd_import_job(const Args& args, Io& io) {
    if (args.has("--instance") || args.has("--collective") || args.flag("--allow-partial"))
        throw UsageError("--instance, --collective and --allow-partial are for measurement "
                         "files; a job log takes its hardware from --scenario");
    const sim::Scenario sc = service::load_scenario_file(args.value("--scenario"));
    catalog::Catalog db = catalog::Catalog::open_default();
    service::JobImport in = service::fit_job_log(args.positional()[0], sc, db, args.value("--name"),
                                                 args.flag("--replace"));
    service::store_job_calibration(in, db, args.flag("--replace"));
    if (args.flag("--json"))
        io.out << report_json(in, db.path().string()).dump(2) << "\n";
    else
        write_text(io.out, in, db.path().string());
    return kOk;
}

} // namespace cp::cli
