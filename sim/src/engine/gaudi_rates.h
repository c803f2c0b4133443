// Habana Gaudi's measured whole-step rates. No vendor publishes Gaudi1's dense matrix peak, so
// its catalog BF16 figure is a measured-derived rate (catalog/data/accelerators.csv), and the CNN
// fraction here is relative to it; both are fitted over tests/data/validation/gaudi_training.csv.
#pragma once

#include "clusterplan/sim/hardware.h"

namespace cp::sim {

// Whole-step fraction of the accelerator's 16-bit rate a CNN-like (generic) model reaches, where
// it was measured on that accelerator family; NaN where no measurement of the family is known.
double gaudi_generic_compute_fraction(const AcceleratorSpec& accelerator, Precision precision);

// Whether the accelerator's catalog 16-bit rate was fitted on its own measured runs (Gaudi1): such
// a rate already carries its software stack's efficiency, so the framework factors fitted on other
// hardware's runs do not apply to it.
bool rate_measured_derived(const AcceleratorSpec& accelerator);

// Whether the accelerator's software has a fused attention kernel (FlashAttention, cuDNN/TE fused
// attention, Neuron's, Habana's FusedSDPA). Gaudi1 has none: Habana's PyTorch bridge skips its
// FusedSDPA tests on it ("SDPA tests not supported on G1", HabanaAI/gaudi-pytorch-bridge
// tests/pytest_working/any_mode/FusedSDPA/test_hpu_sdpa.py at 5a56187e), so its attention
// materialises the s x s scores whatever the scenario asks.
bool has_fused_attention_kernel(const AcceleratorSpec& accelerator);

} // namespace cp::sim
