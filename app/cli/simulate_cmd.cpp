#include "args.h"
#include "cli.h"

#include <ostream>
// simulate / sweep / recommend land with the simulator issue.
namespace cp::cli {
int cmd_simulate(const std::vector<std::string>&, Io& io) { io.err << "simulate: not built yet\n"; return kUsage; }
int cmd_sweep(const std::vector<std::string>&, Io& io) { io.err << "sweep: not built yet\n"; return kUsage; }
int cmd_recommend(const std::vector<std::string>&, Io& io) { io.err << "recommend: not built yet\n"; return kUsage; }
} // namespace cp::cli
