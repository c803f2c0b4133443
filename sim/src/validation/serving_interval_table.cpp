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
        {"tensorrt-llm", G::ampere, 413, 11, 0.9204, 1.3479, 0.6538, 3.5740},
        {"tensorrt-llm", G::hopper, 1330, 16, 0.9128, 1.2950, 0.6028, 3.0652},
        {"tensorrt-llm", G::ada, 320, 9, 0.9006, 1.1411, 0.7444, 1.6042},
        {"vllm", G::ampere, 93, 5, 0.8549, 1.1432, 0.7458, 1.9996},
        {"vllm", G::hopper, 35, 4, 0.9551, 1.7945, 0.9159, 3.8874},
        {"vllm", G::trainium, 4, 2, 0.9746, 1.0275, 0.9579, 1.0323},
        {"vllm", G::other, 3, 2, 0.9748, 1.1887, 0.9380, 1.2053},
        {"tgi", G::ampere, 26, 3, 0.8241, 2.1974, 0.8097, 2.7423},
        {"tgi", G::trainium, 3, 1, 0.8463, 0.9483, 0.8328, 0.9602},
        {"tgi", G::other, 10, 2, 1.0634, 1.1425, 1.0590, 1.2367},
        {"neuron", G::trainium, 227, 4, 0.8860, 1.1476, 0.6246, 1.3474},
        {"neuron", G::other, 247, 4, 0.9814, 1.2371, 0.2209, 1.9994},
        {"tensorrt", G::ampere, 2, 1, 1.0032, 1.0297, 0.9999, 1.0330},
        {"tensorrt", G::hopper, 7, 3, 0.9911, 1.0896, 0.9779, 1.2023},
        {"tensorrt", G::ada, 6, 2, 0.8006, 1.0413, 0.7826, 1.0531},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 11, 2, 1.0290, 1.6814, 0.9790, 6.4202},
        {"tensorrt-llm", G::hopper, 57, 4, 0.9230, 1.7165, 0.8489, 2.8538},
        {"tensorrt-llm", G::ada, 4, 1, 0.9977, 1.1802, 0.9789, 1.2034},
        {"vllm", G::ampere, 95, 5, 0.8530, 2.5387, 0.1807, 4.6714},
        {"vllm", G::hopper, 28, 4, 0.9347, 2.2245, 0.7452, 6.5064},
        {"vllm", G::trainium, 6, 3, 0.7743, 1.3103, 0.7734, 1.5276},
        {"vllm", G::other, 3, 2, 1.1669, 3.3518, 1.0320, 3.7632},
        {"tgi", G::ampere, 9, 2, 0.9365, 2.7065, 0.8873, 2.9795},
        {"tgi", G::trainium, 3, 1, 0.7677, 0.8231, 0.7550, 0.8242},
        {"tgi", G::other, 10, 2, 0.8480, 1.4605, 0.6972, 1.4618},
        {"neuron", G::trainium, 36, 1, 1.1733, 4.1904, 1.0929, 4.8761},
        {"neuron", G::other, 42, 1, 1.2368, 3.0377, 1.1003, 3.6246},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.9154, 1.0468, 0.8844, 1.0623},
        {"tensorrt-llm", G::hopper, 50, 3, 0.8889, 1.3347, 0.8229, 3.1835},
        {"vllm", G::ampere, 98, 6, 0.8853, 1.2561, 0.8466, 1.4561},
        {"vllm", G::hopper, 34, 5, 0.7644, 2.2812, 0.6811, 2.8538},
        {"vllm", G::trainium, 6, 3, 0.9737, 1.1257, 0.9525, 1.1831},
        {"vllm", G::other, 3, 2, 0.9306, 1.0611, 0.9217, 1.0849},
        {"tgi", G::ampere, 26, 3, 0.8938, 1.9490, 0.8438, 2.6095},
        {"tgi", G::trainium, 3, 1, 0.8042, 0.9042, 0.7891, 0.9141},
        {"tgi", G::other, 10, 2, 1.0265, 1.1210, 1.0040, 1.1590},
        {"neuron", G::trainium, 252, 6, 0.8278, 1.1331, 0.6248, 1.3355},
        {"neuron", G::other, 280, 6, 0.8974, 1.2288, 0.7524, 2.0133},
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
