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
        {"tensorrt-llm", G::ampere, 362, 11, 0.9013, 1.3256, 0.7874, 2.7660},
        {"tensorrt-llm", G::hopper, 1178, 19, 0.9243, 1.2798, 0.6159, 2.5236},
        {"tensorrt-llm", G::ada, 286, 8, 0.8871, 1.1378, 0.7440, 1.5994},
        {"tensorrt-llm moe", G::ampere, 63, 2, 0.9548, 1.1888, 0.9034, 1.3768},
        {"tensorrt-llm moe", G::hopper, 172, 3, 0.8760, 1.0898, 0.7769, 1.6886},
        {"tensorrt-llm moe", G::ada, 36, 2, 0.8913, 1.0492, 0.8415, 1.0994},
        {"vllm", G::ampere, 121, 11, 0.8516, 1.3452, 0.7397, 2.0508},
        {"vllm", G::hopper, 61, 10, 0.9619, 1.9923, 0.8326, 3.9221},
        {"vllm", G::trainium, 3, 1, 1.0345, 1.0496, 1.0340, 1.0528},
        {"vllm", G::ada, 4, 2, 1.0049, 1.4472, 0.9936, 1.4566},
        {"vllm", G::trainium2, 3, 3, 0.8159, 0.9375, 0.7946, 0.9466},
        {"vllm", G::other, 5, 3, 1.0184, 2.4544, 0.9495, 2.8632},
        {"vllm moe", G::trainium, 1, 1, 1.4294, 1.4294, 1.4294, 1.4294},
        {"vllm moe", G::trainium2, 2, 1, 1.5599, 2.2055, 1.4792, 2.2862},
        {"tgi", G::ampere, 26, 3, 0.8200, 1.2686, 0.8057, 1.3571},
        {"tgi", G::trainium, 3, 1, 0.8677, 0.9693, 0.8549, 0.9819},
        {"tgi", G::other, 12, 3, 1.0334, 1.3320, 1.0298, 1.5594},
        {"neuron", G::trainium, 227, 4, 0.9205, 1.1544, 0.6246, 1.3474},
        {"neuron", G::other, 344, 5, 0.9655, 1.2946, 0.2209, 2.1060},
        {"tensorrt", G::ampere, 2, 1, 1.0045, 1.0414, 0.9999, 1.0460},
        {"tensorrt", G::hopper, 7, 3, 1.0000, 1.1243, 1.0000, 1.2483},
        {"tensorrt", G::ada, 6, 2, 0.8007, 1.0386, 0.7827, 1.0505},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 23, 4, 0.7990, 1.3589, 0.7177, 5.4656},
        {"tensorrt-llm", G::hopper, 69, 9, 0.8471, 2.2268, 0.8124, 3.3793},
        {"tensorrt-llm", G::ada, 4, 1, 0.9503, 1.0183, 0.9441, 1.0231},
        {"tensorrt-llm moe", G::hopper, 2, 1, 1.3423, 1.7074, 1.2966, 1.7531},
        {"vllm", G::ampere, 128, 10, 0.7834, 2.3759, 0.1805, 7.3893},
        {"vllm", G::hopper, 52, 8, 0.8698, 2.5461, 0.7954, 6.6041},
        {"vllm", G::trainium, 3, 1, 0.8158, 1.4519, 0.8154, 1.6105},
        {"vllm", G::ada, 5, 2, 1.0197, 1.4327, 0.9958, 1.4556},
        {"vllm", G::trainium2, 5, 4, 0.6333, 1.0814, 0.4745, 1.0931},
        {"vllm", G::other, 5, 3, 1.0641, 5.5669, 1.0427, 6.7716},
        {"vllm moe", G::trainium, 1, 1, 10.2249, 10.2249, 10.2249, 10.2249},
        {"vllm moe", G::trainium2, 10, 2, 1.3750, 6.2569, 1.3727, 12.2947},
        {"tgi", G::ampere, 9, 2, 0.9223, 2.6046, 0.8705, 2.9566},
        {"tgi", G::trainium, 3, 1, 0.7782, 0.8293, 0.7666, 0.8305},
        {"tgi", G::other, 12, 3, 0.6785, 1.4656, 0.5654, 1.4671},
        {"neuron", G::trainium, 36, 1, 1.2922, 4.1997, 1.2611, 4.9303},
        {"neuron", G::other, 42, 1, 1.2368, 3.0377, 1.1003, 3.6246},
        {"pytorch", G::ampere, 10, 1, 1.2924, 1.3854, 1.2768, 1.4868},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 16, 3, 0.7996, 1.9203, 0.4233, 2.0798},
        {"tensorrt-llm", G::hopper, 62, 8, 0.8772, 2.3064, 0.7609, 4.4595},
        {"tensorrt-llm moe", G::hopper, 2, 1, 1.5174, 2.0260, 1.4538, 2.0896},
        {"vllm", G::ampere, 130, 11, 0.8546, 1.3688, 0.5761, 2.1982},
        {"vllm", G::hopper, 56, 9, 0.7851, 2.3609, 0.6810, 4.5781},
        {"vllm", G::trainium, 3, 1, 1.0176, 1.0356, 1.0137, 1.0362},
        {"vllm", G::ada, 5, 2, 1.0763, 1.5018, 0.9885, 1.6961},
        {"vllm", G::trainium2, 9, 5, 0.8613, 1.0099, 0.7695, 1.0539},
        {"vllm", G::other, 5, 3, 0.9478, 1.9431, 0.9337, 1.9981},
        {"vllm moe", G::ampere, 1, 1, 0.9475, 0.9475, 0.9475, 0.9475},
        {"vllm moe", G::hopper, 2, 1, 0.8093, 0.8322, 0.8065, 0.8350},
        {"vllm moe", G::trainium, 1, 1, 1.0463, 1.0463, 1.0463, 1.0463},
        {"vllm moe", G::trainium2, 10, 2, 1.2611, 1.3652, 1.2536, 1.4639},
        {"tgi", G::ampere, 26, 3, 0.8895, 1.1577, 0.8392, 1.3342},
        {"tgi", G::trainium, 3, 1, 0.8242, 0.9239, 0.8097, 0.9344},
        {"tgi", G::other, 12, 3, 0.9948, 1.2633, 0.9832, 1.5325},
        {"neuron", G::trainium, 252, 6, 0.9188, 1.1542, 0.6248, 1.3985},
        {"neuron", G::other, 377, 7, 0.8974, 1.2740, 0.7524, 2.0982},
        {"tensorrt", G::volta, 3, 1, 1.4447, 1.4798, 1.4365, 1.4803},
        {"tensorrt", G::ampere, 115, 3, 0.9274, 1.3516, 0.8848, 3.1250},
        {"tensorrt", G::ada, 227, 4, 0.8020, 1.2463, 0.6627, 1.6828},
        {"tensorrt", G::other, 6, 2, 1.0597, 1.4847, 1.0535, 1.4889},
        {"pytorch", G::volta, 3, 1, 0.9778, 1.0656, 0.9777, 1.0875},
        {"pytorch", G::ampere, 13, 2, 1.2039, 1.7392, 0.8098, 1.8969},
        {"pytorch", G::other, 3, 1, 0.8658, 1.0083, 0.8335, 1.0116},
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
