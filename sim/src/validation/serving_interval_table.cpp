// The committed leave-one-source-out residual buckets of the bundled serving runs
// (resources/serving/published_runs.json; serving_interval.h). The serving validation test
// recomputes them with compute_serving_residual_buckets and prints these tables again when the
// runs or the model change.
#include "clusterplan/sim/serving_interval.h"

namespace cp::sim {

const std::vector<ResidualBucket>& serving_residual_buckets(ServingFigure figure) {
    using G = AcceleratorGeneration;
    // engine, generation, runs, sources, p10, p90, min, max (measured / predicted time)
    static const std::vector<ResidualBucket> throughput = {
        {"tensorrt-llm", G::ampere, 83, 2, 0.8623, 1.3408, 0.8030, 2.0458},
        {"tensorrt-llm", G::hopper, 171, 3, 0.9740, 1.2659, 0.8575, 2.0699},
        {"vllm", G::ampere, 5, 2, 0.8848, 1.3894, 0.8810, 1.5131},
        {"vllm", G::hopper, 1, 1, 1.2469, 1.2469, 1.2469, 1.2469},
        {"tgi", G::ampere, 4, 1, 0.9004, 1.5909, 0.8832, 1.8145},
        {"neuron", G::trainium, 28, 2, 0.2618, 0.9435, 0.2312, 0.9586},
        {"neuron", G::other, 29, 2, 0.2606, 1.1392, 0.0600, 2.8779},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.6376, 3.3434, 0.5980, 4.2637},
        {"tensorrt-llm", G::hopper, 48, 2, 0.9870, 1.9693, 0.8235, 11.2087},
        {"vllm", G::ampere, 6, 2, 0.5090, 1.2546, 0.4686, 1.3208},
        {"vllm", G::hopper, 2, 1, 1.1116, 1.1680, 1.1045, 1.1751},
        {"tgi", G::ampere, 4, 1, 0.6968, 4.3444, 0.6131, 5.4862},
        {"neuron", G::trainium, 36, 1, 1.2641, 7.7873, 0.9693, 9.6044},
        {"neuron", G::other, 42, 1, 1.4670, 4.5936, 1.2673, 6.6718},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.5496, 0.8935, 0.4678, 0.9115},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8600, 1.3801, 0.7668, 3.2985},
        {"vllm", G::ampere, 6, 2, 0.5889, 1.3159, 0.4517, 1.3739},
        {"vllm", G::hopper, 2, 1, 0.9842, 1.0762, 0.9727, 1.0877},
        {"tgi", G::ampere, 4, 1, 0.6149, 0.9020, 0.5285, 0.9042},
        {"neuron", G::trainium, 46, 2, 0.2668, 0.7955, 0.2283, 0.9359},
        {"neuron", G::other, 55, 2, 0.2914, 1.0577, 0.0964, 2.1198},
        {"tensorrt", G::ampere, 96, 1, 0.4109, 0.8380, 0.3398, 1.1644},
        {"tensorrt", G::other, 3, 1, 0.9154, 1.3501, 0.8707, 1.4140},
    };
    switch (figure) {
    case ServingFigure::throughput:
        return throughput;
    case ServingFigure::ttft:
        return ttft;
    case ServingFigure::step:
        return step;
    }
    return throughput;
}

} // namespace cp::sim
