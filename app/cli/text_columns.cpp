#include "text_columns.h"

namespace cp::cli {
namespace {

// Characters in UTF-8 text: every byte that is not a continuation byte (10xxxxxx) starts one.
int characters(std::string_view text) {
    int n = 0;
    for (const char c : text)
        n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
    return n;
}

std::string spaces(std::string_view text, int width) {
    const int missing = width - characters(text);
    return missing > 0 ? std::string(static_cast<std::size_t>(missing), ' ') : std::string();
}

} // namespace

std::string left(std::string_view text, int width) {
    return std::string(text) + spaces(text, width);
}

std::string right(std::string_view text, int width) {
    return spaces(text, width) + std::string(text);
}

} // namespace cp::cli
