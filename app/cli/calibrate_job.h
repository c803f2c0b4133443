// `calibrate import LOG --scenario S.json` (calibrate_job_cmd.cpp), reached from
// `calibrate import` when --scenario is given.
#pragma once

#include "args.h"
#include "cli.h"

namespace cp::cli {

int cmd_import_job(const Args& args, Io& io);

} // namespace cp::cli
