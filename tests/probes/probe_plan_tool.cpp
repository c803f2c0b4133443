// Test tool: `clusterplan-probe --dry-run` without CUDA (the same entry the probe binary calls),
// so launcher environments can be exercised end to end in CI on hosts without a GPU.
#include "clusterplan/probe/dry_run.h"
#include "clusterplan/probe/report.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    const std::vector<std::string> args(argv + 1, argv + argc);
    cp::probe::Options options;
    const int rc = cp::probe::dry_run_main(args, cp::probe::process_env(), std::cerr, options);
    if (rc >= 0) return rc;
    std::cerr << "probe_plan_tool: only --dry-run is available without CUDA\n";
    return cp::probe::kExitUsage;
}
