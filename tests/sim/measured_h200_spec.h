// The catalog's H200 row as the tests against the H200 measured on 2026-11-27 use it.
#pragma once

#include "clusterplan/sim/hardware.h"

namespace cp::test {

// catalog/data/accelerators.csv, NVIDIA H200 datasheet, dense figures.
inline sim::AcceleratorSpec measured_h200_spec() {
    sim::AcceleratorSpec a;
    a.id = "H200-141GB";
    a.vendor = "NVIDIA";
    a.peak_tflops = {67.0, 494.7, 989.4, 989.4, 1978.9};
    a.memory_gib = 141;
    a.hbm_gbytes_per_s = 4800;
    a.tdp_w = 700;
    return a;
}

} // namespace cp::test
