#include "clusterplan/sim/io/input_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cp::sim::io {
namespace {

// Closes the descriptor on every path out, exceptions included.
struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

std::string kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a pipe (FIFO)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

} // namespace

std::string format_byte_limit(std::size_t bytes) {
    if (bytes >= (std::size_t{1} << 30) && bytes % (std::size_t{1} << 30) == 0)
        return std::to_string(bytes >> 30) + " GiB";
    if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0)
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

std::string read_input_file(const std::filesystem::path& path, const std::string& what,
                            std::size_t max_bytes) {
    const std::string name = path.string();
    // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever; the mode check
    // below refuses it before any read.
    Fd f{::open(name.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)};
    if (f.fd < 0)
        throw InputFileError(name + ": cannot open " + what + " (" + std::strerror(errno) + ")");
    struct stat st {};
    if (::fstat(f.fd, &st) != 0)
        throw InputFileError(name + ": cannot read " + what + " (" + std::strerror(errno) + ")");
    if (!S_ISREG(st.st_mode))
        throw InputFileError(name + ": " + what + " is " + kind_of(st.st_mode) +
                             ", not a regular file");
    if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
        throw InputFileError(name + ": " + what + " is larger than the " +
                             format_byte_limit(max_bytes) + " limit");
    std::string text;
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t used = 0;
    // Reads until end of file: the file may have grown since fstat, and may not exceed the limit
    // while growing either.
    for (;;) {
        if (used == text.size()) {
            if (text.size() > max_bytes)
                throw InputFileError(name + ": " + what + " is larger than the " +
                                     format_byte_limit(max_bytes) + " limit");
            text.resize(std::min(max_bytes + 1, std::max<std::size_t>(4096, text.size() * 2)));
        }
        const ssize_t n = ::read(f.fd, text.data() + used, text.size() - used);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            throw InputFileError(name + ": cannot read " + what + " (" + std::strerror(errno) +
                                 ")");
        }
        used += static_cast<std::size_t>(n);
    }
    if (used > max_bytes)
        throw InputFileError(name + ": " + what + " is larger than the " +
                             format_byte_limit(max_bytes) + " limit");
    text.resize(used);
    return text;
}

} // namespace cp::sim::io
