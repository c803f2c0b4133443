// Shared helpers for the fuzz targets. A parser may reject input only with its documented
// error type, and that error must be a usable one-line message; anything else (another
// exception type, an empty or multi-line message) is a finding and aborts, which libFuzzer
// reports as a crash and the replay test as a failure.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>
#include <typeinfo>

namespace cp::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

[[noreturn]] inline void finding(const char* what, const char* detail) {
    std::fprintf(stderr, "FUZZ FINDING: %s: %s\n", what, detail);
    std::fflush(stderr);
    std::abort();
}

// The CLI prints what() as the one sentence on stderr: it must say something, on one line,
// without terminal escape sequences copied from a hostile file.
inline void check_message(const char* message) {
    const std::string_view text(message);
    if (text.empty()) finding("empty error message", "");
    for (const char c : text) {
        if (c == '\n' || c == '\r') finding("multi-line error message", message);
        if (c == '\x1b') finding("error message carries an escape character", message);
    }
}

// Runs `body`; `Expected` (the parser's documented error) is fine, anything else is a finding.
template <class Expected, class Body>
void expect_only(Body&& body) {
    try {
        body();
    } catch (const Expected& e) {
        check_message(e.what());
    } catch (const std::exception& e) {
        std::string detail = std::string(typeid(e).name()) + ": " + e.what();
        finding("undocumented exception type", detail.c_str());
    } catch (...) {
        finding("non-std exception", "");
    }
}

} // namespace cp::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
