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
        {"fsdp", G::ampere, 161, 7, 0.8645, 1.0393, 0.8068, 1.2967},
        {"fsdp", G::hopper, 134, 8, 0.8826, 1.1366, 0.8080, 1.3255},
        {"megatron", G::ampere, 138, 4, 0.9355, 1.2085, 0.9184, 1.9428},
        {"megatron", G::hopper, 150, 7, 0.8799, 1.0739, 0.8380, 1.2068},
        {"neuron", G::trainium, 16, 1, 1.1063, 1.4473, 1.0575, 1.5719},
    };
    return table;
}

} // namespace cp::sim
