#include "clusterplan/sim/serving_engine.h"

#include "io/ascii_text.h"

#include <string>

namespace cp::sim {

namespace {

EnginePolicy make_policy(ServingEngine e) {
    EnginePolicy p;
    p.engine = e;
    switch (e) {
    case ServingEngine::tensorrt_llm:
        // trtllm-bench: in-flight batching, scheduler "Guaranteed No Evict" (KV for input + output
        // reserved at admission), max batch capped at 4096 (tensorrt_llm/bench/build/tuning.py
        // calc_engine_setting / finetune_setting); 8192 tokens per iteration (its example run). KV
        // at 0.9 of free memory, the library's default (perf-overview.md: its throughput runs set
        // 0.95 "to obtain better performance than the default setting of 0.90"; those runs say
        // so, published_runs.json kv_memory_fraction).
        p.max_batch = 4096;
        p.max_batch_tokens = 8192;
        p.kv_memory_fraction = 0.9;
        // Before the KV cache takes its share of the free memory the executor allocates its
        // runtime buffers and decoder (TrtGptModelInflightBatching: createBuffers, createDecoder,
        // then createKvCacheManager), whose logits and sampling workspaces are [max batch, vocab]
        // arrays on every rank (PenaltyLayer's occurrence workspace, the sampling layers'). Bytes
        // per slot and vocabulary entry fitted over the published runs that state their build's
        // max batch (serving_runtime_buffers_test.cpp, mean |log error|), below the 45 that
        // trtllm-bench 0.12 allocates in all for Llama-2-7b at max batch 4096 ("1.14 GB ... for
        // runtime buffers", "4.35 GB ... for decoder", 1024-based units: NVIDIA/TensorRT-LLM
        // benchmarks/Suite.md, 0.12.0.dev2024073000), which includes buffers that scale with the
        // sequence length and the token budget instead.
        p.runtime_bytes_per_slot_vocab = 31;
        // The AllReduce plugin's custom one-shot/two-shot kernels on NVLink (TensorRT-LLM's
        // default strategy within a node).
        p.custom_all_reduce = true;
        // In-flight batching runs an iteration's prompt chunks and one token per generating
        // sequence as one packed input ("Paged Attention, IFB, and Request Scheduling": IFB
        // "requires the input tensors to be packed"), at most max_num_tokens long; the scheduler
        // charges each request in generation one token of that budget ("Tuning Max Batch Size and
        // Max Num Tokens", its scheduler walk-through), so the running batch is at most
        // max_num_tokens sequences.
        p.decodes_in_token_budget = true;
        // One TensorRT engine serves both phases: the GPT attention operator holds the context
        // (FMHA) and generation (masked MHA) implementations and processes context and
        // generation sequences together in one packed input (NVIDIA/TensorRT-LLM
        // docs/source/advanced/gpt-attention.md @ 5a211b91, "Context and Generation Phases",
        // "In-flight Batching"), so a prompt's pass enqueues the decode step's layers.
        p.prefill_in_step_program = true;
        p.source = "TensorRT-LLM perf-overview.md and bench/build/tuning.py (max batch 4096, KV "
                   "0.9 of free memory, the default, guaranteed-no-evict scheduling, 8192 tokens "
                   "per iteration)";
        break;
    case ServingEngine::vllm:
        // vLLM EngineArgs defaults: max_num_seqs 256, gpu_memory_utilization 0.9 of total memory,
        // chunked prefill with max_num_batched_tokens 2048; PagedAttention allocates KV blocks as
        // sequences grow and preempts when out of blocks (Kwon et al. 2023).
        p.max_batch = 256;
        p.max_batch_tokens = 2048;
        p.kv_memory_fraction = 0.9;
        p.kv_fraction_of_total = true;
        p.reserve_full_sequence = false;
        // vLLM's custom all-reduce on fully NVLink-connected GPUs (vllm-project/vllm PR 2192).
        p.custom_all_reduce = true;
        // The scheduler, the sampler's bookkeeping and output processing run in Python, per
        // sequence of every step.
        p.python_host_loop = true;
        p.source = "vLLM EngineArgs defaults (max_num_seqs 256, gpu_memory_utilization 0.9, "
                   "max_num_batched_tokens 2048); PagedAttention (Kwon et al. 2023)";
        break;
    case ServingEngine::tgi:
        // text-generation-inference launcher defaults: max_concurrent_requests 128,
        // max_batch_prefill_tokens 4096; paged KV over the memory left after a warm-up pass.
        p.max_batch = 128;
        p.max_batch_tokens = 4096;
        p.kv_memory_fraction = 0.9;
        p.reserve_full_sequence = false;
        // Its router's batching loop adds waiting requests to the running batch only once they
        // number waiting_served_ratio x the batch (1.2) or max_waiting_tokens decode steps (20)
        // have passed without adding any (launcher defaults; router/src/infer.rs batching_task,
        // TGI 2.x; TGI 3 drops the group for models it prefills in chunks).
        p.max_waiting_steps = 20;
        p.waiting_served_ratio = 1.2;
        p.source = "text-generation-inference launcher defaults (max_concurrent_requests 128, "
                   "max_batch_prefill_tokens 4096, waiting_served_ratio 1.2, "
                   "max_waiting_tokens 20)";
        break;
    case ServingEngine::neuron:
        // transformers-neuronx / NxD Inference: compiled static shapes, one batch size per compiled
        // graph, KV for the whole compiled sequence held per batch slot; AWS publishes LLM
        // throughput at batch 4-8 (inf2/trn1 decoder benchmark tables).
        p.gpu = false;
        p.continuous_batching = false;
        p.max_batch = 8;
        p.max_batch_tokens = 0;
        p.kv_memory_fraction = 1.0;
        // transformers-neuronx 2.18 encodes the context with the attention scores materialised
        // (flash attention for context encoding came with NxD Inference).
        p.fused_attention = false;
        p.source = "AWS Neuron transformers-neuronx (static batch, compiled shapes; published LLM "
                   "runs at batch 4-8)";
        break;
    case ServingEngine::tensorrt:
        // TensorRT engines (demoBERT): one static batch per execution, no generation loop.
        p.continuous_batching = false;
        p.decoders = false;
        // demoBERT's CustomSkipLayerNormPluginDynamic adds the residual and normalises in one
        // kernel (reads the input and the skip, writes the output), and TensorRT fuses the
        // FC1 bias and GELU into the GEMM (TensorRT Developer Guide, "Types of Fusions").
        p.fused_layer_epilogues = true;
        p.max_batch = 128;
        p.source = "TensorRT demoBERT (static batch 1-128)";
        break;
    case ServingEngine::pytorch:
        // Eager PyTorch / Hugging Face generate(): static batches, KV in contiguous tensors.
        p.continuous_batching = false;
        p.max_batch = 32;
        p.kv_memory_fraction = 0.9;
        // DynamicLayer.update, "the default for generative models", appends a step's keys and
        // values with torch.cat (huggingface/transformers src/transformers/cache_utils.py @
        // 004999d9; LlamaAttention did the same on its past_key_value tuple in 2023).
        p.kv_cache_regrown_per_step = true;
        // 4-bit GPTQ weights through AutoGPTQ's exllama kernel, which transformers and optimum
        // load: matmul_recons_thd = 8, "the default from exllama repo" (AutoGPTQ
        // auto_gptq/modeling/_utils.py autogptq_post_init @ 6a9d80ed).
        p.int4_reconstruct_rows = 8;
        p.source = "Hugging Face transformers generate() (static batch, contiguous KV cache)";
        break;
    }
    return p;
}

// TGI and vLLM on Neuron: the Neuron SDK's compiled graphs (the neuron profile's memory, storage
// and attention), scheduled continuously: a request joins a free slot of the compiled batch as it
// arrives and its prompt is encoded alone (optimum-neuron's TGI generator prefills the new
// requests only; NxD Inference compiles context encoding at ctx_batch_size 1 for continuous
// batching, its tkg_batch_size being the batch), while decode runs the token-generation graph at
// the compiled batch.
EnginePolicy make_neuron_server_policy(ServingEngine e) {
    EnginePolicy p = make_policy(ServingEngine::neuron);
    p.engine = e;
    p.continuous_batching = true;
    p.source = e == ServingEngine::tgi
                   ? "optimum-neuron TGI backend (continuous batching into the compiled batch, "
                     "each new request's prompt encoded alone)"
                   : "vLLM Neuron worker on NxD Inference (continuous batching, context encoding "
                     "at ctx_batch_size 1, token generation at the compiled batch)";
    return p;
}

} // namespace

const char* enum_name(ServingEngine engine) {
    switch (engine) {
    case ServingEngine::tensorrt_llm:
        return "tensorrt-llm";
    case ServingEngine::vllm:
        return "vllm";
    case ServingEngine::tgi:
        return "tgi";
    case ServingEngine::neuron:
        return "neuron";
    case ServingEngine::tensorrt:
        return "tensorrt";
    case ServingEngine::pytorch:
        return "pytorch";
    }
    return "?";
}

const char* enum_name(StorageType type) {
    switch (type) {
    case StorageType::fp32:
        return "fp32";
    case StorageType::fp16:
        return "fp16";
    case StorageType::bf16:
        return "bf16";
    case StorageType::fp8:
        return "fp8";
    case StorageType::int8:
        return "int8";
    case StorageType::int4:
        return "int4";
    }
    return "?";
}

const char* term_name(ServingTerm term) {
    switch (term) {
    case ServingTerm::compute:
        return "compute";
    case ServingTerm::weights:
        return "weights";
    case ServingTerm::kv_cache:
        return "kv_cache";
    case ServingTerm::tp_comm:
        return "tp_comm";
    case ServingTerm::overhead:
        return "overhead_s_per_layer";
    case ServingTerm::cnn_compute:
        return "cnn_compute";
    case ServingTerm::attention:
        return "attention_scores";
    case ServingTerm::prefill_compute:
        return "prefill_compute";
    case ServingTerm::prefill_overhead:
        return "prefill_overhead_s_per_layer";
    case ServingTerm::pass_overhead:
        return "pass_overhead_s";
    case ServingTerm::host_step_overhead:
        return "host_step_overhead_s";
    case ServingTerm::host_seq_overhead:
        return "host_seq_overhead_s";
    case ServingTerm::expert_compute:
        return "expert_compute";
    case ServingTerm::overhead_v3:
        return "overhead_v3_s_per_layer";
    case ServingTerm::feature_maps:
        return "feature_maps";
    }
    return "?";
}

const EnginePolicy& engine_policy(ServingEngine engine) {
    static const std::array<EnginePolicy, kServingEngineCount> policies = [] {
        std::array<EnginePolicy, kServingEngineCount> a;
        for (int i = 0; i < kServingEngineCount; ++i)
            a[static_cast<std::size_t>(i)] = make_policy(static_cast<ServingEngine>(i));
        return a;
    }();
    return policies[static_cast<std::size_t>(engine)];
}

const EnginePolicy& engine_policy(ServingEngine engine, bool neuron_devices) {
    static const EnginePolicy tgi = make_neuron_server_policy(ServingEngine::tgi);
    static const EnginePolicy vllm = make_neuron_server_policy(ServingEngine::vllm);
    if (!neuron_devices) return engine_policy(engine);
    if (engine == ServingEngine::tgi) return tgi;
    if (engine == ServingEngine::vllm) return vllm;
    return engine_policy(ServingEngine::neuron);
}

namespace {

// Engine names are matched as scenario files write them, in any case.
bool is_sglang(std::string_view name) {
    return ascii_lower(name) == "sglang";
}

} // namespace

// SGLang sizes its request pool from the KV pool, min(max(KV tokens / context length x 512, 2048),
// 4096) (sglang python/sglang/srt/model_executor/model_runner.py, max_num_reqs), and admits new
// requests while KV blocks are free: under overload its queue is in the running batch (longer
// decode steps), not in front of the prefill as under vLLM's max_num_seqs 256. Its KV pool binds
// first.
int engine_max_running(std::string_view name) {
    return is_sglang(name) ? 4096 : 0;
}

// SGLang's overlap scheduler, on by default since v0.4 (lmsys.org/blog/2024-12-04-sglang-v0-4,
// "Zero-Overhead Batch Scheduler": the scheduler runs one batch ahead and prepares the next
// batch's metadata while the GPU runs the current one; --disable-overlap-schedule turns it off).
bool engine_overlap_schedule(std::string_view name) {
    return is_sglang(name);
}

ServingEngine factor_engine(ServingEngine engine, bool neuron_devices) {
    return neuron_devices ? ServingEngine::neuron : engine;
}

} // namespace cp::sim
