#include "report_cmd.h"

#include <ostream>

namespace cp::report {
int cmd_report(int, char**, const std::vector<std::string>&, cli::Io& io) {
    io.err << "report: lands with the reports issue\n";
    return cli::kUsage;
}
} // namespace cp::report
