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
        {"tensorrt-llm", G::ampere, 401, 9, 0.9265, 1.3501, 0.8698, 3.5740},
        {"tensorrt-llm", G::hopper, 1298, 13, 0.9129, 1.2896, 0.6028, 3.0652},
        {"tensorrt-llm", G::ada, 312, 8, 0.9006, 1.1464, 0.7444, 1.6042},
        {"vllm", G::ampere, 93, 5, 0.8549, 1.1432, 0.7458, 1.9996},
        {"vllm", G::hopper, 24, 3, 0.9469, 1.2141, 0.9159, 1.4010},
        {"vllm", G::trainium, 4, 2, 0.9411, 1.0480, 0.9013, 1.0528},
        {"vllm", G::other, 3, 2, 0.9840, 1.1911, 0.9495, 1.2084},
        {"tgi", G::ampere, 26, 3, 0.8241, 2.1974, 0.8097, 2.7423},
        {"tgi", G::trainium, 3, 1, 0.8677, 0.9693, 0.8549, 0.9819},
        {"tgi", G::other, 10, 2, 1.0329, 1.1280, 1.0298, 1.2681},
        {"neuron", G::trainium, 227, 4, 0.9205, 1.1544, 0.6246, 1.3474},
        {"neuron", G::other, 247, 4, 0.9814, 1.2371, 0.2209, 1.9994},
        {"tensorrt", G::ampere, 2, 1, 1.0032, 1.0297, 0.9999, 1.0330},
        {"tensorrt", G::hopper, 7, 3, 0.9911, 1.0896, 0.9779, 1.2023},
        {"tensorrt", G::ada, 6, 2, 0.8006, 1.0413, 0.7826, 1.0531},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.9961, 4.9555, 0.9790, 6.4202},
        {"tensorrt-llm", G::hopper, 49, 2, 0.9184, 1.5118, 0.8489, 2.8538},
        {"vllm", G::ampere, 95, 5, 0.8530, 2.5353, 0.1807, 4.6714},
        {"vllm", G::hopper, 17, 3, 0.9058, 1.0982, 0.7452, 1.1022},
        {"vllm", G::trainium, 6, 3, 0.8164, 1.3518, 0.8154, 1.6105},
        {"vllm", G::other, 3, 2, 1.1813, 3.3549, 1.0427, 3.7597},
        {"tgi", G::ampere, 9, 2, 0.9365, 2.7065, 0.8873, 2.9795},
        {"tgi", G::trainium, 3, 1, 0.7782, 0.8293, 0.7666, 0.8305},
        {"tgi", G::other, 10, 2, 0.8459, 1.4658, 0.6813, 1.4671},
        {"neuron", G::trainium, 36, 1, 1.2922, 4.1997, 1.2611, 4.9303},
        {"neuron", G::other, 42, 1, 1.2368, 3.0377, 1.1003, 3.6246},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.9154, 1.0468, 0.8844, 1.0623},
        {"tensorrt-llm", G::hopper, 49, 2, 0.8884, 1.2811, 0.8229, 3.1835},
        {"vllm", G::ampere, 95, 5, 0.8845, 1.2597, 0.8466, 1.4561},
        {"vllm", G::hopper, 17, 3, 0.7188, 1.1357, 0.6811, 1.7558},
        {"vllm", G::trainium, 6, 3, 0.8885, 1.0347, 0.8842, 1.0362},
        {"vllm", G::other, 3, 2, 0.9408, 1.0617, 0.9337, 1.0849},
        {"tgi", G::ampere, 26, 3, 0.8392, 1.9490, 0.7884, 2.6095},
        {"tgi", G::trainium, 3, 1, 0.8242, 0.9239, 0.8097, 0.9344},
        {"tgi", G::other, 10, 2, 0.9932, 1.1400, 0.9832, 1.1877},
        {"neuron", G::trainium, 252, 6, 0.9188, 1.1542, 0.6248, 1.3985},
        {"neuron", G::other, 280, 6, 0.8966, 1.2288, 0.7524, 2.0133},
        {"tensorrt", G::ampere, 112, 2, 0.9266, 1.3136, 0.8848, 3.1250},
        {"tensorrt", G::ada, 227, 4, 0.8024, 1.2553, 0.6627, 1.6812},
        {"tensorrt", G::other, 3, 1, 1.0560, 1.1591, 1.0535, 1.1824},
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
