// Writing a file the user named without touching anything else: the bytes go to a new file with
// an unpredictable name created exclusively (O_EXCL | O_NOFOLLOW) in the target's directory, are
// flushed to disk, and are renamed over the target. A planted symlink (at the target or at a
// guessable temporary name) is never followed, a failed write never leaves half a file, and a
// target that is a symlink, a directory, a device or a FIFO is refused.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cp::sim::io {

class OutputFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Throws OutputFileError ("cannot write F: <reason>") when `target` is refused (see
// check_output_target) or the write fails; nothing at `target` changes then.
void write_output_file(const std::filesystem::path& target, std::string_view bytes);

// The checks write_output_file makes before writing, for commands that must fail before minutes
// of work: the directory exists; the target, when it exists, is a regular file and not a
// symlink. Throws OutputFileError.
void check_output_target(const std::filesystem::path& target);

} // namespace cp::sim::io
