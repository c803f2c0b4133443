// What `calibrate import` does with an accepted table or probe document, checked on fuzzed
// input: fit it, store the profile as JSON and read it back. Only CalibrationInputError may
// reject the data; a fitted time must never be NaN or negative (it would poison the simulator).
#pragma once

#include "clusterplan/sim/calibration_fit.h"
#include "clusterplan/sim/calibration_probe.h"
#include "clusterplan/sim/calibration_profile_json.h"
#include "clusterplan/sim/calibration_samples.h"
#include "fuzz_common.h"

#include <cmath>
#include <string>
#include <vector>

namespace cp::fuzz {

inline void check_fit_times(const cp::sim::CollectiveFit& fit) {
    for (const double bytes : {0.0, 8.0, 1.0e6, 1.0e9, 1.0e12}) {
        const double t = cp::sim::collective_time_s(fit, bytes);
        if (std::isnan(t) || t < 0) {
            const std::string detail = fit.collective + " at " + std::to_string(bytes) +
                                       " bytes: " + std::to_string(t) + " s";
            finding("fitted collective time is NaN or negative", detail.c_str());
        }
    }
}

inline void check_profile(const cp::sim::CalibrationProfile& profile) {
    for (const auto& fit : profile.intra_node)
        check_fit_times(fit);
    for (const auto& fit : profile.inter_node)
        check_fit_times(fit);
    const auto stored = cp::sim::profile_to_json(profile);
    try {
        (void)cp::sim::profile_from_json(stored, "stored-profile");
    } catch (const cp::sim::CalibrationInputError& e) {
        finding("stored calibration profile cannot be read back", e.what());
    }
}

inline cp::sim::ProfileMeta fuzz_meta() {
    cp::sim::ProfileMeta meta;
    meta.name = "fuzz";
    meta.host = "fuzz-host";
    meta.instance_type = "p4d.24xlarge";
    meta.source = "nccl-tests";
    return meta;
}

// An imported collective table, as `calibrate import` handles it after parsing.
inline void check_table(const cp::sim::CollectiveTable& table) {
    expect_only<cp::sim::CalibrationInputError>(
        [&] { check_profile(cp::sim::profile_from_tables({table}, fuzz_meta())); });
}

} // namespace cp::fuzz
