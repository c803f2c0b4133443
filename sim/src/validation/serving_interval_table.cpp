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
        {"tensorrt-llm", G::ampere, 47, 2, 0.9894, 1.5849, 0.9215, 1.9518},
        {"tensorrt-llm", G::hopper, 171, 3, 0.9705, 1.2823, 0.9428, 1.7636},
        {"tensorrt-llm", G::ada, 36, 1, 0.8176, 1.2412, 0.7952, 1.2999},
        {"vllm", G::ampere, 5, 2, 0.9113, 1.3557, 0.9110, 1.4745},
        {"vllm", G::hopper, 1, 1, 1.3138, 1.3138, 1.3138, 1.3138},
        {"tgi", G::ampere, 4, 1, 0.9279, 1.5230, 0.9142, 1.7241},
        {"neuron", G::trainium, 30, 2, 0.2855, 0.8718, 0.2494, 0.8870},
        {"neuron", G::other, 33, 2, 0.2691, 1.1279, 0.0766, 1.6832},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.6887, 2.6982, 0.6818, 3.4068},
        {"tensorrt-llm", G::hopper, 48, 2, 0.9118, 1.5069, 0.8449, 2.6738},
        {"vllm", G::ampere, 6, 2, 0.5366, 1.1584, 0.5294, 1.2104},
        {"vllm", G::hopper, 2, 1, 1.2000, 1.2460, 1.1943, 1.2518},
        {"tgi", G::ampere, 4, 1, 0.7567, 3.5604, 0.7231, 4.4526},
        {"neuron", G::trainium, 36, 1, 1.2647, 7.3115, 0.9466, 8.5467},
        {"neuron", G::other, 42, 1, 1.4895, 4.5003, 1.3244, 6.3232},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.5245, 0.9215, 0.4387, 0.9446},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8848, 1.2811, 0.8193, 3.1460},
        {"vllm", G::ampere, 6, 2, 0.5817, 1.2213, 0.4401, 1.2680},
        {"vllm", G::hopper, 2, 1, 1.1010, 1.1922, 1.0896, 1.2037},
        {"tgi", G::ampere, 4, 1, 0.5928, 0.9281, 0.5020, 0.9299},
        {"neuron", G::trainium, 48, 2, 0.2894, 0.7996, 0.2475, 0.8661},
        {"neuron", G::other, 59, 2, 0.3040, 1.0618, 0.2642, 1.7028},
        {"tensorrt", G::ampere, 32, 1, 0.5866, 0.9055, 0.5659, 0.9975},
        {"tensorrt", G::ada, 64, 1, 0.4674, 0.8945, 0.3401, 1.0808},
        {"tensorrt", G::other, 3, 1, 0.7494, 0.9584, 0.7120, 0.9733},
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
