// Serving engine profiles: the scheduling policy each engine documents (continuous or static
// batching, scheduler caps, KV memory fraction) and the efficiency factors fitted on published
// measurements (serving_fit.h), with the runs they were fitted on.
#pragma once

#include "clusterplan/sim/serving.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace cp::sim {

// The parts of a step the model times separately at datasheet rates; the fitted factor of each
// scales it to what an engine achieves (serving_model.h computes them). Prefill (context
// encoding) has its own compute and per-layer terms: engines run it as a separate graph or kernel
// set (TensorRT-LLM's context-phase kernels; transformers-neuronx compiles a context-encoding
// network per sequence bucket beside the token-generation network), with its own efficiency and
// fixed cost per layer.
enum class ServingTerm {
    compute,
    weights,
    kv_cache,
    tp_comm,
    overhead,
    cnn_compute,
    // The s x s scores written and read by unfused attention; on GPUs, an encoder's fused attention
    // kernel, one block per head of one sequence, in waves over the SMs at the SM clock.
    attention,
    prefill_compute,
    prefill_overhead,
    // Seconds per encoder or CNN forward pass beyond its layers: one call into the runtime (the
    // inputs' copy to the device, the launch of the compiled graph, the outputs' copy back).
    pass_overhead,
    // Seconds per decode step of a server's host loop on Neuron devices (schedule the step, read
    // back the sampled tokens, detokenize and stream them), beyond the compiled graphs' time.
    host_step_overhead,
    // Seconds per sequence per decode step of a GPU server whose scheduler runs in Python (vLLM,
    // SGLang): the batch's block tables and sampling metadata, appending each sampled token, stop
    // checks and detokenization, while the GPU waits (vLLM's v0.6.0 performance update,
    // blog.vllm.ai 2024-09-05: serving Llama 3 8B on one H100, the API server and the scheduler
    // took 62 % of the time, the GPU 38 %).
    host_seq_overhead,
    // Matrix work of Mixture-of-Experts layers' routed experts (grouped GEMMs over the experts a
    // step reaches, with their token permutation): engines run them through their own MoE
    // kernels, not the dense GEMMs. Until MoE runs fit it, it takes the engine's compute factor.
    expert_compute,
    // Seconds per layer per decode step on NeuronCore-v3 (Trainium2), in place of `overhead`. On
    // NeuronCore-v2 chips (Inferentia2, Trainium1) the NeuronCores and their DMA rings run each
    // TP all-reduce themselves, so a layer's fixed cost holds its two all-reduces' synchronisation
    // (the Neuron tp_comm factor fits to zero and `overhead` carries it); Trainium2 adds 16
    // CC-Cores that orchestrate collectives (AWS Neuron docs, trainium2.rst, "Collective
    // communication"), which the v2 chips' datasheets (inferentia2.rst, trainium.rst) do not list.
    // Until Trainium2 runs fit it, it takes the engine's `overhead` factor.
    overhead_v3,
    // CNN feature maps that do not fit in the L2 (GBs per pass at MLPerf's Offline batches),
    // streamed through HBM. Like a decode step's weights they stream beyond every cache at the
    // bandwidth the same kernels reach in every engine, so the factor is TensorRT-LLM's fitted
    // weight-streaming factor, not one of the CNN runs' own.
    feature_maps
};
inline constexpr int kServingTermCount = 15;
const char* term_name(ServingTerm term);

// Multipliers on the datasheet times of each term (1 = datasheet rate x the training model's
// efficiency curves); `overhead` and `prefill_overhead` are seconds per layer per step or prefill
// pass, `pass_overhead` seconds per forward pass, `host_step_overhead` seconds per server step (no
// datasheet figure exists).
struct EngineFactors {
    std::array<double, kServingTermCount> k{1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0,
                                            0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0};
    std::array<bool, kServingTermCount> fitted{}; // false: not exercised by any fitted run
    std::vector<std::string> runs;                // ids of the runs fitted on
    std::vector<std::string> sources;             // their sources
    std::vector<std::string> accelerators;        // accelerators those runs measured
    std::string borrowed_from;                    // engine whose factors stand in (no data)
    // Too few runs for a factor set of its own: `scaled_from`'s factors, those of the matrix and
    // fixed-cost terms times `scale`, the one ratio this engine's runs fit (least squares on
    // relative error); the bandwidth-bound terms keep `scaled_from`'s factors.
    std::string scaled_from;
    double scale = 1.0;
    // Seconds every request's first token carries beyond the engine's GPU work (HTTP/gRPC front
    // end, tokenization, detokenization, scheduler admission), fitted on the published TTFT of
    // online runs of continuous-batching engines; for a forward-pass engine, the seconds a LoadGen
    // query carries beyond the pass (the harness's hand-off, the input's copy to the device, the
    // output's copy back, the completion), fitted on LoadGen's per-query latencies (SingleStream);
    // 0 where none is published.
    double request_overhead_s = 0.0;
    // Seconds a Neuron server spends per step sampling on the host where its graphs return logits
    // instead of sampled tokens (ServingSetup::host_sampling): the step cannot be issued until the
    // host has sampled the previous one. Fitted on the host-sampled decode steps after every other
    // factor; 0 where none is fitted.
    double host_sampling_s = 0.0;
    double k_of(ServingTerm t) const {
        if (t == ServingTerm::expert_compute && !fitted[static_cast<int>(t)])
            return k[static_cast<int>(ServingTerm::compute)];
        if (t == ServingTerm::overhead_v3 && !fitted[static_cast<int>(t)])
            return k[static_cast<int>(ServingTerm::overhead)];
        return k[static_cast<int>(t)];
    }
};

// Scheduling behaviour of an engine, from its documentation (each value cited in the .cpp).
struct EnginePolicy {
    ServingEngine engine = ServingEngine::tensorrt_llm;
    bool continuous_batching = true; // in-flight batching: prefill joins running decode steps
    bool gpu = true;                 // runs on NVIDIA GPUs (false: AWS Neuron devices)
    bool decoders = true;            // serves decoder LLMs (generation)
    bool encoders = true;            // serves encoders and CNNs (one forward per batch)
    int max_batch = 0;               // scheduler cap on concurrent sequences, 0 = none
    int max_batch_tokens = 0;        // tokens per scheduler iteration (prefill chunk), 0 = all
    // Every running sequence's decode token counts against max_batch_tokens, so the running batch
    // is at most that many sequences: a TensorRT-LLM engine packs an iteration's tokens (prompt
    // chunks and one per decoding sequence) into one input whose length its build profile caps
    // at max_num_tokens.
    bool decodes_in_token_budget = false;
    double kv_memory_fraction = 0.9; // share of free memory given to the KV cache
    // Bytes per GPU the runtime allocates before it sizes the KV cache, per sequence slot of the
    // engine's build-time max batch and per vocabulary entry: TensorRT-LLM's runtime logits and
    // its decoder's sampling buffers, [max batch, vocab] arrays on every rank. 0 = the engine
    // holds only the running batch's fp32 logits of its vocabulary shard.
    double runtime_bytes_per_slot_vocab = 0;
    // The build-time max batch those buffers are sized for, where the deployment states one
    // (trtllm-bench's per-model settings table, a scenario's engine_max_batch); 0 = an engine
    // built for the batch it runs.
    int build_max_batch = 0;
    bool kv_fraction_of_total = false; // true: fraction of total memory (vLLM), else of free
    // A KV pool of a fixed number of tokens per replica where the deployment sets one (TurboMind's
    // cache_max_entry_count >= 1 counts blocks); 0 = kv_memory_fraction of the memory.
    double kv_cache_tokens = 0;
    bool reserve_full_sequence = true; // KV reserved for input+output at admission (no evict)
    bool python_host_loop = false;     // host work per sequence and step (host_seq_overhead)
    // A prompt's pass runs through the program the decode steps run, layer by layer the same
    // kernels with the same launches, neither captured in a graph: a pass of its own pays the
    // decode step's fixed cost per layer (ServingTerm::overhead), not prefill_overhead.
    bool prefill_in_step_program = false;
    bool fused_attention = true; // prefill attention in one kernel (no s x s scores in HBM)
    // 4-bit weight GEMMs of at least this many activation rows dequantise the whole matrix to
    // FP16 in memory and run a cuBLAS GEMM; fewer rows run one dequantising pass per row
    // (serving_dequant.cpp). 0: a fused kernel that reads the packed weights once.
    int int4_reconstruct_rows = 0;
    // The KV cache grows by concatenation: every decode step reads the whole cache and writes it
    // again one token longer (Hugging Face transformers' default cache for generate()).
    bool kv_cache_regrown_per_step = false;
    // Residual add + layer norm in one kernel and the MLP's bias + activation in its first GEMM's
    // epilogue: a layer's elementwise traffic is the two norms' 3 h per token each, nothing else.
    bool fused_layer_epilogues = false;
    // All-reduces within an NVLink node by the engine's own one-/two-shot kernel (every rank
    // reads its peers' buffers directly): one kernel launch and two exchange steps, not NCCL's
    // call and ring of 2(n - 1) steps.
    bool custom_all_reduce = false;
    // Waiting prompts join a running batch only once they number `waiting_served_ratio` x the
    // batch, or after `max_waiting_steps` decode steps without any joining (0 = at every step).
    int max_waiting_steps = 0;
    double waiting_served_ratio = 0;
    // The host prepares the next batch while the device runs the current one (SGLang's overlap
    // scheduler): it runs one batch ahead, so an arrival waits for that batch as well.
    bool overlap_schedule = false;
    std::string_view source; // where the policy figures come from
};

const EnginePolicy& engine_policy(ServingEngine engine);
// The policy of `engine` on AWS Neuron devices (`neuron_devices`): TGI and vLLM serve there through
// their Neuron backends (optimum-neuron's TGI server, vLLM's Neuron worker), which run the Neuron
// SDK's compiled decoder graphs but schedule requests as servers do; every other engine is the
// Neuron SDK's own static-batch profile.
const EnginePolicy& engine_policy(ServingEngine engine, bool neuron_devices);
// Sequences an engine named `name` (a scenario's or published run's engine name, lower case) holds
// at once where that differs from the cap of the profile it runs on (0: the profile's cap).
int engine_max_running(std::string_view name);
// Whether an engine named `name` runs its scheduler one batch ahead of the device by default.
bool engine_overlap_schedule(std::string_view name);
// The engine whose fitted factors time `engine`'s steps: on Neuron devices every engine runs the
// Neuron SDK's compiled graphs, so it takes the neuron factors.
ServingEngine factor_engine(ServingEngine engine, bool neuron_devices);

// Factors of every engine (index: ServingEngine). serving_fit.h computes them from published
// runs; engines without runs of their own borrow another engine's factors (and say so).
struct ServingFactors {
    std::array<EngineFactors, kServingEngineCount> engines;
    // Forward passes (encoders, CNNs) of an engine whose published runs include both kinds,
    // fitted apart from its generation runs (no runs: `engines` serves both).
    std::array<EngineFactors, kServingEngineCount> forward;
    // Forward passes of an engine whose generation factors do not carry over to them (different
    // compiled programs) and that has no forward-pass runs: datasheet rates.
    std::array<bool, kServingEngineCount> forward_datasheet{};
    const EngineFactors& of(ServingEngine e) const { return engines[static_cast<int>(e)]; }
    EngineFactors& of(ServingEngine e) { return engines[static_cast<int>(e)]; }
    // The factors of a generating deployment (`generation`) or of a forward pass.
    const EngineFactors& of(ServingEngine e, bool generation) const {
        static const EngineFactors datasheet{};
        if (!generation && forward_datasheet[static_cast<int>(e)]) return datasheet;
        const EngineFactors& f = forward[static_cast<int>(e)];
        return generation || f.runs.empty() ? of(e) : f;
    }
};

} // namespace cp::sim
