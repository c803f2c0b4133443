// The committed leave-one-source-out residual buckets over tests/data/validation/
// training_runs.csv (prediction_interval.h). The validation test recomputes them with
// compute_residual_buckets and prints this table again when the fixtures or the model change.
#include "clusterplan/sim/prediction_interval.h"

namespace cp::sim {

const std::vector<ResidualBucket>& residual_buckets() {
    using G = AcceleratorGeneration;
    static const std::vector<ResidualBucket> table = {
        // family, generation, runs, sources, p10, p90, min, max (measured / predicted time)
        {"deepspeed", G::ampere, 114, 4, 0.7700, 1.0016, 0.7492, 1.6414},
        {"fsdp", G::ampere, 154, 6, 0.8687, 1.0374, 0.8096, 1.2945},
        {"fsdp", G::hopper, 105, 5, 0.8656, 1.1578, 0.7729, 1.3005},
        {"megatron", G::ampere, 18, 2, 0.9092, 1.1177, 0.9014, 1.1215},
        {"megatron", G::hopper, 23, 3, 0.9285, 1.1986, 0.8821, 1.2638},
        {"neuron", G::trainium, 10, 1, 1.1584, 1.2943, 1.0876, 1.4461},
    };
    return table;
}

} // namespace cp::sim
