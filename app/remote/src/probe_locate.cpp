#include "clusterplan/remote/probe_locate.h"

#include <cstdlib>
#include <system_error>

namespace cp::remote {

namespace fs = std::filesystem;

std::string find_probe_binary(const fs::path& self) {
    if (const char* env = std::getenv("CLUSTERPLAN_PROBE"); env && *env) return env;
    if (self.empty()) return {};
    const fs::path dir = self.parent_path();
    std::error_code ec;
    for (const fs::path& candidate :
         {dir / "clusterplan-probe", dir / "../libexec/clusterplan/clusterplan-probe",
          dir / "../probes/clusterplan-probe"}) {
        if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal().string();
    }
    return {};
}

fs::path this_program() {
    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : self;
}

} // namespace cp::remote
