#include "clusterplan/service/job_import.h"

#include "clusterplan/catalog/calibration_store.h"
#include "clusterplan/service/clock.h"
#include "clusterplan/service/errors.h"
#include "clusterplan/service/scenario_input.h"
#include "clusterplan/sim/io/input_file.h"
#include "clusterplan/sim/job_calibration.h"

#include <filesystem>
#include <utility>

namespace cp::service {
namespace {

nlohmann::json raw_record(const JobImport& in, const sim::Scenario& sc) {
    nlohmann::json samples = nlohmann::json::array();
    for (const sim::JobLogSample& s : in.log.samples)
        samples.push_back({s.step, s.value});
    nlohmann::json out{{"kind", "job-log"},
                       {"log_file", std::filesystem::path(in.log_path).filename().string()},
                       {"format", sim::job_log_format_name(in.log.format)},
                       {"measure", sim::job_log_measure_name(in.log.measure)},
                       {"scenario", sc.name},
                       {"samples", std::move(samples)}};
    if (in.log.global_batch) out["global_batch"] = *in.log.global_batch;
    return out;
}

std::string profile_name(catalog::Catalog& catalog, const std::string& log_path,
                         const std::string& name, bool replace) {
    const catalog::CalibrationStore store(catalog);
    if (name.empty())
        return store.unused_name("job-" + std::filesystem::path(log_path).stem().string());
    if (store.exists(name) && !replace)
        throw InputError("--name: calibration profile '" + name +
                         "' already exists; choose another name or pass --replace");
    return name;
}

} // namespace

JobImport fit_job_log(const std::string& log_path, const sim::Scenario& sc,
                      catalog::Catalog& catalog, const std::string& name, bool replace) {
    if (sc.serving)
        throw InputError(sc.origin + ": serving: a job log calibrates a training scenario");
    JobImport in;
    in.log_path = log_path;
    std::string text;
    try {
        text = sim::io::read_input_file(log_path, "the job log");
        in.log = sim::parse_job_log(text, log_path);
        in.summary = sim::summarize_job_log(in.log);
    } catch (const sim::io::InputFileError& e) {
        throw InputError(e.what());
    } catch (const sim::JobLogError& e) {
        throw InputError(e.what());
    }

    const sim::NodeSpec node = resolve_node(sc, catalog);
    // The hardware the scenario already measured stays; the job's own factors are refitted.
    sim::CalibrationProfile base;
    if (auto named = resolve_calibration(sc, catalog)) base = std::move(*named);
    base.job = {};
    const bool has_hardware = !base.gemm.empty() || base.hbm_gbytes_per_s > 0 ||
                              !base.intra_node.empty() || !base.inter_node.empty();
    in.before = sim::simulate_plan(sc, node, has_hardware ? &base : nullptr);
    if (!in.before.result.valid())
        throw InputError(sc.origin + ": the scenario's plan is not valid (" +
                         in.before.limit_reason + "), so no log can be compared with it");

    sim::JobRun run;
    try {
        const double tokens = sc.workload.kind == sim::WorkloadKind::generic
                                  ? 1.0
                                  : static_cast<double>(sc.workload.shape.seq_len);
        run = sim::make_job_run(std::filesystem::path(log_path).filename().string(), in.log,
                                in.before.result, in.before.layout.global_batch, tokens,
                                in.before.devices);
    } catch (const sim::JobLogError& e) {
        throw InputError(e.what());
    }
    run.scenario_name = sc.name;
    run.instance_type = node.instance_type;
    run.nodes = in.before.nodes;
    const sim::Layout& l = in.before.layout;
    run.layout = "tp " + std::to_string(l.tp) + ", pp " + std::to_string(l.pp) + ", dp " +
                 std::to_string(l.dp) + ", micro-batch " + std::to_string(l.micro_batch);

    in.profile = std::move(base);
    in.profile.name = profile_name(catalog, log_path, name, replace);
    in.profile.source = "job-log";
    // Without measured hardware the factors hold for every instance of this accelerator.
    if (!has_hardware) in.profile.instance_type.clear();
    in.profile.accelerator = node.accelerator.id;
    in.profile.measured_at = utc_now("%Y-%m-%d");
    in.profile.job = sim::fit_job_calibration({run});
    in.after = sim::simulate_plan(sc, node, &in.profile);
    in.raw = raw_record(in, sc);
    return in;
}

void store_job_calibration(const JobImport& in, catalog::Catalog& catalog, bool replace) {
    catalog::CalibrationStore(catalog).store(in.profile, in.raw.dump(), replace);
}

} // namespace cp::service
