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
        {"fsdp", G::hopper, 126, 7, 0.8786, 1.1415, 0.7844, 1.2624},
        {"megatron", G::ampere, 127, 3, 0.9339, 1.1523, 0.9184, 1.9428},
        {"megatron", G::hopper, 82, 5, 0.8715, 1.0981, 0.8203, 1.2213},
        {"neuron", G::trainium, 16, 1, 1.0953, 1.4429, 1.0548, 1.5676},
    };
    return table;
}

} // namespace cp::sim
