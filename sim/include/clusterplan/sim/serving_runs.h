// Published serving measurements (throughput and latency of LLMs, encoders and CNNs under named
// engines), as the engine factors are fitted on and the validation compares against. The data
// (resources/serving/published_runs.json, embedded) names every run's source.
#pragma once

#include "clusterplan/sim/serving.h"
#include "clusterplan/sim/workload.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cp::sim {

// latency_ms: one forward pass of an encoder or CNN batch; for a decoder, a whole request
// (TTFT plus the remaining output tokens). samples_per_s: for a decoder, completed requests/s.
enum class ServingMetric { output_tokens_per_s, ttft_ms, tpot_ms, latency_ms, samples_per_s };
const char* enum_name(ServingMetric metric);

// A benchmark client that sends its requests in waves: `concurrency` requests launched one after
// another, then nothing until the whole wave has completed (llmperf's token_benchmark_ray.py
// before pull request 59, December 2024: get_next_ready drains every request in flight once per
// `concurrency` launches). Its driver spends `launch_interval_s` per request between launches
// (building and submitting it, reading back and tokenizing the answer), and each client is a Ray
// actor in a worker process of its own: the node keeps `worker_slots` workers started (Ray
// prestarts one per CPU) and starts the others at most `worker_slots` at a time, `worker_start_s`
// each, within the timed run.
struct ClientWaves {
    int requests = 0; // requests the run completes at least (whole waves are sent)
    double launch_interval_s = 0;
    double worker_start_s = 0;
    int worker_slots = 0;
};

struct ServingRun {
    std::string id;
    std::string source; // key into ServingRunSet::sources
    ServingEngine engine = ServingEngine::tensorrt_llm;
    Workload workload;       // transformer shape (encoder_only for encoders) or generic CNN
    std::string accelerator; // catalog accelerator id
    std::string instance;    // a catalog instance with that accelerator (links, counts)
    int tp = 1;              // devices (NeuronCores on Neuron) per replica
    StorageType weights = StorageType::fp16;
    StorageType kv_cache = StorageType::fp16;
    int batch = 0; // 0 = the engine's scheduler decides (continuous batching)
    double request_rate_per_s = kUnknown; // NaN = saturated
    int requests = 0; // requests in the benchmark run (bounds the queue when overloaded)
    // Queries MLPerf LoadGen issued in the run (its log's generated_query_count), 0 = not stated.
    int loadgen_queries = 0;
    int concurrency = 0; // closed-loop clients (a new request when one completes), 0 = none
    // Clients that send in waves of `concurrency` instead of one request per completion.
    std::optional<ClientWaves> waves;
    // The statistic a latency figure reports: NaN = the mean, else that quantile (0.5 = median).
    double quantile = kUnknown;
    // Decode steps the engine runs per scheduler call (vLLM --num-scheduler-steps): a request
    // arriving mid-block waits for the block's end before its prefill is scheduled.
    int scheduler_steps = 1;
    // The engine's scheduler prepares the next batch while the device runs the current one, so it
    // runs one batch ahead (SGLang from v0.4 unless --disable-overlap-schedule; where the run's
    // engine version has it).
    bool overlap_schedule = false;
    // The engine hands a step's sampled tokens to the request streams while the device runs the
    // next step, so a client sees each token one decode step after it was sampled (vLLM 0.6 to
    // 0.10's V0 engine with CUDA graphs: its asynchronous output processor, PR #7049, on unless
    // --disable-async-output-proc).
    bool async_output_processing = false;
    // Encoders and CNNs on Neuron (NeuronPerf n_models and workers_per_model): model copies
    // loaded, each on its own NeuronCore (0 = one per core of the chip, the encoder tables' Data
    // Parallel default), and threads submitting to each copy. A core runs one batch at a time, so
    // throughput is copies x batch / forward pass, and a thread waits for the others on its core:
    // p50 latency is workers x the pass.
    int models = 0;
    int workers_per_model = 1;
    // Data-parallel copies of the replica the figure covers (a system of 8 GPUs each serving the
    // model alone: 8): the load splits evenly over them and throughput is their sum.
    int replicas = 1;
    // The run's GPUs sit on a board of this many joined point to point by NVLink, no NVSwitch
    // (HGX H100 4-GPU: each GPU's 18 links run 6 to each peer), not on the instance's fabric;
    // 0 = the instance's own. A tensor-parallel group then drives only the links to its members.
    int nvlink_mesh_gpus = 0;
    // Share of free memory the benchmark gave the KV cache where it set one (trtllm-bench's
    // --kv_cache_free_gpu_mem_fraction); NaN = the engine's default.
    double kv_memory_fraction = kUnknown;
    // A KV pool the benchmark sized in tokens per replica (TurboMind's cache_max_entry_count
    // blocks x cache_block_seq_len); 0 = the engine's memory fraction.
    double kv_cache_tokens = 0;
    // Prompt tokens one scheduler iteration admits where the benchmark or its engine sets them
    // (vLLM --max-num-batched-tokens); 0 = every waiting prompt (TurboMind's LlamaBatch::Forward
    // prefills all admitted prompts, in mini-batches, before it samples); -1 = the profile's.
    int prefill_tokens_per_iteration = -1;
    // Sequences the engine runs at once where the benchmark or the engine's own default differs
    // from the profile's (vLLM --max-num-seqs, SGLang --max-running-requests); 0 = the profile's.
    int max_batch = 0;
    // Runtime buffer bytes per slot of the build's max batch and vocabulary entry, where a study
    // sets them in place of the engine profile's (EnginePolicy::runtime_bytes_per_slot_vocab; the
    // profile's value is fitted over such runs); NaN = the profile's.
    double runtime_bytes_per_slot_vocab = kUnknown;
    int input_tokens = 0;
    int output_tokens = 0; // 0 for encoders/CNNs
    // The answers' cap where they end at their end-of-sequence token under a max_tokens limit, so
    // their lengths spread below it around output_tokens (the mean); 0 = every answer is
    // output_tokens long (ignore_eos, or fixed lengths).
    int output_tokens_max = 0;
    // TensorRT-LLM's batch scheduler policy where the source sets it (`batch_scheduler_policy`):
    // max_utilization admits a request by the KV blocks it uses now and pauses requests when the
    // cache fills (true here); guaranteed_no_evict reserves each request's whole sequence (false);
    // unset = the engine profile's default (EnginePolicy::reserve_full_sequence).
    std::optional<bool> kv_admitted_by_use;
    // Tokens the benchmark's own tokenizer counts per token of the served model (llmperf counts
    // every model's text with the Llama 2 tokenizer); token counts and per-token figures of the
    // run are in the benchmark's tokens.
    double counted_tokens_per_token = 1.0;
    ServingMetric metric = ServingMetric::output_tokens_per_s;
    // A per-token latency that is the whole request's latency over its output tokens, first token
    // included (llmperf's inter-token latency, TGI's time_per_token), not the decode step.
    bool per_token_of_request = false;
    // A latency over every gap between two tokens of every request (bench_serving's ITL: its median
    // is np.median over all the gaps), not each request's mean time per output token (TPOT).
    bool per_gap = false;
    double value = 0;
    // The attention the benchmark's compiled graphs ran, where the source states it: true = a
    // fused (flash) attention kernel, false = materialised scores; unset = the engine's default.
    std::optional<bool> fused_attention;
    // Context-encoding buckets the deployment compiled, where the source states them (ascending;
    // empty = the engine's default buckets).
    std::vector<int> context_buckets;
    // Token-generation buckets the deployment compiled, where the source states them (ascending).
    std::vector<int> generation_buckets;
    // Context encoding run with sequence parallelism, where the source states it.
    bool sequence_parallel = false;
    // Compiled by transformers-neuronx (the Neuron SDK's decoder library to 2.26), where the
    // source states it; else a Neuron run is NxD Inference's (serving_model.h KvHeadSharding).
    bool transformers_neuronx = false;
    // The server overlaps its host loop with the device's step, where the source's engine version
    // does so by default (ServingSetup::async_host_loop).
    bool async_host_loop = false;
    // The server samples each step's logits on the host ("on_device_sampling": false; see
    // ServingSetup::host_sampling).
    bool host_sampling = false;
    // Kernels launched one by one from the host (no CUDA graphs), where the source's engine
    // version ran so by default (ServingSetup::eager_decode): decode steps and forward passes.
    bool eager_decode = false;
    // The first token is sampled by the first decode step, the prompt's last token going through
    // it rather than through the prefill, where the source's engine version works so
    // (ServingSetup::first_token_from_decode_step).
    bool first_token_from_decode_step = false;
    // The engine's decode attention shares K/V reads across a GQA group; false where the source's
    // engine release ran without such a kernel (ServingSetup::gqa_shared_kv_reads).
    bool gqa_shared_kv_reads = true;
    // A latency measured by MLPerf LoadGen per query, from issue to completion: the harness's
    // host work and copies around the engine's pass are in it (EngineFactors::request_overhead_s).
    bool loadgen = false;
    // false: a check only (online runs test the batching and queueing model out of sample).
    bool fit = true;
    // A latency at a rate past the model's capacity for the run: the model answers it only as the
    // load range (ServingLoadRange: the capacity's range at the rate), so it is checked against
    // that range, never as a point or a residual (its error would be the queue's, unbounded).
    bool range_only = false;
};

struct ServingRunSet {
    std::map<std::string, std::string> sources; // key -> citation
    std::vector<ServingRun> runs;
};

// Parses `clusterplan.serving_runs/1` JSON; throws std::runtime_error naming the run and field.
ServingRunSet parse_serving_runs(std::string_view json_text);
// The runs bundled with the library (parsed once).
const ServingRunSet& published_serving_runs();

} // namespace cp::sim
