// The committed leave-one-source-out residual buckets over tests/data/validation/
// training_runs.csv (prediction_interval.h). The validation test recomputes them with
// compute_residual_buckets and prints this table again when the fixtures or the model change.
#include "clusterplan/sim/prediction_interval.h"

namespace cp::sim {

const std::vector<ResidualBucket>& residual_buckets() {
    using G = AcceleratorGeneration;
    static const std::vector<ResidualBucket> table = {
        // family, generation, runs, sources, p10, p90, min, max (measured / predicted time)
        {"deepspeed", G::volta, 30, 2, 0.7823, 1.2154, 0.7647, 1.2611},
        {"deepspeed", G::ampere, 31, 5, 0.8782, 1.1124, 0.8518, 1.2193},
        {"deepspeed", G::hopper, 28, 2, 0.9378, 1.9643, 0.8648, 3.5292},
        {"fsdp", G::ampere, 166, 8, 0.8743, 1.0338, 0.8158, 1.3107},
        {"fsdp", G::hopper, 137, 9, 0.8894, 1.1382, 0.8181, 1.2660},
        {"megatron", G::volta, 2, 2, 0.8958, 1.1088, 0.8692, 1.1354},
        {"megatron", G::ampere, 149, 6, 0.9365, 1.1979, 0.9184, 1.9428},
        {"megatron", G::hopper, 239, 23, 0.8885, 1.0912, 0.8268, 1.4110},
        {"megatron", G::ada, 2, 1, 1.2699, 1.2765, 1.2690, 1.2773},
        {"neuron", G::trainium, 19, 3, 0.8684, 1.1050, 0.8445, 1.2439},
    };
    return table;
}

} // namespace cp::sim
