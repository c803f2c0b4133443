// Fuzz target: the clusterplan.probe/1 document parser, then the profile built from it (fits
// of every collective) and its storage round trip, as `calibrate import` does.
#include "calibration_checks.h"
#include "clusterplan/sim/calibration_import.h"
#include "clusterplan/sim/calibration_probe.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto text = cp::fuzz::as_text(data, size);
    (void)cp::sim::detect_collective_format(text);
    cp::fuzz::expect_only<cp::sim::CalibrationInputError>([&] {
        const cp::sim::ProbeDocument doc = cp::sim::parse_probe_json(text, "probe.json");
        auto meta = cp::fuzz::fuzz_meta();
        meta.source = "probe";
        cp::fuzz::check_profile(cp::sim::profile_from_probe(doc, meta));
    });
    return 0;
}
