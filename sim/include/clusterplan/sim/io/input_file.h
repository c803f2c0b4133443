// Reading a file the user named, with bounded memory: regular files only (a FIFO, a device such
// as /dev/zero or /dev/urandom, a socket or a directory is refused before a byte is read, so
// nothing blocks or streams forever) and at most a stated number of bytes. Every command and
// page that reads a user's file goes through read_input_file().
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace cp::sim::io {

// 64 MiB: the largest input a user hands over by hand - a scenario (a few kB), a probe or
// nccl-tests document (tens of kB per host, a few MB for a 1,000-rank run), an AWS spot price
// history or Spot Advisor file (a few MB for every region) - with two orders of magnitude to
// spare, while a parse of it stays well under 1 GB of memory.
inline constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;

// One sentence naming the file and the reason (missing, not a regular file, too large, ...).
class InputFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The whole file. `what` names it in messages ("the scenario file", "the import file").
// Throws InputFileError when the path does not exist, is not a regular file (FIFO, device,
// socket, directory), cannot be read, or holds more than `max_bytes` bytes.
std::string read_input_file(const std::filesystem::path& path, const std::string& what,
                            std::size_t max_bytes = kMaxInputBytes);

// "64 MiB", "1 GiB": limits as messages state them.
std::string format_byte_limit(std::size_t bytes);

} // namespace cp::sim::io
