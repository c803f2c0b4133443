#include "engine/gaudi_rates.h"

namespace cp::sim {
namespace {

// Fitted by gaudi_validation_tests over the single-card ResNet-50 rows of
// tests/data/validation/gaudi_training.csv (Habana's model-performance page for SynapseAI 1.0.0,
// TensorFlow 2.5 ResNet-50 Keras, bf16 mixed precision, 1,690 and 1,700 img/s at batch 256):
// the measured images/s x 24.5 GFLOP per image over Gaudi1's catalog BF16 rate. The test refits
// and fails when this differs from the fit by more than 0.5 %, printing the value to paste here.
// It is a whole-step figure: convolutions on the MME, batch-norm and activations on the TPCs and
// the input pipeline together, as the NVIDIA fractions in model_constants.h are.
constexpr double kGenericComputeFractionGaudi1 = 0.8771;

} // namespace

double gaudi_generic_compute_fraction(const AcceleratorSpec& accelerator, Precision precision) {
    // Gaudi1's matrix engine runs bf16 and fp32 only (Habana SynapseAI graph compiler HAL,
    // supportedMmeTypes), and only bf16 mixed precision was measured.
    if (accelerator.id != "Gaudi1" || precision != Precision::bf16) return kUnknown;
    return kGenericComputeFractionGaudi1;
}

bool rate_measured_derived(const AcceleratorSpec& accelerator) {
    return accelerator.id == "Gaudi1";
}

bool has_fused_attention_kernel(const AcceleratorSpec& accelerator) {
    return accelerator.id != "Gaudi1";
}

} // namespace cp::sim
