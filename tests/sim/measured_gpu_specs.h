// The catalog's Hopper rows as the tests against the GPUs measured on 2026-11-27 use them.
#pragma once

#include "clusterplan/sim/hardware.h"

namespace cp::test {

// catalog/data/accelerators.csv, NVIDIA H100 / H200 datasheets, dense figures: the same compute;
// the H200's memory is larger and faster.
inline sim::AcceleratorSpec measured_hopper_spec(const char* id, double memory_gib,
                                                 double hbm_gbytes_per_s) {
    sim::AcceleratorSpec a;
    a.id = id;
    a.vendor = "NVIDIA";
    a.peak_tflops = {67.0, 494.7, 989.4, 989.4, 1978.9};
    a.memory_gib = memory_gib;
    a.hbm_gbytes_per_s = hbm_gbytes_per_s;
    a.tdp_w = 700;
    return a;
}

inline sim::AcceleratorSpec measured_h200_spec() {
    return measured_hopper_spec("H200-141GB", 141, 4800);
}

inline sim::AcceleratorSpec measured_h100_spec() {
    return measured_hopper_spec("H100-80GB", 80, 3350);
}

} // namespace cp::test
