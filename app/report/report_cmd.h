#pragma once

#include "cli.h"

#include <string>
#include <vector>

namespace cp::report {
// `clusterplan report SCENARIO.json --out FILE [--top N]`; argc/argv start the Qt application.
int cmd_report(int argc, char** argv, const std::vector<std::string>& args, cli::Io& io);
} // namespace cp::report
