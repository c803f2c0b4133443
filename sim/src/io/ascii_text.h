// Case folding for names read from scenario files and fixtures, which are ASCII identifiers
// (engines, storage types, metrics): the C locale's tolower, byte by byte.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace cp::sim {

inline std::string ascii_lower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

} // namespace cp::sim
