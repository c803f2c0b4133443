#include "args.h"
#include "cli.h"

#include <ostream>
// `clusterplan probe ...` lands with the probes issue.
namespace cp::cli {
int cmd_probe(const std::vector<std::string>&, Io& io) { io.err << "probe: not built yet\n"; return kUsage; }
} // namespace cp::cli
