// Fixed-width columns for the CLI's ranked tables. Widths count characters, not bytes, so a
// figure printed as "—" (three UTF-8 bytes) or a "×" keeps the columns aligned, which printf's
// byte-counted %-8s does not.
#pragma once

#include <string>
#include <string_view>

namespace cp::cli {

// `text` padded with spaces to `width` characters, on the right (left-aligned) or on the left
// (right-aligned); text already as wide or wider is returned whole.
std::string left(std::string_view text, int width);
std::string right(std::string_view text, int width);

} // namespace cp::cli
