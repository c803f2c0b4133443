// `clusterplan catalog refresh [--region R ...] [--base-url URL] [--timeout S] [--no-aws-cli]`.
#pragma once

#include "cli.h"

#include <string>
#include <vector>

namespace cp::cli {

int cmd_catalog_refresh(const std::vector<std::string>& args, Io& io);

} // namespace cp::cli
