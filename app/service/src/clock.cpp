#include "clusterplan/service/clock.h"

#include <ctime>

namespace cp::service {

std::string utc_now(const char* strftime_format) {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[64];
    const std::size_t length = std::strftime(text, sizeof text, strftime_format, &utc);
    return std::string(text, length);
}

} // namespace cp::service
