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
        {"tensorrt-llm", G::ampere, 378, 12, 0.9084, 1.3518, 0.8031, 2.7619},
        {"tensorrt-llm", G::hopper, 1282, 26, 0.9017, 1.2795, 0.6039, 2.5126},
        {"tensorrt-llm", G::ada, 302, 9, 0.8874, 1.1349, 0.6848, 1.6042},
        {"tensorrt-llm moe", G::ampere, 67, 3, 0.9533, 1.2016, 0.5452, 1.3784},
        {"tensorrt-llm moe", G::hopper, 200, 6, 0.9264, 1.2397, 0.7687, 2.0965},
        {"tensorrt-llm moe", G::ada, 40, 3, 0.8657, 1.0418, 0.6309, 1.0950},
        {"vllm", G::ampere, 125, 13, 0.8585, 1.2598, 0.7452, 2.0007},
        {"vllm", G::hopper, 63, 11, 0.9535, 1.7696, 0.8491, 3.8891},
        {"vllm", G::trainium, 3, 1, 1.0328, 1.0478, 1.0322, 1.0511},
        {"vllm", G::ada, 6, 3, 0.9933, 1.3448, 0.9910, 1.4428},
        {"vllm", G::trainium2, 3, 3, 0.8104, 0.9373, 0.7871, 0.9458},
        {"vllm", G::other, 5, 3, 1.0181, 2.4554, 0.9489, 2.8654},
        {"vllm moe", G::ampere, 6, 1, 0.9406, 1.5765, 0.9290, 1.7627},
        {"vllm moe", G::hopper, 12, 1, 0.9295, 2.0082, 0.8684, 2.2096},
        {"vllm moe", G::trainium, 1, 1, 1.3941, 1.3941, 1.3941, 1.3941},
        {"vllm moe", G::trainium2, 2, 1, 1.5172, 2.0897, 1.4456, 2.1613},
        {"tgi", G::ampere, 71, 4, 0.9681, 2.0551, 0.8104, 2.3145},
        {"tgi", G::trainium, 3, 1, 0.8673, 0.9693, 0.8543, 0.9818},
        {"tgi", G::other, 12, 3, 1.0356, 1.3340, 1.0319, 1.5668},
        {"neuron", G::trainium, 227, 4, 0.9205, 1.1544, 0.6246, 1.3474},
        {"neuron", G::other, 344, 5, 0.9655, 1.2946, 0.2209, 2.1060},
        {"tensorrt", G::ampere, 2, 1, 0.9923, 0.9991, 0.9915, 0.9999},
        {"tensorrt", G::hopper, 33, 5, 0.9814, 1.1602, 0.9525, 1.1718},
        {"tensorrt", G::ada, 13, 4, 0.7579, 0.9695, 0.7204, 0.9753},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 31, 5, 0.9379, 1.4072, 0.7337, 6.4222},
        {"tensorrt-llm", G::hopper, 108, 15, 0.8657, 2.1830, 0.7297, 3.2010},
        {"tensorrt-llm", G::ada, 12, 2, 0.8972, 1.0614, 0.8831, 1.0679},
        {"tensorrt-llm moe", G::ampere, 2, 1, 0.7781, 0.9478, 0.7569, 0.9691},
        {"tensorrt-llm moe", G::hopper, 16, 4, 1.2227, 2.1967, 1.1325, 2.2531},
        {"tensorrt-llm moe", G::ada, 2, 1, 0.6778, 0.9883, 0.6390, 1.0271},
        {"vllm", G::ampere, 136, 12, 0.7948, 2.3523, 0.1805, 7.4441},
        {"vllm", G::hopper, 57, 9, 0.9310, 3.1560, 0.7444, 8.1287},
        {"vllm", G::trainium, 3, 1, 0.8115, 1.4442, 0.8111, 1.6020},
        {"vllm", G::ada, 5, 2, 1.2540, 1.7813, 1.2103, 2.0193},
        {"vllm", G::trainium2, 5, 4, 0.6293, 1.0801, 0.4718, 1.0958},
        {"vllm", G::other, 5, 3, 1.0642, 5.5749, 1.0428, 6.7815},
        {"vllm moe", G::ampere, 6, 1, 1.0676, 2.3199, 1.0234, 2.5632},
        {"vllm moe", G::hopper, 12, 1, 1.0362, 3.6550, 0.9605, 3.9724},
        {"vllm moe", G::trainium, 1, 1, 5.4459, 5.4459, 5.4459, 5.4459},
        {"vllm moe", G::trainium2, 10, 2, 1.3581, 4.1407, 1.3559, 5.6607},
        {"tgi", G::ampere, 9, 2, 0.9376, 2.7137, 0.8889, 2.9822},
        {"tgi", G::trainium, 3, 1, 0.7751, 0.8257, 0.7636, 0.8268},
        {"tgi", G::other, 12, 3, 0.6788, 1.4657, 0.5656, 1.4673},
        {"neuron", G::trainium, 36, 1, 1.2922, 4.1997, 1.2611, 4.9303},
        {"neuron", G::other, 42, 1, 1.2368, 3.0377, 1.1003, 3.6246},
        {"pytorch", G::ampere, 10, 1, 1.3085, 1.4019, 1.2926, 1.5051},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 16, 3, 0.8046, 1.9629, 0.4240, 2.0642},
        {"tensorrt-llm", G::hopper, 85, 13, 0.9020, 2.3787, 0.7991, 3.1612},
        {"tensorrt-llm moe", G::hopper, 12, 3, 1.5127, 2.4246, 1.4302, 2.6482},
        {"vllm", G::ampere, 138, 13, 0.8507, 1.3255, 0.5837, 2.2037},
        {"vllm", G::hopper, 61, 10, 0.7585, 2.5750, 0.6811, 4.6069},
        {"vllm", G::trainium, 3, 1, 1.0160, 1.0340, 1.0121, 1.0346},
        {"vllm", G::ada, 6, 3, 1.0023, 1.4242, 0.9719, 1.7228},
        {"vllm", G::trainium2, 9, 5, 0.8603, 1.0093, 0.7622, 1.0533},
        {"vllm", G::other, 5, 3, 0.9476, 1.9435, 0.9330, 1.9996},
        {"vllm moe", G::ampere, 7, 2, 0.5654, 1.3540, 0.2716, 1.4130},
        {"vllm moe", G::hopper, 14, 2, 0.5480, 1.6786, 0.2426, 1.8108},
        {"vllm moe", G::trainium, 1, 1, 1.0555, 1.0555, 1.0555, 1.0555},
        {"vllm moe", G::trainium2, 10, 2, 1.2277, 1.3532, 1.2245, 1.4965},
        {"tgi", G::ampere, 71, 4, 0.8766, 1.5406, 0.8445, 1.6629},
        {"tgi", G::trainium, 3, 1, 0.8238, 0.9238, 0.8091, 0.9342},
        {"tgi", G::other, 12, 3, 0.9970, 1.2650, 0.9835, 1.5396},
        {"neuron", G::trainium, 252, 6, 0.9193, 1.1529, 0.6248, 1.3985},
        {"neuron", G::other, 377, 7, 0.8953, 1.2740, 0.7400, 2.0982},
        {"tensorrt", G::volta, 3, 1, 0.8437, 1.1066, 0.8355, 1.1642},
        {"tensorrt", G::ampere, 115, 3, 0.9474, 1.3271, 0.8881, 3.4021},
        {"tensorrt", G::ada, 227, 4, 0.8259, 1.3110, 0.7553, 1.7256},
        {"tensorrt", G::other, 6, 2, 0.8186, 1.1540, 0.7775, 1.1831},
        {"pytorch", G::volta, 3, 1, 1.0091, 1.0733, 1.0073, 1.0875},
        {"pytorch", G::ampere, 13, 2, 1.3560, 1.7355, 0.8098, 1.8924},
        {"pytorch", G::other, 3, 1, 0.9481, 1.0367, 0.9283, 1.0390},
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
