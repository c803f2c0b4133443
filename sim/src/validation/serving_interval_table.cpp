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
        {"tensorrt-llm", G::ampere, 258, 7, 0.9209, 1.3253, 0.8693, 3.4261},
        {"tensorrt-llm", G::hopper, 809, 9, 0.9101, 1.2868, 0.6146, 3.0639},
        {"tensorrt-llm", G::ada, 202, 6, 0.8778, 1.1405, 0.7449, 1.5967},
        {"vllm", G::ampere, 6, 3, 0.8676, 1.0575, 0.8527, 1.0848},
        {"vllm", G::hopper, 24, 3, 0.9554, 1.1412, 0.9139, 1.3411},
        {"vllm", G::trainium, 1, 1, 0.8340, 0.8340, 0.8340, 0.8340},
        {"vllm", G::other, 3, 2, 0.9748, 1.1887, 0.9380, 1.2053},
        {"tgi", G::ampere, 4, 1, 1.0469, 1.1308, 1.0387, 1.1541},
        {"tgi", G::trainium, 3, 1, 0.8463, 0.9483, 0.8328, 0.9602},
        {"tgi", G::other, 10, 2, 1.0634, 1.1425, 1.0590, 1.2367},
        {"neuron", G::trainium, 52, 3, 0.6851, 1.2104, 0.6587, 1.3073},
        {"neuron", G::other, 55, 3, 0.7157, 1.2279, 0.1563, 1.6832},
        {"tensorrt", G::ampere, 2, 1, 0.3835, 0.4225, 0.3786, 0.4273},
        {"tensorrt", G::hopper, 3, 2, 0.5770, 1.1330, 0.5541, 1.2491},
        {"tensorrt", G::ada, 2, 1, 0.4710, 0.4955, 0.4680, 0.4985},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.9728, 4.6521, 0.9569, 6.0075},
        {"tensorrt-llm", G::hopper, 48, 2, 0.7774, 1.4555, 0.7192, 2.6407},
        {"vllm", G::ampere, 8, 3, 0.5373, 0.9718, 0.4980, 1.0114},
        {"vllm", G::hopper, 17, 3, 0.8383, 1.0568, 0.7260, 1.1165},
        {"vllm", G::trainium, 3, 2, 0.8225, 1.0495, 0.8146, 1.0985},
        {"vllm", G::other, 3, 2, 1.1669, 3.3518, 1.0320, 3.7632},
        {"tgi", G::ampere, 4, 1, 0.8927, 2.1173, 0.8759, 2.5807},
        {"tgi", G::trainium, 3, 1, 0.7677, 0.8231, 0.7550, 0.8242},
        {"tgi", G::other, 10, 2, 0.8480, 1.4605, 0.6972, 1.4618},
        {"neuron", G::trainium, 36, 1, 1.1733, 4.1904, 1.0929, 4.8761},
        {"neuron", G::other, 42, 1, 1.2368, 3.0377, 1.1003, 3.6246},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.9134, 1.0477, 0.8818, 1.0633},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8848, 1.2811, 0.8193, 3.1460},
        {"vllm", G::ampere, 8, 3, 0.8992, 1.1029, 0.7753, 1.1451},
        {"vllm", G::hopper, 17, 3, 0.7366, 1.0801, 0.7055, 1.4247},
        {"vllm", G::trainium, 3, 2, 0.7045, 0.8028, 0.7029, 0.8259},
        {"vllm", G::other, 3, 2, 0.9306, 1.0611, 0.9217, 1.0849},
        {"tgi", G::ampere, 4, 1, 0.9905, 1.0656, 0.9656, 1.0712},
        {"tgi", G::trainium, 3, 1, 0.8042, 0.9042, 0.7891, 0.9141},
        {"tgi", G::other, 10, 2, 1.0265, 1.1210, 1.0040, 1.1590},
        {"neuron", G::trainium, 70, 3, 0.6936, 1.1645, 0.6585, 1.3043},
        {"neuron", G::other, 81, 3, 0.7557, 1.1335, 0.6366, 1.7029},
        {"tensorrt", G::ampere, 112, 2, 0.9228, 1.3374, 0.8848, 3.1250},
        {"tensorrt", G::ada, 225, 3, 0.7971, 1.2566, 0.6627, 1.6640},
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
