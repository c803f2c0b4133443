// Fuzz target: the parser for nccl-tests -J JSON, then the fit and profile
// storage that `calibrate import` runs on what it accepts.
#include "calibration_checks.h"
#include "clusterplan/sim/calibration_import.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto text = cp::fuzz::as_text(data, size);
    // Odd sizes also exercise the path where the user names the collective.
    const std::string hint = (size % 2 == 1) ? "all_gather" : "";
    cp::fuzz::expect_only<cp::sim::CalibrationInputError>([&] {
        const cp::sim::CollectiveTable table =
            cp::sim::parse_nccl_tests_json(text, "nccl.json", hint);
        cp::fuzz::check_table(table);
    });
    return 0;
}
