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
        {"vllm", G::trainium, 1, 1, 0.8232, 0.8232, 0.8232, 0.8232},
        {"vllm", G::other, 3, 2, 0.9786, 1.1741, 0.9434, 1.1878},
        {"tgi", G::ampere, 4, 1, 0.9279, 1.5230, 0.9142, 1.7241},
        {"tgi", G::trainium, 3, 1, 0.6858, 0.8974, 0.6396, 0.9042},
        {"tgi", G::other, 10, 2, 0.9841, 1.1150, 0.8745, 1.1308},
        {"neuron", G::trainium, 30, 2, 0.2846, 0.8316, 0.2486, 0.8492},
        {"neuron", G::other, 33, 2, 0.2681, 1.0793, 0.0764, 1.6867},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.6888, 2.6983, 0.6819, 3.4069},
        {"tensorrt-llm", G::hopper, 48, 2, 0.9118, 1.5069, 0.8449, 2.6738},
        {"vllm", G::ampere, 6, 2, 0.5366, 1.1580, 0.5294, 1.2100},
        {"vllm", G::hopper, 2, 1, 1.1998, 1.2458, 1.1940, 1.2515},
        {"vllm", G::trainium, 1, 1, 0.5342, 0.5342, 0.5342, 0.5342},
        {"vllm", G::other, 3, 2, 1.1999, 3.3399, 1.0685, 3.7435},
        {"tgi", G::ampere, 4, 1, 0.7568, 3.5605, 0.7231, 4.4528},
        {"tgi", G::trainium, 3, 1, 0.9457, 1.3591, 0.8424, 1.3591},
        {"tgi", G::other, 10, 2, 1.0173, 1.5430, 0.9628, 1.8863},
        {"neuron", G::trainium, 36, 1, 0.8982, 4.2858, 0.7930, 4.9338},
        {"neuron", G::other, 42, 1, 1.1815, 3.0693, 1.1057, 3.6916},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.5245, 0.9215, 0.4387, 0.9446},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8848, 1.2811, 0.8193, 3.1460},
        {"vllm", G::ampere, 6, 2, 0.5817, 1.2213, 0.4401, 1.2680},
        {"vllm", G::hopper, 2, 1, 1.1010, 1.1922, 1.0896, 1.2037},
        {"vllm", G::trainium, 1, 1, 0.8273, 0.8273, 0.8273, 0.8273},
        {"vllm", G::other, 3, 2, 0.9333, 1.0573, 0.9285, 1.0835},
        {"tgi", G::ampere, 4, 1, 0.5928, 0.9281, 0.5020, 0.9299},
        {"tgi", G::trainium, 3, 1, 0.6598, 0.8703, 0.6147, 0.8777},
        {"tgi", G::other, 10, 2, 0.9392, 1.1023, 0.8321, 1.1090},
        {"neuron", G::trainium, 48, 2, 0.2889, 0.6991, 0.2468, 0.8326},
        {"neuron", G::other, 59, 2, 0.3031, 1.0257, 0.2633, 1.7064},
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
