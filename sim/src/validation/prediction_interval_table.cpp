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
        {"fsdp", G::hopper, 83, 3, 0.9140, 1.2354, 0.8457, 1.3489},
        {"megatron", G::ampere, 18, 2, 0.9092, 1.1177, 0.9014, 1.1215},
        {"megatron", G::hopper, 10, 1, 0.9340, 1.0706, 0.8913, 1.0942},
        {"neuron", G::trainium, 6, 1, 1.0277, 1.2507, 0.9771, 1.3068},
    };
    return table;
}

} // namespace cp::sim
