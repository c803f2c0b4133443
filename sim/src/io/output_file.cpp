#include "clusterplan/sim/io/output_file.h"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cp::sim::io {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& target, const std::string& reason) {
    throw OutputFileError("cannot write " + target.string() + ": " + reason);
}

std::string errno_text() {
    return std::strerror(errno);
}

// 128 random bits in hex: a name nobody can plant in advance.
std::string random_suffix(const fs::path& target) {
    std::array<unsigned char, 16> bytes{};
    std::size_t got = 0;
    while (got < bytes.size()) {
        const ssize_t n = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail(target, "no random numbers for a temporary name (" + errno_text() + ")");
        }
        got += static_cast<std::size_t>(n);
    }
    std::string hex;
    for (unsigned char b : bytes) {
        char buf[3];
        std::snprintf(buf, sizeof buf, "%02x", b);
        hex += buf;
    }
    return hex;
}

fs::path directory_of(const fs::path& target) {
    const fs::path parent = target.parent_path();
    return parent.empty() ? fs::path(".") : parent;
}

} // namespace

void check_output_target(const fs::path& target) {
    if (target.empty() || target.filename().empty() || target.filename() == "." ||
        target.filename() == "..")
        fail(target, "it names a directory, not a file");
    struct stat st {};
    const fs::path dir = directory_of(target);
    if (::stat(dir.c_str(), &st) != 0)
        fail(target, "directory " + dir.string() + " does not exist");
    if (!S_ISDIR(st.st_mode)) fail(target, dir.string() + " is not a directory");
    if (::lstat(target.c_str(), &st) == 0) {
        if (S_ISLNK(st.st_mode))
            fail(target, "it is a symbolic link (name the file it points to, or another file)");
        if (S_ISDIR(st.st_mode)) fail(target, "it is a directory");
        if (!S_ISREG(st.st_mode))
            fail(target, "it is not a regular file (a device, FIFO or socket)");
    } else if (errno != ENOENT) {
        fail(target, errno_text());
    }
}

void write_output_file(const fs::path& target, std::string_view bytes) {
    check_output_target(target);
    const fs::path tmp = directory_of(target) /
                         ("." + target.filename().string() + "." + random_suffix(target) + ".tmp");
    // 0666 less the umask, as any file the user creates; O_EXCL|O_NOFOLLOW: never an existing
    // file or a link someone planted.
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) fail(target, errno_text());
    std::size_t done = 0;
    bool ok = true;
    std::string reason;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            ok = false;
            reason = errno_text();
            break;
        }
        done += static_cast<std::size_t>(n);
    }
    if (ok && ::fsync(fd) != 0) {
        ok = false;
        reason = errno_text();
    }
    if (::close(fd) != 0 && ok) {
        ok = false;
        reason = errno_text();
    }
    // rename() replaces the directory entry itself: were the target swapped for a symlink since
    // the check, the link would be replaced, never the file it points to.
    if (ok && ::rename(tmp.c_str(), target.c_str()) != 0) {
        ok = false;
        reason = errno_text();
    }
    if (!ok) {
        ::unlink(tmp.c_str());
        fail(target, reason);
    }
}

} // namespace cp::sim::io
