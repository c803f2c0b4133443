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
        {"tensorrt-llm", G::ampere, 83, 2, 0.8447, 1.3201, 0.7876, 1.9163},
        {"tensorrt-llm", G::hopper, 171, 3, 0.9669, 1.2678, 0.9286, 1.7474},
        {"vllm", G::ampere, 5, 2, 0.9205, 1.3628, 0.9197, 1.4865},
        {"vllm", G::hopper, 1, 1, 1.3026, 1.3026, 1.3026, 1.3026},
        {"tgi", G::ampere, 4, 1, 0.9400, 1.5330, 0.9264, 1.7341},
        {"neuron", G::trainium, 30, 2, 0.2855, 0.8660, 0.2494, 0.8803},
        {"neuron", G::other, 33, 2, 0.2691, 1.1181, 0.0766, 1.4508},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.6923, 2.7011, 0.6855, 3.4093},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8896, 1.4862, 0.8219, 2.4895},
        {"vllm", G::ampere, 6, 2, 0.5438, 1.1576, 0.5362, 1.2091},
        {"vllm", G::hopper, 2, 1, 1.1791, 1.2219, 1.1737, 1.2273},
        {"tgi", G::ampere, 4, 1, 0.7603, 3.5642, 0.7263, 4.4560},
        {"neuron", G::trainium, 36, 1, 1.3185, 7.6170, 0.9686, 8.8510},
        {"neuron", G::other, 42, 1, 1.5183, 4.6135, 1.3500, 6.4848},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.5284, 0.9340, 0.4412, 0.9577},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8661, 1.2648, 0.7978, 3.1281},
        {"vllm", G::ampere, 6, 2, 0.5870, 1.2146, 0.4437, 1.2606},
        {"vllm", G::hopper, 2, 1, 1.0799, 1.1671, 1.0690, 1.1780},
        {"tgi", G::ampere, 4, 1, 0.5972, 0.9406, 0.5049, 0.9428},
        {"neuron", G::trainium, 48, 2, 0.2894, 0.8023, 0.2475, 0.8594},
        {"neuron", G::other, 59, 2, 0.2895, 1.0538, 0.1145, 1.4677},
        {"tensorrt", G::ampere, 96, 1, 0.5108, 0.9364, 0.3123, 1.0900},
        {"tensorrt", G::other, 3, 1, 0.9767, 1.5145, 0.8678, 1.5400},
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
