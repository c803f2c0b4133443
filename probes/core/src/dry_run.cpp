#include "clusterplan/probe/dry_run.h"

#include "clusterplan/probe/report.h"

namespace cp::probe {

int run_dry(const Options& options, const EnvLookup& env, std::ostream& err) {
    std::optional<int> visible = options.visible_gpus >= 0
                                     ? std::optional<int>(options.visible_gpus)
                                     : visible_gpus_without_cuda(env);
    try {
        const RunPlan plan = make_plan(options, env, visible);
        write_stdout(framed_document(plan_json(options, plan)));
    } catch (const UsageError& e) {
        err << "clusterplan-probe: " << e.what() << "\n";
        return kExitUsage;
    }
    return kExitOk;
}

int dry_run_main(const std::vector<std::string>& args, const EnvLookup& env, std::ostream& err,
                 Options& parsed) {
    try {
        parsed = parse_options(args);
    } catch (const UsageError& e) {
        err << "clusterplan-probe: " << e.what() << "\n" << usage_text();
        return kExitUsage;
    }
    if (!parsed.dry_run) return -1;
    return run_dry(parsed, env, err);
}

} // namespace cp::probe
