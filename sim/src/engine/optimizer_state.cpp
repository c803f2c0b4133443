#include "engine/optimizer_state.h"

#include "engine/memory_model.h"
#include "engine/model_constants.h"

namespace cp::sim {
namespace {

constexpr double kFp32Bytes = 4.0;
constexpr double kBf16Bytes = 2.0;

// Moment state per parameter, bytes.
double moment_bytes(Optimizer optimizer) {
    switch (optimizer) {
    // AdamW (Loshchilov & Hutter 2019): fp32 first and second moments (ZeRO paper, sec. 3.1).
    case Optimizer::adamw:
        return model::kOptimizerBytesFp32;
    // 8-bit Adam (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization"): both
    // moments in 8 bit with one fp32 scale per 2,048-element block (0.004 B, ignored).
    case Optimizer::adamw_8bit:
        return 2.0;
    // Adafactor (Shazeer & Stern 2018) keeps no first moment (beta1 = 0, the default) and factors
    // the second moment of a matrix into row and column sums: O(n + m) for n*m weights.
    case Optimizer::adafactor:
        return 0.0;
    // SGD with momentum (the usual choice; PyTorch's momentum buffer is fp32).
    case Optimizer::sgd:
        return kFp32Bytes;
    // Lion (Chen et al. 2023, "Symbolic Discovery of Optimization Algorithms") tracks only the
    // momentum.
    case Optimizer::lion:
        return kFp32Bytes;
    // Full BF16 (XLA_USE_BF16 on Neuron): both moments in BF16.
    case Optimizer::adamw_bf16:
        return 2.0 * kBf16Bytes;
    }
    return 2.0 * kFp32Bytes;
}

bool mixed(Precision precision) {
    return precision != Precision::fp32 && precision != Precision::tf32;
}

// An fp32 master copy of the 16-bit weights: mixed precision keeps one, except full BF16 training,
// which updates the BF16 weights in place with stochastic rounding.
bool master_copy(Optimizer optimizer, Precision precision) {
    return mixed(precision) && optimizer != Optimizer::adamw_bf16;
}

// Bytes moved per parameter by the update itself: gradient read, moments and master read and
// written, the low-precision weight copy written. Adafactor reads the gradient twice (its
// row/column statistics, then the update).
double raw_traffic(Optimizer optimizer, Precision precision) {
    const double w = weight_bytes_per_param(precision);
    const bool master = master_copy(optimizer, precision);
    const double grad_reads = optimizer == Optimizer::adafactor ? 2.0 : 1.0;
    return grad_reads * w + 2.0 * (moment_bytes(optimizer) + (master ? kFp32Bytes : 0.0)) +
           (master ? w : 0.0);
}

} // namespace

double optimizer_state_bytes_per_param(Optimizer optimizer, Precision precision) {
    // AdamW reproduces the step model's constants (12 B mixed precision, 8 B fp32).
    const double master = model::kOptimizerBytesMixed - model::kOptimizerBytesFp32;
    return moment_bytes(optimizer) + (master_copy(optimizer, precision) ? master : 0.0);
}

double optimizer_traffic_bytes_per_param(Optimizer optimizer, Precision precision) {
    // The step model's Adam traffic (model_constants.h, which adds the grad-norm and unscale
    // passes) scaled by how much less or more this optimizer moves than mixed-precision Adam.
    return model::kOptimizerTrafficBytesPerParam * raw_traffic(optimizer, precision) /
           raw_traffic(Optimizer::adamw, Precision::bf16);
}

const char* optimizer_description(Optimizer optimizer) {
    switch (optimizer) {
    case Optimizer::adamw:
        return "AdamW: fp32 moments (8 B) + fp32 master (4 B) per trainable parameter";
    case Optimizer::adamw_8bit:
        return "8-bit AdamW (Dettmers et al. 2022, block-wise quantised moments): 2 B + fp32 "
               "master 4 B";
    case Optimizer::adafactor:
        return "Adafactor (Shazeer & Stern 2018): factored second moment, no first moment: ~0 B + "
               "master 4 B";
    case Optimizer::sgd:
        return "SGD with momentum: fp32 momentum 4 B + master 4 B";
    case Optimizer::lion:
        return "Lion (Chen et al. 2023): momentum only, 4 B + master 4 B";
    case Optimizer::adamw_bf16:
        return "AdamW in full BF16 (Neuron XLA_USE_BF16, stochastic rounding): BF16 moments 4 B, "
               "no fp32 master";
    }
    return "";
}

} // namespace cp::sim
