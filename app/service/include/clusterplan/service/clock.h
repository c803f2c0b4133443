// The wall clock as text, in UTC: report timestamps and default profile names.
#pragma once

#include <string>

namespace cp::service {

// Now, formatted by strftime(3): "%Y-%m-%dT%H:%M:%SZ" gives "2026-11-22T03:10:00Z".
std::string utc_now(const char* strftime_format);

} // namespace cp::service
