// Shared helpers for the fuzz targets. A parser may reject input only with its documented
// error type, carrying a non-empty message; anything else (another exception type, an empty
// message) is a finding and aborts, which libFuzzer reports as a crash and the replay test as
// a failure.
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

// The message is the one sentence the user sees: it must say something. (The CLI dispatcher
// makes it one printable line of bounded length, so quoting hostile bytes is harmless there.)
inline void check_message(const char* message) {
    if (message == nullptr || *message == '\0') finding("empty error message", "");
}

// Runs `body`; `Expected` (the parser's documented error) is fine, anything else is a finding.
template <class Expected, class Body> void expect_only(Body&& body) {
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
