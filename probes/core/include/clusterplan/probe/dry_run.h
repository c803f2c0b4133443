// `clusterplan-probe --dry-run`: the run plan of this process, without initialising CUDA.
#pragma once

#include "clusterplan/probe/options.h"

#include <ostream>

namespace cp::probe {

// Prints the plan (framed like a probe document) on stdout; problems on `err`. Returns the
// exit status (kExitOk, or kExitUsage for an impossible layout).
int run_dry(const Options& options, const EnvLookup& env, std::ostream& err);

// argv-level entry shared by the probe binary and CUDA-free test tools: parses `args`
// (without the program name), runs the dry run when asked. Returns -1 when the caller must
// run the real probe (no --dry-run), else the exit status; `parsed` receives the options.
int dry_run_main(const std::vector<std::string>& args, const EnvLookup& env, std::ostream& err,
                 Options& parsed);

} // namespace cp::probe
