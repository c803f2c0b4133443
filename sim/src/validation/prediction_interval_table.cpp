// The committed leave-one-source-out residual buckets over tests/data/validation/
// training_runs.csv (prediction_interval.h). The validation test recomputes them with
// compute_residual_buckets and prints this table again when the fixtures or the model change.
#include "clusterplan/sim/prediction_interval.h"

namespace cp::sim {

const std::vector<ResidualBucket>& residual_buckets() {
    using G = AcceleratorGeneration;
    static const std::vector<ResidualBucket> table = {
        // family, generation, runs, sources, p10, p90, min, max (measured / predicted time)
        {"deepspeed", G::ampere, 113, 3, 0.7581, 0.9877, 0.7392, 1.6464},
        {"fsdp", G::ampere, 151, 3, 0.9336, 1.1166, 0.7912, 1.4020},
        {"fsdp", G::hopper, 83, 3, 0.9959, 1.3784, 0.6464, 1.4617},
        {"megatron", G::ampere, 18, 2, 0.9072, 1.1192, 0.8952, 1.1226},
        {"megatron", G::hopper, 10, 1, 0.9472, 1.0848, 0.9025, 1.1115},
        {"neuron", G::trainium, 6, 1, 1.0404, 1.2646, 0.9881, 1.3210},
    };
    return table;
}

} // namespace cp::sim
