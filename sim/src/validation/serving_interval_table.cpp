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
        {"tensorrt-llm", G::ampere, 83, 2, 0.8447, 1.2641, 0.7876, 1.7123},
        {"tensorrt-llm", G::hopper, 171, 3, 0.9459, 1.2142, 0.8826, 1.7474},
        {"vllm", G::ampere, 5, 2, 0.9182, 1.3778, 0.9172, 1.4820},
        {"vllm", G::hopper, 1, 1, 1.2605, 1.2605, 1.2605, 1.2605},
        {"tgi", G::ampere, 4, 1, 0.9319, 1.5429, 0.9178, 1.7487},
        {"neuron", G::trainium, 30, 2, 0.2855, 0.8660, 0.2494, 0.8803},
        {"neuron", G::other, 33, 2, 0.2691, 1.1181, 0.0766, 1.4508},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.7031, 2.7725, 0.6955, 3.5026},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8151, 1.3794, 0.7503, 2.0505},
        {"vllm", G::ampere, 6, 2, 0.5433, 1.2154, 0.5357, 1.2707},
        {"vllm", G::hopper, 2, 1, 1.0307, 1.0590, 1.0272, 1.0626},
        {"tgi", G::ampere, 4, 1, 0.7733, 3.6582, 0.7396, 4.5778},
        {"neuron", G::trainium, 36, 1, 1.3185, 7.6170, 0.9686, 8.8510},
        {"neuron", G::other, 42, 1, 1.5183, 4.6135, 1.3500, 6.4848},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.5306, 0.9248, 0.4449, 0.9476},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8556, 1.3139, 0.7503, 2.9116},
        {"vllm", G::ampere, 6, 2, 0.5853, 1.2940, 0.4423, 1.3438},
        {"vllm", G::hopper, 2, 1, 0.9518, 1.0178, 0.9436, 1.0260},
        {"tgi", G::ampere, 4, 1, 0.5997, 0.9314, 0.5091, 0.9329},
        {"neuron", G::trainium, 48, 2, 0.2894, 0.8023, 0.2475, 0.8594},
        {"neuron", G::other, 59, 2, 0.2895, 1.0538, 0.1145, 1.4677},
        {"tensorrt", G::ampere, 96, 1, 0.5898, 1.0091, 0.4837, 1.3085},
        {"tensorrt", G::other, 3, 1, 1.1019, 1.5590, 1.0129, 1.5842},
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
