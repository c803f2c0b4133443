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
        {"tensorrt-llm", G::hopper, 171, 3, 0.9705, 1.2555, 0.8667, 2.0161},
        {"vllm", G::ampere, 5, 2, 0.8792, 1.3899, 0.8756, 1.5020},
        {"vllm", G::hopper, 1, 1, 1.2679, 1.2679, 1.2679, 1.2679},
        {"tgi", G::ampere, 4, 1, 0.8960, 1.5978, 0.8785, 1.8245},
        {"neuron", G::trainium, 30, 2, 0.2855, 0.8660, 0.2494, 0.8803},
        {"neuron", G::other, 33, 2, 0.2691, 1.1181, 0.0766, 1.4508},
    };
    static const std::vector<ResidualBucket> ttft = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.6081, 3.0274, 0.5712, 3.8445},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8424, 1.6272, 0.7037, 4.2212},
        {"vllm", G::ampere, 6, 2, 0.4875, 1.2385, 0.4502, 1.3009},
        {"vllm", G::hopper, 2, 1, 1.0723, 1.1244, 1.0657, 1.1309},
        {"tgi", G::ampere, 4, 1, 0.6644, 3.9360, 0.5856, 4.9481},
        {"neuron", G::trainium, 36, 1, 1.3185, 7.6170, 0.9686, 8.8510},
        {"neuron", G::other, 42, 1, 1.5183, 4.6135, 1.3500, 6.4848},
    };
    static const std::vector<ResidualBucket> step = {
        {"tensorrt-llm", G::ampere, 4, 1, 0.5512, 0.8885, 0.4703, 0.9061},
        {"tensorrt-llm", G::hopper, 48, 2, 0.8617, 1.4065, 0.7762, 3.4168},
        {"vllm", G::ampere, 6, 2, 0.5848, 1.3222, 0.4484, 1.3808},
        {"vllm", G::hopper, 2, 1, 0.9962, 1.0899, 0.9845, 1.1017},
        {"tgi", G::ampere, 4, 1, 0.6167, 0.8975, 0.5313, 0.9001},
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
