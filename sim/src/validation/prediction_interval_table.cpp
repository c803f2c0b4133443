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
        {"fsdp", G::ampere, 161, 7, 0.8679, 1.0409, 0.8096, 1.2946},
        {"fsdp", G::hopper, 134, 8, 0.8836, 1.1511, 0.7844, 1.4478},
        {"megatron", G::ampere, 148, 5, 0.9364, 1.1991, 0.9184, 1.9428},
        {"megatron", G::hopper, 152, 8, 0.8636, 1.0826, 0.8192, 1.2215},
        {"neuron", G::trainium, 16, 1, 1.1007, 1.4398, 1.0529, 1.5646},
    };
    return table;
}

} // namespace cp::sim
