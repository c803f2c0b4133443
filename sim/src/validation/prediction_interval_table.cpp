// The committed leave-one-source-out residual buckets over tests/data/validation/
// training_runs.csv (prediction_interval.h). The validation test recomputes them with
// compute_residual_buckets and prints this table again when the fixtures or the model change.
#include "clusterplan/sim/prediction_interval.h"

namespace cp::sim {

const std::vector<ResidualBucket>& residual_buckets() {
    using G = AcceleratorGeneration;
    static const std::vector<ResidualBucket> table = {
        // family, generation, runs, sources, p10, p90, min, max (measured / predicted time)
        {"deepspeed", G::ampere, 113, 3, 0.7701, 0.9918, 0.7493, 1.6417},
        {"fsdp", G::ampere, 151, 3, 0.9407, 1.1238, 0.8000, 1.4121},
        {"fsdp", G::hopper, 83, 3, 0.8800, 1.2296, 0.8142, 1.3084},
        {"megatron", G::ampere, 18, 2, 0.9092, 1.1177, 0.9014, 1.1215},
        {"megatron", G::hopper, 10, 1, 0.9282, 1.0646, 0.8865, 1.0868},
        {"neuron", G::trainium, 6, 1, 1.0222, 1.2448, 0.9723, 1.3008},
    };
    return table;
}

} // namespace cp::sim
