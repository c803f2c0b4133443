// The committed leave-one-source-out residual buckets over tests/data/validation/
// training_runs.csv (prediction_interval.h). The validation test recomputes them with
// compute_residual_buckets and prints this table again when the fixtures or the model change.
#include "clusterplan/sim/prediction_interval.h"

namespace cp::sim {

const std::vector<ResidualBucket>& residual_buckets() {
    using G = AcceleratorGeneration;
    static const std::vector<ResidualBucket> table = {
        // family, generation, runs, sources, p10, p90, min, max (measured / predicted time)
        {"deepspeed", G::ampere, 5, 3, 0.9576, 1.0963, 0.9291, 1.1093},
        {"fsdp", G::ampere, 161, 7, 0.8668, 1.0420, 0.8089, 1.3000},
        {"fsdp", G::hopper, 134, 8, 0.8808, 1.1347, 0.8086, 1.3262},
        {"megatron", G::ampere, 138, 4, 0.9355, 1.2085, 0.9184, 1.9428},
        {"megatron", G::hopper, 150, 7, 0.8633, 1.0792, 0.8192, 1.2215},
        {"neuron", G::trainium, 16, 1, 1.1059, 1.4467, 1.0572, 1.5714},
    };
    return table;
}

} // namespace cp::sim
