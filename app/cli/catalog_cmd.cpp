#include "args.h"
#include "cli.h"

#include <ostream>
// `clusterplan catalog ...` lands with the foundation issue.
namespace cp::cli {
int cmd_catalog(const std::vector<std::string>&, Io& io) {
    io.err << "catalog: not built yet\n";
    return kUsage;
}
} // namespace cp::cli
