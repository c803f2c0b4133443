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
        {"tensorrt-llm", G::ampere, 401, 9, 0.9262, 1.3508, 0.8702, 2.7620},
        {"tensorrt-llm", G::hopper, 1298, 13, 0.9131, 1.2844, 0.6041, 3.0562},
        {"tensorrt-llm", G::ada, 312, 8, 0.8895, 1.1273, 0.7440, 1.6041},
        {"vllm", G::ampere, 93, 5, 0.8543, 1.1432, 0.7458, 2.0007},
        {"vllm", G::hopper, 24, 3, 0.9471, 1.2144, 0.9160, 1.4004},
        {"vllm", G::trainium, 4, 2, 0.9746, 1.0275, 0.9579, 1.0323},
        {"vllm", G::other, 3, 2, 0.9748, 1.1887, 0.9380, 1.2053},
        {"tgi", G::ampere, 26, 3, 0.8248, 2.1979, 0.8104, 2.7427},
        {"tgi", G::trainium, 3, 1, 0.8463, 0.9483, 0.8328, 0.9602},
        {"tgi", G::other, 10, 2, 1.0634, 1.1425, 1.0590, 1.2367},
        {"neuron", G::trainium, 227, 4, 0.8860, 1.1476, 0.6246, 1.3474},
        {"neuron", G::other, 247, 4, 0.9814, 1.2371, 0.2209, 1.9994},
        {"tensorrt", G::ampere, 2, 1, 1.0033, 1.0307, 0.9999, 1.0341},
        {"tensorrt", G::hopper, 7, 3, 0.9917, 1.0910, 0.9793, 1.2037},
        {"tensorrt", G::ada, 6, 2, 0.8006, 1.0413, 0.7826, 1.0532},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.9971, 4.9905, 0.9802, 6.4683},
        {"tensorrt-llm", G::hopper, 49, 2, 0.9194, 1.5132, 0.8496, 2.8783},
        {"vllm", G::ampere, 95, 5, 0.8531, 2.5373, 0.1806, 4.6802},
        {"vllm", G::hopper, 17, 3, 0.9052, 1.0960, 0.7444, 1.0997},
        {"vllm", G::trainium, 6, 3, 0.7743, 1.3103, 0.7734, 1.5276},
        {"vllm", G::other, 3, 2, 1.1669, 3.3518, 1.0320, 3.7632},
        {"tgi", G::ampere, 9, 2, 0.9376, 2.7137, 0.8889, 2.9822},
        {"tgi", G::trainium, 3, 1, 0.7677, 0.8231, 0.7550, 0.8242},
        {"tgi", G::other, 10, 2, 0.8480, 1.4605, 0.6972, 1.4618},
        {"neuron", G::trainium, 36, 1, 1.1733, 4.1904, 1.0929, 4.8761},
        {"neuron", G::other, 42, 1, 1.2368, 3.0377, 1.1003, 3.6246},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.9167, 1.0485, 0.8857, 1.0640},
        {"tensorrt-llm", G::hopper, 49, 2, 0.8890, 1.2856, 0.8236, 3.1903},
        {"vllm", G::ampere, 95, 5, 0.8835, 1.2589, 0.8456, 1.4547},
        {"vllm", G::hopper, 17, 3, 0.7164, 1.1343, 0.6811, 1.7493},
        {"vllm", G::trainium, 6, 3, 0.9737, 1.1257, 0.9525, 1.1831},
        {"vllm", G::other, 3, 2, 0.9306, 1.0611, 0.9217, 1.0849},
        {"tgi", G::ampere, 26, 3, 0.8399, 1.9496, 0.7890, 2.6099},
        {"tgi", G::trainium, 3, 1, 0.8042, 0.9042, 0.7891, 0.9141},
        {"tgi", G::other, 10, 2, 1.0265, 1.1210, 1.0040, 1.1590},
        {"neuron", G::trainium, 252, 6, 0.8278, 1.1331, 0.6248, 1.3355},
        {"neuron", G::other, 280, 6, 0.8974, 1.2288, 0.7524, 2.0133},
        {"tensorrt", G::ampere, 112, 2, 0.9266, 1.3135, 0.8848, 3.1250},
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
