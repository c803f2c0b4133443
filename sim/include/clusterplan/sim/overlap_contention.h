// How much ZeRO-3's collectives (PyTorch FSDP FULL_SHARD / FSDP2, DeepSpeed stage 3: per-layer
// parameter all-gathers and gradient reduce-scatters) slow the compute they run beside (the
// engine's contended_overlap_s).
#pragma once

namespace cp::sim {

struct OverlapContention {
    // Compute slowdown while a ZeRO-3 collective runs beside it on Hopper, as a fraction of the
    // compute's own time (1.0: the compute takes twice as long). Hopper's cuBLAS GEMMs are
    // persistent kernels that launch one block per SM; the SMs NCCL's kernel holds leave some of
    // those blocks for a second wave, which can double a matmul's time while the collective runs
    // (pytorch/pytorch issue 143988, FSDP on H100: "the matmuls take 2x as long" overlapped with a
    // NCCL kernel holding ~10 % of the SMs; PR 147966 added an SM carve-out that the frameworks in
    // the fixture do not set). Lee et al. 2025 (arXiv:2507.03114) measure 18.9 % on average over
    // A100 and H100 runs with their own kernels. What a step reaches between the two depends on
    // how many of its GEMMs meet a collective, so the value is fitted over the published runs on
    // Hopper by tests/sim/validation_runs_test.cpp, which checks this value and refits it with
    // each source left out. Other generations' GEMMs are not persistent: Lee et al.'s average.
    double hopper_slowdown = 0.739;
    static constexpr double kMinHopperSlowdown = 0.189; // Lee et al. 2025 average
    static constexpr double kMaxHopperSlowdown = 1.0;   // two waves: twice the matmul time
};

} // namespace cp::sim
