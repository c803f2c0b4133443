// `--instance TYPE` as the commands that take it read it: the catalog's own spelling of the
// type in any letter case, or an InputError naming the option with a "did you mean".
#pragma once

#include "args.h"
#include "clusterplan/catalog/catalog.h"

#include <string>

namespace cp::cli {

// The catalog's name for `--instance`, or "" when the option is not given.
std::string instance_option(const Args& args, const catalog::Catalog& db);

} // namespace cp::cli
