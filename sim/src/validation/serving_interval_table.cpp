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
        {"tensorrt-llm", G::ampere, 83, 2, 0.8590, 1.3384, 0.7997, 2.0029},
        {"tensorrt-llm", G::hopper, 171, 3, 0.9607, 1.2451, 0.8946, 2.0161},
        {"vllm", G::ampere, 5, 2, 0.9097, 1.3720, 0.9094, 1.4721},
        {"vllm", G::hopper, 1, 1, 1.2679, 1.2679, 1.2679, 1.2679},
        {"tgi", G::ampere, 4, 1, 0.9200, 1.5339, 0.9057, 1.7399},
        {"neuron", G::trainium, 30, 2, 0.2855, 0.8660, 0.2494, 0.8803},
        {"neuron", G::other, 33, 2, 0.2691, 1.1181, 0.0766, 1.4508},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.7014, 2.7750, 0.6934, 3.5067},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8160, 1.3760, 0.7530, 3.1660},
        {"vllm", G::ampere, 6, 2, 0.5385, 1.2166, 0.5311, 1.2718},
        {"vllm", G::hopper, 2, 1, 1.0401, 1.0681, 1.0366, 1.0716},
        {"tgi", G::ampere, 4, 1, 0.7719, 3.6615, 0.7387, 4.5833},
        {"neuron", G::trainium, 36, 1, 1.3185, 7.6170, 0.9686, 8.8510},
        {"neuron", G::other, 42, 1, 1.5183, 4.6135, 1.3500, 6.4848},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.5270, 0.9125, 0.4427, 0.9347},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8644, 1.3459, 0.7561, 2.9020},
        {"vllm", G::ampere, 6, 2, 0.5807, 1.2989, 0.4394, 1.3484},
        {"vllm", G::hopper, 2, 1, 0.9635, 1.0293, 0.9553, 1.0376},
        {"tgi", G::ampere, 4, 1, 0.5956, 0.9191, 0.5065, 0.9202},
        {"neuron", G::trainium, 48, 2, 0.2894, 0.8023, 0.2475, 0.8594},
        {"neuron", G::other, 59, 2, 0.2895, 1.0538, 0.1145, 1.4677},
        {"tensorrt", G::ampere, 96, 1, 0.5012, 0.9126, 0.4369, 1.3246},
        {"tensorrt", G::other, 3, 1, 0.9725, 1.4023, 0.8950, 1.4323},
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
