#include "args.h"
#include "cli.h"

#include <ostream>
// `clusterplan calibrate ...` lands with the probes issue.
namespace cp::cli {
int cmd_calibrate(const std::vector<std::string>&, Io& io) { io.err << "calibrate: not built yet\n"; return kUsage; }
} // namespace cp::cli
