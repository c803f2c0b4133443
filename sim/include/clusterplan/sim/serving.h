// Inference serving: the scenario's `serving` section and the figures `clusterplan serve`
// reports for one deployment (DESIGN.md "Inference serving"). Qt-free.
#pragma once

#include "clusterplan/sim/hardware.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cp::sim {

// Serving software. Each carries its own fitted efficiency factors (serving_engine.h).
enum class ServingEngine { tensorrt_llm, vllm, tgi, neuron, tensorrt, pytorch };
inline constexpr int kServingEngineCount = 6;

// Storage type of the weights and of the KV cache (bytes per element: 4, 2, 2, 1, 1, 0.5).
enum class StorageType { fp32, fp16, bf16, fp8, int8, int4 };

const char* enum_name(ServingEngine engine);
const char* enum_name(StorageType type);
std::optional<ServingEngine> parse_serving_engine(std::string_view name);
// An engine as published tables and users spell it (any case): the six profiles, and engines
// without a profile of their own mapped to the one that runs like them (SGLang, LMDeploy and
// DeepSpeed-FastGen batch continuously over a paged KV cache as vLLM does; NIM and Triton's
// TensorRT-LLM backend run TensorRT-LLM engines; the Neuron SDK's libraries run Neuron graphs).
std::optional<ServingEngine> serving_engine_from_name(std::string_view name);
std::optional<StorageType> parse_storage_type(std::string_view name);
// Bytes per stored element (int4 includes one fp16 scale per group of 128).
double storage_bytes(StorageType type);

struct ServingSlo {
    double ttft_ms = kUnknown; // time to first token (prefill + queueing); NaN = no limit
    double tpot_ms = kUnknown; // time per output token after the first; NaN = no limit
    double p = 0.5;            // the quantile both limits apply to (0.5 = median)
};

// The scenario's `serving` section as written: nullopt = searched / default.
struct ServingSpec {
    std::optional<ServingEngine> engine; // default: tensorrt-llm on GPUs, neuron on AWS chips
    std::string engine_as_given;         // the scenario's name when it maps onto a profile
    std::optional<StorageType> weights;  // default: the engine's usual 16-bit type
    std::optional<StorageType> kv_cache; // default: the weights' type, at least 8-bit
    std::optional<int> tp, pp;           // per replica; devices are NeuronCores on Neuron
    std::optional<int> batch;            // concurrent sequences; nullopt = as memory allows
    // The engine build's max batch where the deployment fixes one (trtllm-build --max_batch_size):
    // the scheduler's cap, and on TensorRT-LLM the size of the runtime's logits and decoder
    // buffers, allocated before the KV cache; nullopt = an engine built for the batch it runs.
    std::optional<int> engine_max_batch;
    // Whether the engine's decode attention reads each KV head once for its whole query-head group
    // (a GQA kernel); false: per-query-head kernels re-read it (ServingSetup::gqa_shared_kv_reads).
    bool gqa_shared_kv_reads = true;
    // Whether the server schedules the next step while the device runs this one (the vLLM Neuron
    // plugin's default async scheduling): the host loop then bounds a decode step instead of adding
    // to it. Neuron devices only; GPU engines' fitted steps already carry their host overlap.
    bool async_scheduling = false;
    // Whether the compiled graphs sample each step's token on the device; false: they return the
    // logits and the host samples them, and every step waits for it (ServingSetup::host_sampling).
    // Neuron servers on NxD only.
    bool on_device_sampling = true;
    int input_tokens = 128;
    int output_tokens = 128;              // 0 = an encoder or CNN: one forward pass per batch
    double request_rate_per_s = kUnknown; // NaN = saturated (offline throughput)
    ServingSlo slo;
    std::optional<int> replicas; // nullopt = as many as the request rate needs
};

// What bounds the deployment (several may apply), reported in `limits`.
struct ServingLimits {
    bool weights_do_not_fit = false; // weights alone exceed device memory
    bool kv_bound = false;           // batch capped by KV-cache capacity
    bool batch_cap = false;          // batch capped by the engine's scheduler limit
    bool compute_bound = false;      // decode step dominated by matrix work
    bool memory_bound = false;       // decode step dominated by weight/KV streaming
    bool comm_bound = false;         // TP all-reduces take the largest share
    bool overloaded = false;         // request rate at or above capacity (queue grows)
    bool slo_ttft_missed = false;
    bool slo_tpot_missed = false;
    bool unsupported = false; // engine/precision/device combination not offered
    std::string reason;       // one sentence when the deployment cannot run
};

struct ServingMemoryGib {
    double weights = 0, kv_cache = 0, activations = 0, reserve = 0, total = 0, capacity = 0;
};

// Time split of one decode step (or of one forward pass for encoders/CNNs), seconds.
struct ServingStepBreakdown {
    double compute_s = 0;  // compute-bound GEMMs
    double weights_s = 0;  // memory-bound GEMMs (weight streaming) and elementwise kernels
    double kv_cache_s = 0; // attention reading the KV cache
    double tp_comm_s = 0;  // tensor-parallel all-reduces
    double overhead_s = 0; // per-layer launch/scheduling overhead
    double total() const { return compute_s + weights_s + kv_cache_s + tp_comm_s + overhead_s; }
};

} // namespace cp::sim
