// Host-side time of serving steps: what the host spends issuing a step's work where the device
// does not run it from a captured graph, and a host loop that overlaps the device's step.
#include "serving/serving_model.h"

#include <algorithm>
#include <array>

namespace cp::sim {

namespace {

// Host time to issue one transformer layer of a decode step launched kernel by kernel from Python
// (no CUDA graphs): the host runs ahead of the device, so a step lasts the longer of the two.
// Measured on TGI 1.0.3 (SageMaker LLM container: flash Llama, eager decode), one client, 50
// tokens, FP16, median ms per token of the runs whose device work is well below the step (Llama 2
// 7B on one g5.2xlarge A10G, 31 ms for 13.5 GB of weights, is bandwidth-bound and left out; so is
// 70B over eight A10G, whose PCIe all-reduces take a share): per layer the same on A10G and A100
// and from 32 to 80 layers (philschmid/text-generation-inference-tests results/sagemaker.csv @
// 4373a85, "Latency (ms/token) med" at Virtual Users 1; huggingface.co/blog/
// llama-sagemaker-benchmark, 2023-09-26). The per-layer figure is their median.
struct EagerStepFigure {
    double ms_per_token;
    double layers;
};
constexpr std::array<EagerStepFigure, 7> kTgiEagerSteps{{
    {16.81, 32}, // Llama 2 7B, g5.12xlarge, TP4
    {21.00, 40}, // Llama 2 13B, g5.12xlarge, TP4
    {17.92, 32}, // Llama 2 7B, g5.48xlarge, TP8
    {21.61, 40}, // Llama 2 13B, g5.48xlarge, TP8
    {23.50, 32}, // Llama 2 7B, p4d.24xlarge, TP8
    {21.63, 40}, // Llama 2 13B, p4d.24xlarge, TP8
    {41.35, 80}, // Llama 2 70B, p4d.24xlarge, TP8
}};

double eager_host_issue_s_per_layer() {
    static const double median = [] {
        std::array<double, kTgiEagerSteps.size()> per_layer{};
        for (std::size_t i = 0; i < kTgiEagerSteps.size(); ++i)
            per_layer[i] = kTgiEagerSteps[i].ms_per_token / 1e3 / kTgiEagerSteps[i].layers;
        std::sort(per_layer.begin(), per_layer.end());
        return per_layer[per_layer.size() / 2];
    }();
    return median;
}

} // namespace

// An encoder layer issued op by op (the TorchScript trace of NVIDIA DeepLearningExamples' BERT,
// PyTorch/LanguageModeling/BERT/modeling.py @ 1d4211fe: separate Q, K, V projections, two batched
// matmuls around a softmax, element-wise layer norms) takes the same per-layer figure: no published
// encoder run separates its host time from its device time.
double eager_issue_floor_s(const ServingSetup& st) {
    if (!st.eager_decode || st.workload->kind != WorkloadKind::transformer) return 0;
    return st.workload->shape.layers * eager_host_issue_s_per_layer();
}

double host_sampling_s(const ServingSetup& st, const EngineFactors& f) {
    return st.samples_on_host() ? f.host_sampling_s : 0.0;
}

// With async scheduling the host prepares step n + 1 and reads back step n's tokens while the
// device runs step n (vLLM Neuron plugin, aws-neuron/aws-neuron-sdk @ 81ce03ae
// vllm-neuron/docs/design/vllm/async-scheduling-and-async-execution.md: "overlaps CPU work
// (scheduling, input preparation, output processing) with Neuron device execution", on by default
// with on-device sampling), so the host loop fitted on synchronous servers bounds the step instead
// of adding to it.
double decode_step_s(const ServingSetup& st, const ServingTerms& step, const EngineFactors& f) {
    if (!st.host_loop_overlapped())
        return std::max(serving_time_s(step, f), eager_issue_floor_s(st)) + host_sampling_s(st, f);
    ServingTerms device = step;
    device[ServingTerm::host_step_overhead] = 0;
    const double host_s =
        step[ServingTerm::host_step_overhead] * f.k_of(ServingTerm::host_step_overhead);
    return std::max({serving_time_s(device, f), host_s, eager_issue_floor_s(st)});
}

} // namespace cp::sim
