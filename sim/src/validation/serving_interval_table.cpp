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
        {"tensorrt-llm", G::ampere, 362, 11, 0.9122, 1.3555, 0.8031, 2.7619},
        {"tensorrt-llm", G::hopper, 1178, 19, 0.9130, 1.2925, 0.6039, 2.5126},
        {"tensorrt-llm", G::ada, 286, 8, 0.8892, 1.1369, 0.7440, 1.6042},
        {"tensorrt-llm moe", G::ampere, 63, 2, 0.9710, 1.2062, 0.9237, 1.3784},
        {"tensorrt-llm moe", G::hopper, 172, 3, 0.9126, 1.2279, 0.7687, 2.0965},
        {"tensorrt-llm moe", G::ada, 36, 2, 0.8955, 1.0474, 0.8468, 1.0950},
        {"vllm", G::ampere, 125, 13, 0.8585, 1.2598, 0.7452, 2.0007},
        {"vllm", G::hopper, 61, 10, 0.9519, 1.7797, 0.8491, 3.8891},
        {"vllm", G::trainium, 3, 1, 1.0345, 1.0496, 1.0340, 1.0528},
        {"vllm", G::ada, 6, 3, 0.9981, 1.3448, 0.9936, 1.4428},
        {"vllm", G::trainium2, 3, 3, 0.8159, 0.9375, 0.7946, 0.9466},
        {"vllm", G::other, 5, 3, 1.0184, 2.4544, 0.9495, 2.8632},
        {"vllm moe", G::trainium, 1, 1, 1.3852, 1.3852, 1.3852, 1.3852},
        {"vllm moe", G::trainium2, 2, 1, 1.5304, 2.0624, 1.4639, 2.1290},
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
        {"tensorrt-llm", G::hopper, 69, 9, 0.8406, 2.1474, 0.6236, 2.8459},
        {"tensorrt-llm", G::ada, 4, 1, 0.9580, 1.0241, 0.9539, 1.0274},
        {"tensorrt-llm moe", G::hopper, 2, 1, 1.4229, 1.9448, 1.3577, 2.0100},
        {"vllm", G::ampere, 136, 12, 0.7948, 2.3523, 0.1805, 7.4441},
        {"vllm", G::hopper, 52, 8, 0.9169, 2.6546, 0.7444, 6.5094},
        {"vllm", G::trainium, 3, 1, 0.8158, 1.4519, 0.8154, 1.6105},
        {"vllm", G::ada, 5, 2, 1.2540, 1.7813, 1.2103, 2.0193},
        {"vllm", G::trainium2, 5, 4, 0.6333, 1.0814, 0.4745, 1.0931},
        {"vllm", G::other, 5, 3, 1.0641, 5.5669, 1.0427, 6.7716},
        {"vllm moe", G::trainium, 1, 1, 5.5983, 5.5983, 5.5983, 5.5983},
        {"vllm moe", G::trainium2, 10, 2, 1.3750, 4.2042, 1.3727, 5.8581},
        {"tgi", G::ampere, 9, 2, 0.9376, 2.7137, 0.8889, 2.9822},
        {"tgi", G::trainium, 3, 1, 0.7782, 0.8293, 0.7666, 0.8305},
        {"tgi", G::other, 12, 3, 0.6785, 1.4656, 0.5654, 1.4671},
        {"neuron", G::trainium, 36, 1, 1.2922, 4.1997, 1.2611, 4.9303},
        {"neuron", G::other, 42, 1, 1.2368, 3.0377, 1.1003, 3.6246},
        {"pytorch", G::ampere, 10, 1, 1.3085, 1.4019, 1.2926, 1.5051},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 16, 3, 0.8046, 1.9629, 0.4240, 2.0642},
        {"tensorrt-llm", G::hopper, 62, 8, 0.8856, 2.1735, 0.5840, 3.1927},
        {"tensorrt-llm moe", G::hopper, 2, 1, 1.6230, 2.3627, 1.5306, 2.4552},
        {"vllm", G::ampere, 138, 13, 0.8674, 1.3631, 0.5837, 2.2037},
        {"vllm", G::hopper, 56, 9, 0.7768, 2.4424, 0.6811, 5.0460},
        {"vllm", G::trainium, 3, 1, 1.0176, 1.0356, 1.0137, 1.0362},
        {"vllm", G::ada, 6, 3, 1.0002, 1.4606, 0.9719, 1.7198},
        {"vllm", G::trainium2, 9, 5, 0.8613, 1.0099, 0.7695, 1.0539},
        {"vllm", G::other, 5, 3, 0.9478, 1.9431, 0.9337, 1.9981},
        {"vllm moe", G::ampere, 1, 1, 0.9386, 0.9386, 0.9386, 0.9386},
        {"vllm moe", G::hopper, 2, 1, 0.9185, 0.9847, 0.9103, 0.9929},
        {"vllm moe", G::trainium, 1, 1, 1.0463, 1.0463, 1.0463, 1.0463},
        {"vllm moe", G::trainium2, 10, 2, 1.2611, 1.3652, 1.2536, 1.4639},
        {"tgi", G::ampere, 26, 3, 0.8947, 1.1599, 0.8445, 1.3367},
        {"tgi", G::trainium, 3, 1, 0.8242, 0.9239, 0.8097, 0.9344},
        {"tgi", G::other, 12, 3, 0.9948, 1.2633, 0.9832, 1.5325},
        {"neuron", G::trainium, 252, 6, 0.9188, 1.1542, 0.6248, 1.3985},
        {"neuron", G::other, 377, 7, 0.8974, 1.2740, 0.7524, 2.0982},
        {"tensorrt", G::volta, 3, 1, 0.8745, 1.1305, 0.8666, 1.1866},
        {"tensorrt", G::ampere, 115, 3, 0.9226, 1.2890, 0.8848, 3.1250},
        {"tensorrt", G::ada, 227, 4, 0.8020, 1.2463, 0.6627, 1.6828},
        {"tensorrt", G::other, 6, 2, 0.8440, 1.1241, 0.7923, 1.1824},
        {"pytorch", G::volta, 3, 1, 1.0011, 1.0706, 1.0006, 1.0875},
        {"pytorch", G::ampere, 13, 2, 1.2385, 1.7355, 0.8098, 1.8924},
        {"pytorch", G::other, 3, 1, 0.8910, 1.0315, 0.8591, 1.0347},
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
