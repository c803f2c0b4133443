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
        {"tensorrt-llm", G::ampere, 425, 13, 0.9216, 1.3355, 0.8031, 2.7619},
        {"tensorrt-llm", G::hopper, 1350, 22, 0.9130, 1.2868, 0.6039, 3.0561},
        {"tensorrt-llm", G::ada, 322, 10, 0.8897, 1.1268, 0.7440, 1.6042},
        {"vllm", G::ampere, 105, 7, 0.8531, 1.2018, 0.7452, 2.0007},
        {"vllm", G::hopper, 45, 7, 0.9411, 1.9765, 0.8491, 3.8891},
        {"vllm", G::trainium, 4, 2, 1.0348, 1.3164, 1.0340, 1.4294},
        {"vllm", G::ada, 2, 1, 1.0385, 1.3979, 0.9936, 1.4428},
        {"vllm", G::trainium2, 5, 4, 0.7258, 1.9634, 0.6800, 2.2862},
        {"vllm", G::other, 5, 3, 1.0184, 2.4544, 0.9495, 2.8632},
        {"tgi", G::ampere, 26, 3, 0.8248, 1.2694, 0.8104, 1.3585},
        {"tgi", G::trainium, 3, 1, 0.8677, 0.9693, 0.8549, 0.9819},
        {"tgi", G::other, 12, 3, 1.0334, 1.3320, 1.0298, 1.5594},
        {"neuron", G::trainium, 227, 4, 0.9205, 1.1544, 0.6246, 1.3474},
        {"neuron", G::other, 344, 5, 0.9655, 1.2946, 0.2209, 2.1060},
        {"tensorrt", G::ampere, 2, 1, 1.0033, 1.0307, 0.9999, 1.0341},
        {"tensorrt", G::hopper, 7, 3, 0.9917, 1.0901, 0.9793, 1.2025},
        {"tensorrt", G::ada, 6, 2, 0.8006, 1.0375, 0.7826, 1.0494},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 23, 4, 0.8142, 1.4034, 0.7337, 6.4222},
        {"tensorrt-llm", G::hopper, 71, 10, 0.8409, 2.1405, 0.6236, 3.5051},
        {"tensorrt-llm", G::ada, 4, 1, 0.9580, 1.0241, 0.9539, 1.0274},
        {"vllm", G::ampere, 107, 7, 0.8485, 2.4689, 0.1805, 7.4441},
        {"vllm", G::hopper, 36, 6, 0.9509, 2.9798, 0.7444, 6.5094},
        {"vllm", G::trainium, 4, 2, 0.8160, 7.6406, 0.8154, 10.2249},
        {"vllm", G::ada, 1, 1, 1.4127, 1.4127, 1.4127, 1.4127},
        {"vllm", G::trainium2, 7, 5, 0.7058, 8.2695, 0.4575, 12.2947},
        {"vllm", G::other, 5, 3, 1.0641, 5.5669, 1.0427, 6.7716},
        {"tgi", G::ampere, 9, 2, 0.9376, 2.7137, 0.8889, 2.9822},
        {"tgi", G::trainium, 3, 1, 0.7782, 0.8293, 0.7666, 0.8305},
        {"tgi", G::other, 12, 3, 0.6785, 1.4656, 0.5654, 1.4671},
        {"neuron", G::trainium, 36, 1, 1.2922, 4.1997, 1.2611, 4.9303},
        {"neuron", G::other, 42, 1, 1.2368, 3.0377, 1.1003, 3.6246},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 16, 3, 0.8046, 1.9629, 0.4240, 2.0642},
        {"tensorrt-llm", G::hopper, 64, 9, 0.8865, 2.2954, 0.5840, 4.6948},
        {"vllm", G::ampere, 110, 8, 0.8715, 1.2955, 0.5837, 1.8204},
        {"vllm", G::hopper, 42, 7, 0.7599, 2.2999, 0.6811, 2.8522},
        {"vllm", G::trainium, 4, 2, 1.0195, 1.0433, 1.0137, 1.0463},
        {"vllm", G::ada, 1, 1, 1.7198, 1.7198, 1.7198, 1.7198},
        {"vllm", G::trainium2, 7, 5, 0.7303, 1.3981, 0.6713, 1.4639},
        {"vllm", G::other, 5, 3, 0.9478, 1.9431, 0.9337, 1.9981},
        {"tgi", G::ampere, 26, 3, 0.8947, 1.1599, 0.8445, 1.3367},
        {"tgi", G::trainium, 3, 1, 0.8242, 0.9239, 0.8097, 0.9344},
        {"tgi", G::other, 12, 3, 0.9948, 1.2633, 0.9832, 1.5325},
        {"neuron", G::trainium, 252, 6, 0.9188, 1.1542, 0.6248, 1.3985},
        {"neuron", G::other, 377, 7, 0.8974, 1.2740, 0.7524, 2.0982},
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
