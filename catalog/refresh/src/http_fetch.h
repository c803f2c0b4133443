// One HTTP(S) GET into a file through libcurl, with the limits a refresh needs: a connect and a
// stall timeout, a size bound, cancellation, progress, and an optional streaming record filter
// (the EC2 price list of one region is gigabytes; only the catalog's instance types are kept).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cp::catalog::refresh {

class FetchError : public std::runtime_error {
public:
    enum class Kind { offline, timeout, http, cancelled, too_large, transfer, io };
    FetchError(Kind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
    Kind kind() const { return kind_; }

private:
    Kind kind_;
};

struct FetchOptions {
    long connect_timeout_s = 20;
    // A transfer slower than 1 KiB/s for this long is abandoned (a stalled server or network).
    long stall_timeout_s = 60;
    long total_timeout_s = 0;         // 0: no overall limit (large price lists)
    std::uint64_t max_raw_bytes = 0;  // bytes received; 0 = no limit
    std::uint64_t max_kept_bytes = 0; // bytes written after the filter; 0 = no limit
    const std::atomic<bool>* cancel = nullptr;
    // (bytes received so far, expected total or 0)
    std::function<void(std::uint64_t, std::uint64_t)> progress;
};

// Streams the body through `filter` (may be empty: keep all). The filter gets each chunk and
// appends what to keep; it is called once more with an empty chunk at the end.
using ChunkFilter = std::function<void(std::string_view chunk, bool last, std::string& keep)>;

// Throws FetchError naming the URL. `out` is written only on success (a temporary beside it
// is renamed at the end).
void fetch_to_file(const std::string& url, const std::filesystem::path& out,
                   const FetchOptions& options, const ChunkFilter& filter = {});

} // namespace cp::catalog::refresh
