// Fuzz target: one catalog import format (CP_FUZZ_IMPORT_FORMAT, a name accepted by
// parse_format), run as `catalog import` runs it: the input is written to a file and imported
// into a real catalog database. Bad files may only raise ImportError, and a rejected import
// must leave the database exactly as it was (imports are one transaction). Inputs of odd size
// go through format detection instead of the named format.
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/catalog/importers.h"
#include "fuzz_common.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
namespace cat = cp::catalog;

struct State {
    fs::path dir;
    std::unique_ptr<cat::Catalog> catalog;
    std::string dump; // the database as it must be after a rejected import
    cat::ImportFormat format{};
};

State& state() {
    static State* s = [] {
        auto* st = new State;
        const fs::path base =
            fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
        st->dir = base / ("clusterplan-fuzz-" + std::string(CP_FUZZ_IMPORT_FORMAT) + "-" +
                          std::to_string(::getpid()));
        fs::remove_all(st->dir);
        fs::create_directories(st->dir);
        st->catalog = std::make_unique<cat::Catalog>(st->dir / "catalog.sqlite");
        st->dump = st->catalog->dump();
        const auto format = cat::parse_format(CP_FUZZ_IMPORT_FORMAT);
        if (!format) cp::fuzz::finding("unknown import format", CP_FUZZ_IMPORT_FORMAT);
        st->format = *format;
        // The database lives for the whole run; remove it when the process ends normally.
        std::atexit([] {
            std::error_code ec;
            fs::remove_all(state().dir, ec);
        });
        return st;
    }();
    return *s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    State& st = state();
    const fs::path file = st.dir / ("input." + std::string(CP_FUZZ_IMPORT_EXT));
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    cat::ImportOptions options;
    if (size % 2 == 0) options.format = st.format;
    options.as_of = "2025-06-01";
    bool accepted = false;
    cp::fuzz::expect_only<cat::ImportError>([&] {
        (void)cat::import_file(*st.catalog, file, options);
        accepted = true;
    });
    const std::string after = st.catalog->dump();
    if (!accepted && after != st.dump)
        cp::fuzz::finding("rejected import changed the database", "");
    st.dump = after;
    return 0;
}
