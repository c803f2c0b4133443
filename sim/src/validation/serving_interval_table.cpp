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
        {"tensorrt-llm", G::ampere, 83, 2, 0.8593, 1.3308, 0.7999, 1.8405},
        {"tensorrt-llm", G::hopper, 171, 3, 0.9705, 1.2646, 0.8575, 1.8544},
        {"vllm", G::ampere, 5, 2, 0.8848, 1.3894, 0.8810, 1.5131},
        {"vllm", G::hopper, 1, 1, 1.2469, 1.2469, 1.2469, 1.2469},
        {"tgi", G::ampere, 4, 1, 0.9004, 1.5909, 0.8832, 1.8145},
        {"neuron", G::trainium, 28, 2, 0.2864, 0.8653, 0.2506, 0.8792},
        {"neuron", G::other, 29, 2, 0.2847, 1.1362, 0.0748, 1.4471},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.6041, 2.9924, 0.5676, 3.7988},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8347, 1.5997, 0.6964, 3.8478},
        {"vllm", G::ampere, 6, 2, 0.4922, 1.2352, 0.4546, 1.2970},
        {"vllm", G::hopper, 2, 1, 1.0616, 1.1125, 1.0552, 1.1189},
        {"tgi", G::ampere, 4, 1, 0.6601, 3.8903, 0.5819, 4.8889},
        {"neuron", G::trainium, 36, 1, 1.2597, 7.3440, 0.9672, 8.5038},
        {"neuron", G::other, 42, 1, 1.4563, 4.4293, 1.2594, 6.2269},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.5496, 0.8935, 0.4678, 0.9115},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8600, 1.3801, 0.7668, 3.2985},
        {"vllm", G::ampere, 6, 2, 0.5889, 1.3159, 0.4517, 1.3739},
        {"vllm", G::hopper, 2, 1, 0.9842, 1.0762, 0.9727, 1.0877},
        {"tgi", G::ampere, 4, 1, 0.6149, 0.9020, 0.5285, 0.9042},
        {"neuron", G::trainium, 46, 2, 0.2989, 0.8048, 0.2475, 0.8586},
        {"neuron", G::other, 55, 2, 0.3254, 1.0571, 0.1123, 1.4640},
        {"tensorrt", G::ampere, 96, 1, 0.5033, 0.9038, 0.4444, 1.3126},
        {"tensorrt", G::other, 3, 1, 0.9581, 1.3928, 0.8707, 1.4140},
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
