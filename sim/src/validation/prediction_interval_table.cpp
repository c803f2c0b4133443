// The committed leave-one-source-out residual buckets over tests/data/validation/
// training_runs.csv (prediction_interval.h). The validation test recomputes them with
// compute_residual_buckets and prints this table again when the fixtures or the model change.
#include "clusterplan/sim/prediction_interval.h"

namespace cp::sim {

const std::vector<ResidualBucket>& residual_buckets() {
    using G = AcceleratorGeneration;
    static const std::vector<ResidualBucket> table = {
        // family, generation, runs, sources, p10, p90, min, max (measured / predicted time)
        {"deepspeed", G::volta, 30, 2, 0.7855, 1.2200, 0.7678, 1.2661},
        {"deepspeed", G::ampere, 36, 7, 0.8869, 1.2160, 0.8552, 1.2790},
        {"deepspeed", G::hopper, 28, 2, 0.9604, 1.8544, 0.9184, 3.1844},
        {"fsdp", G::ampere, 166, 8, 0.8743, 1.0338, 0.8158, 1.3107},
        {"fsdp", G::hopper, 143, 10, 0.8931, 1.1337, 0.8181, 1.2660},
        {"megatron", G::volta, 2, 2, 0.8958, 1.1088, 0.8692, 1.1354},
        {"megatron", G::ampere, 149, 6, 0.9365, 1.1979, 0.9184, 1.9428},
        {"megatron", G::hopper, 269, 26, 0.8885, 1.0958, 0.8268, 1.6276},
        {"megatron", G::ada, 2, 1, 1.2699, 1.2765, 1.2690, 1.2773},
        {"neuron", G::trainium, 19, 3, 0.8684, 1.1050, 0.8445, 1.2439},
    };
    return table;
}

} // namespace cp::sim
