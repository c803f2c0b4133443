#include "http_fetch.h"

#include <cstdio>
#include <curl/curl.h>
#include <fstream>
#include <memory>
#include <mutex>

namespace cp::catalog::refresh {
namespace {

namespace fs = std::filesystem;

// curl_global_init is not thread-safe; once per process.
void global_init() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
    std::ofstream* out = nullptr;
    const ChunkFilter* filter = nullptr;
    const FetchOptions* options = nullptr;
    std::uint64_t raw = 0;
    std::uint64_t kept = 0;
    std::string buffer;
    bool too_large = false;
    bool write_failed = false;
};

bool write_kept(Transfer& t, const std::string& data) {
    t.kept += data.size();
    if (t.options->max_kept_bytes && t.kept > t.options->max_kept_bytes) {
        t.too_large = true;
        return false;
    }
    t.out->write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!*t.out) {
        t.write_failed = true;
        return false;
    }
    return true;
}

size_t on_data(char* ptr, size_t size, size_t nmemb, void* user) {
    auto& t = *static_cast<Transfer*>(user);
    const size_t n = size * nmemb;
    t.raw += n;
    if (t.options->max_raw_bytes && t.raw > t.options->max_raw_bytes) {
        t.too_large = true;
        return 0; // makes curl fail with CURLE_WRITE_ERROR
    }
    t.buffer.clear();
    if (*t.filter)
        (*t.filter)(std::string_view(ptr, n), false, t.buffer);
    else
        t.buffer.assign(ptr, n);
    return write_kept(t, t.buffer) ? n : 0;
}

int on_progress(void* user, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t) {
    auto& t = *static_cast<Transfer*>(user);
    if (t.options->cancel && t.options->cancel->load())
        return 1; // aborts with CURLE_ABORTED_BY_CALLBACK
    if (t.options->progress)
        t.options->progress(static_cast<std::uint64_t>(now),
                            static_cast<std::uint64_t>(total > 0 ? total : 0));
    return 0;
}

struct CurlDeleter {
    void operator()(CURL* c) const { curl_easy_cleanup(c); }
};

std::string host_of(const std::string& url) {
    const auto start = url.find("://");
    const auto from = start == std::string::npos ? 0 : start + 3;
    return url.substr(from, url.find('/', from) - from);
}

} // namespace

void fetch_to_file(const std::string& url, const fs::path& out, const FetchOptions& options,
                   const ChunkFilter& filter) {
    global_init();
    std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
    if (!curl)
        throw FetchError(FetchError::Kind::io,
                         "cannot start an HTTP transfer (libcurl init failed)");
    fs::path tmp = out;
    tmp += ".part";
    std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
    if (!file) throw FetchError(FetchError::Kind::io, "cannot write " + tmp.string());
    Transfer t;
    t.out = &file;
    t.filter = &filter;
    t.options = &options;
    char error[CURL_ERROR_SIZE] = {0};
    CURL* c = curl.get();
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, &t);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    // Only web protocols: a mirror URL must not make the client read local files or other schemes.
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, ""); // gzip/deflate when the server offers it
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, options.connect_timeout_s);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1024L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, options.stall_timeout_s);
    if (options.total_timeout_s > 0) curl_easy_setopt(c, CURLOPT_TIMEOUT, options.total_timeout_s);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "clusterplan-catalog-refresh");
    const CURLcode rc = curl_easy_perform(c);
    long status = 0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    if (rc == CURLE_OK && filter) {
        t.buffer.clear();
        filter({}, true, t.buffer);
        write_kept(t, t.buffer);
    }
    file.close();
    auto discard = [&] {
        std::error_code ec;
        fs::remove(tmp, ec);
    };
    const std::string& where = url;
    if (rc != CURLE_OK || t.too_large || t.write_failed) {
        discard();
        using K = FetchError::Kind;
        if (t.too_large)
            throw FetchError(K::too_large,
                             where + ": the download is larger than the limit of a refresh file");
        if (t.write_failed)
            throw FetchError(K::io, "cannot write the download of " + where + " (disk full?)");
        const std::string detail =
            error[0] ? std::string(error) : std::string(curl_easy_strerror(rc));
        switch (rc) {
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY:
        case CURLE_COULDNT_CONNECT:
            throw FetchError(K::offline, "cannot reach " + host_of(url) +
                                             " (offline, or the address is wrong): " + detail);
        case CURLE_OPERATION_TIMEDOUT:
            throw FetchError(K::timeout, where + ": timed out (" + detail + ")");
        case CURLE_ABORTED_BY_CALLBACK:
            throw FetchError(K::cancelled, "cancelled while downloading " + where);
        default:
            throw FetchError(K::transfer, where + ": the download failed (" + detail + ")");
        }
    }
    if (status >= 400 || (status != 0 && status < 200)) {
        discard();
        throw FetchError(FetchError::Kind::http,
                         where + ": the server answered HTTP " + std::to_string(status));
    }
    std::error_code ec;
    fs::rename(tmp, out, ec);
    if (ec) {
        discard();
        throw FetchError(FetchError::Kind::io,
                         "cannot write " + out.string() + ": " + ec.message());
    }
}

} // namespace cp::catalog::refresh
