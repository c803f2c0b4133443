// Wave quantisation of small GEMMs on a GPU: a kernel's output tiles run one per SM at a time, so
// a GEMM with fewer tiles than the GPU has SMs leaves the rest idle and takes one tile's time
// however many SMs the part has (ResNet-50 at batch 1: the 7 x 7 x 2048 stage runs 8-32 tiles).
#include "engine/model_constants.h"
#include "serving/serving_model.h"

#include <cmath>

namespace cp::sim {

double gemm_wave_floor_s(const ServingSetup& st, double m, double n, double k) {
    if (!st.hw.device.is_gpu || !(st.hw.sms > 0) || m <= 0 || n <= 0 || k <= 0) return 0;
    // The narrowest output tile cuBLAS and TensorRT use on tensor cores (kGemmTileWidth) gives the
    // most tiles and so the shortest time; each SM runs its tile at its share of the sustained
    // peak.
    const double tile = model::kGemmTileWidth;
    const double tiles = std::ceil(m / tile) * std::ceil(n / tile);
    const double waves = std::ceil(tiles / st.hw.sms);
    const double sm_flops_per_s = st.rates.peak_flops * st.rates.best_gemm_fraction *
                                  st.rates.power_clock_fraction / st.hw.sms;
    if (!(sm_flops_per_s > 0)) return 0;
    return waves * 2.0 * tile * tile * k / sm_flops_per_s;
}

} // namespace cp::sim
