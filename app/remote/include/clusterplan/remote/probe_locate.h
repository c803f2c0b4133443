// Where `probe run` and the Probes page find clusterplan-probe when no --probe is given.
#pragma once

#include <filesystem>
#include <string>

namespace cp::remote {

// $CLUSTERPLAN_PROBE when set; else the first regular file among, relative to the directory of
// `self` (this program): clusterplan-probe (installed side by side), ../libexec/clusterplan/
// clusterplan-probe (the Debian package), ../probes/clusterplan-probe (the build tree:
// build/<preset>/app/clusterplan and build/<preset>/probes/clusterplan-probe). Empty when none.
std::string find_probe_binary(const std::filesystem::path& self);

// The running program's path (/proc/self/exe); empty when it cannot be read.
std::filesystem::path this_program();

} // namespace cp::remote
