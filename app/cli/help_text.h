// `clusterplan --help` and `clusterplan COMMAND --help` (catalog, calibrate and probe print
// their own usage, which lists their subcommands).
#pragma once

#include <string>

namespace cp::cli {

// Usage of simulate, sweep, recommend or report; empty for other commands.
std::string command_help(const std::string& command);

} // namespace cp::cli
