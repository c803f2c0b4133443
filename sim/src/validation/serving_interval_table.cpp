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
        {"tensorrt-llm", G::ampere, 222, 6, 0.9629, 1.4453, 0.9132, 3.4854},
        {"tensorrt-llm", G::hopper, 719, 8, 0.9572, 1.3867, 0.6581, 3.1463},
        {"tensorrt-llm", G::ada, 184, 5, 0.9379, 1.2477, 0.7952, 1.6972},
        {"vllm", G::ampere, 6, 3, 0.8676, 1.3013, 0.8527, 1.6367},
        {"vllm", G::hopper, 24, 3, 0.9554, 1.1412, 0.9139, 1.3411},
        {"vllm", G::trainium, 1, 1, 0.8254, 0.8254, 0.8254, 0.8254},
        {"vllm", G::other, 3, 2, 0.9800, 1.1746, 0.9448, 1.1881},
        {"tgi", G::ampere, 4, 1, 0.9392, 1.7118, 0.9205, 1.9626},
        {"tgi", G::trainium, 3, 1, 0.6810, 0.8878, 0.6355, 0.8941},
        {"tgi", G::other, 10, 2, 0.9597, 1.1107, 0.8698, 1.1224},
        {"neuron", G::trainium, 30, 2, 0.2842, 0.7721, 0.2483, 0.7879},
        {"neuron", G::other, 33, 2, 0.2678, 1.0507, 0.0764, 1.6874},
        {"tensorrt", G::hopper, 1, 1, 0.4621, 0.4621, 0.4621, 0.4621},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.8267, 3.3881, 0.8098, 4.2950},
        {"tensorrt-llm", G::hopper, 48, 2, 0.9118, 1.5069, 0.8449, 2.6738},
        {"vllm", G::ampere, 8, 3, 0.6050, 1.0752, 0.5843, 1.2238},
        {"vllm", G::hopper, 17, 3, 0.7769, 1.5363, 0.7458, 1.6330},
        {"vllm", G::trainium, 1, 1, 0.5341, 0.5341, 0.5341, 0.5341},
        {"vllm", G::other, 3, 2, 1.1997, 3.3387, 1.0684, 3.7421},
        {"tgi", G::ampere, 4, 1, 0.9194, 4.4693, 0.8884, 5.6135},
        {"tgi", G::trainium, 3, 1, 0.9461, 1.3598, 0.8427, 1.3598},
        {"tgi", G::other, 10, 2, 1.0179, 1.5435, 0.9631, 1.8863},
        {"neuron", G::trainium, 36, 1, 0.8982, 4.2858, 0.7930, 4.9338},
        {"neuron", G::other, 42, 1, 1.1815, 3.0693, 1.1057, 3.6916},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.5810, 0.9262, 0.4990, 0.9446},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8848, 1.2811, 0.8193, 3.1460},
        {"vllm", G::ampere, 8, 3, 0.6819, 1.1029, 0.4882, 1.1451},
        {"vllm", G::hopper, 17, 3, 0.7366, 1.0801, 0.7055, 1.4247},
        {"vllm", G::trainium, 1, 1, 0.8297, 0.8297, 0.8297, 0.8297},
        {"vllm", G::other, 3, 2, 0.9345, 1.0584, 0.9299, 1.0849},
        {"tgi", G::ampere, 4, 1, 0.6570, 0.9374, 0.5710, 0.9406},
        {"tgi", G::trainium, 3, 1, 0.6553, 0.8611, 0.6108, 0.8681},
        {"tgi", G::other, 10, 2, 0.9162, 1.0978, 0.8277, 1.1008},
        {"neuron", G::trainium, 48, 2, 0.2886, 0.6773, 0.2464, 0.7720},
        {"neuron", G::other, 59, 2, 0.3027, 0.9443, 0.2630, 1.7071},
        {"tensorrt", G::ampere, 32, 1, 0.9164, 2.4123, 0.8782, 3.6308},
        {"tensorrt", G::ada, 64, 1, 0.7398, 1.2154, 0.6521, 1.9863},
        {"tensorrt", G::other, 3, 1, 1.0350, 1.1199, 1.0303, 1.1363},
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
