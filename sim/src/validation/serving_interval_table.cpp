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
        {"vllm", G::ampere, 93, 5, 0.8537, 1.1431, 0.7452, 1.9996},
        {"vllm", G::hopper, 24, 3, 0.9469, 1.2141, 0.9159, 1.4010},
        {"vllm", G::trainium, 4, 2, 0.9746, 1.0275, 0.9579, 1.0323},
        {"vllm", G::other, 3, 2, 0.9748, 1.1887, 0.9380, 1.2053},
        {"tgi", G::ampere, 26, 3, 0.8241, 1.3377, 0.8097, 1.6989},
        {"tgi", G::trainium, 3, 1, 0.8463, 0.9483, 0.8328, 0.9602},
        {"tgi", G::other, 10, 2, 1.0634, 1.1425, 1.0590, 1.2367},
        {"neuron", G::trainium, 227, 4, 0.8860, 1.1476, 0.6246, 1.3474},
        {"neuron", G::other, 247, 4, 0.9814, 1.2371, 0.2209, 1.9994},
        {"tensorrt", G::ampere, 2, 1, 1.0032, 1.0297, 0.9999, 1.0330},
        {"tensorrt", G::hopper, 7, 3, 0.9911, 1.0887, 0.9779, 1.2011},
        {"tensorrt", G::ada, 6, 2, 0.8006, 1.0374, 0.7826, 1.0492},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.9961, 4.9555, 0.9790, 6.4202},
        {"tensorrt-llm", G::hopper, 49, 2, 0.9184, 1.5118, 0.8489, 2.8538},
        {"vllm", G::ampere, 95, 5, 0.8483, 2.5677, 0.1806, 7.4537},
        {"vllm", G::hopper, 17, 3, 0.9058, 1.0982, 0.7452, 1.1022},
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
        {"tensorrt-llm", G::hopper, 49, 2, 0.8884, 1.2811, 0.8229, 3.1835},
        {"vllm", G::ampere, 95, 5, 0.8845, 1.2598, 0.8466, 1.4561},
        {"vllm", G::hopper, 17, 3, 0.7188, 1.1357, 0.6811, 1.7558},
        {"vllm", G::trainium, 6, 3, 0.9737, 1.1257, 0.9525, 1.1831},
        {"vllm", G::other, 3, 2, 0.9306, 1.0611, 0.9217, 1.0849},
        {"tgi", G::ampere, 26, 3, 0.8392, 1.2569, 0.7884, 1.3839},
        {"tgi", G::trainium, 3, 1, 0.8042, 0.9042, 0.7891, 0.9141},
        {"tgi", G::other, 10, 2, 1.0265, 1.1210, 1.0040, 1.1590},
        {"neuron", G::trainium, 252, 6, 0.8278, 1.1331, 0.6248, 1.3355},
        {"neuron", G::other, 280, 6, 0.8974, 1.2288, 0.7524, 2.0133},
        {"tensorrt", G::ampere, 112, 2, 0.9264, 1.3024, 0.8848, 3.1250},
        {"tensorrt", G::ada, 227, 4, 0.8020, 1.2463, 0.6627, 1.6828},
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
