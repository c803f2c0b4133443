// SHA-256 (FIPS 180-4) for content-addressing the uploaded probe binary.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace cp::remote {

std::string sha256_hex(std::string_view data);
// Throws std::runtime_error naming the file when it cannot be read.
std::string sha256_file_hex(const std::filesystem::path& path);

} // namespace cp::remote
