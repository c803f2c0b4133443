#include "serving_error_bounds.h"

// The target is 15 % per source. Where the model does not reach it yet the bound is the current
// level plus a margin, with the known reason, so a regression still fails.
double mean_error_bound(const std::string& source, bool throughput) {
    // transformers-neuronx encodes 8k-token prompts far slower than its short-prompt rate
    // (TTFT 2.4 s on trn1 for Llama 2 13B at 8192 tokens, 2x the model).
    // Llama 2 13B, CodeLlama 13B and Mistral 7B encode 4k-8k prompts 3-5x slower than Llama 3
    // on the same devices (the model, with one prefill factor, sits between them). The spread is
    // not the materialised scores' quadratic traffic (modelled, fitted factor ~4.7): rows of one
    // shape differ by the build, not the shape. Mistral 7B and Llama 3 8B (same layers, heads,
    // GQA) take 558 and 209 ms for 4096 tokens on inf2; Llama 2 and Llama 3 70B at 4 x 2048 on
    // trn1 2722 and 1661 ms; Llama 2 13B at 4 x 8192 (twice the scores of 8 x 4096) is faster
    // than at 8 x 4096. The CSV's Scripts column links each row to its sample: the Llama 3 ones
    // (aws-neuron-samples@22c6cac) build with attention_layout BSH and fused QKV on Neuron
    // 2.18.1, the others with the default layout on 2.18.0. With the NeuronLink topology in the
    // TP all-reduce (the fit then prices it: 15.8 -> 15.6 %, left out 29.3 -> 27.0 %). Tightened
    // 0.18 -> 0.17 at 15.8 % (the library's KV-head replication: 16.4 -> 15.8 %), 0.17 -> 0.16.
    if (source == "neuron-2.18-decoder" && !throughput) return 0.16;
    // Out of sample (not fitted): llmperf 2024 counts tokens with the Llama 2 tokenizer, reports
    // the request's latency over its tokens as inter-token latency, and sends waves of
    // `concurrency` requests from a driver sharing the server's 8 vCPUs (client_waves), and TGI
    // admits waiting prompts in groups. With that modelled, throughput is within 16 % at every
    // concurrency (was 96 % at 64 clients) and TGI's TTFT within 15 % up to 16 clients. With
    // prompts encoded at TensorRT-LLM's rate on the vLLM profile (prefill runs the same GEMM and
    // flash-attention kernels in every engine) vLLM 0.4.3's TTFT is within 6 % at 1-4 clients
    // (was 44-80 %); what is left is TTFT under load: 25-33 % below at 16 clients for vLLM and
    // NIM, and TGI, NIM and vLLM wait 1.1-2.4 s at 64 clients against the model's 0.3-0.9 s.
    // Tightened 0.25 -> 0.17 at 15.6 %. Bounds: the levels reached plus a margin.
    if (source == "llmperf-a10g-llama3-8b") return throughput ? 0.07 : 0.17;
    // Out of sample (not fitted: llmperf counts Llama 3's tokens with the Llama 2 tokenizer and
    // spreads TTFT over the request's tokens): TGI on Neuron 2.19.1 (transformers-neuronx). Its
    // trn1 batch-1 70B step (~18 ms) is 0.7x the model's, whose factors are Neuron 2.18's, and
    // its Llama 2 7B and Llama 3 8B first tokens are 28-33 % apart in opposite directions.
    // Tightened 0.23 -> 0.18 at 16.6 % (the runs' library, its KV-head replication and generation
    // loop, and the batch > 1 builds' single 4096-token buckets with flash attention: 21.8 %),
    // 0.18 -> 0.17 at 15.7 % (the NeuronLink topology in the TP all-reduce). Its 70B first tokens
    // (0.53-1.2 s) are 10-24 % below the model, which adds the 61 ms per request fitted on all
    // Neuron servers: a per-library overhead fitted apart puts these runs' own at 3.5 ms (13.4 %)
    // but lifts the NxD Inference servers' to 100 ms, fitted on the 70B TGI runs of 2025
    // (1.09 s, 27 % above the model) and one cold vLLM run, and their other sources lose more.
    if (source == "optimum-neuron-tgi-llmperf" && !throughput) return 0.17;
    // 32 guidellm clients on 32 slots whose prompts (each encoded alone, ~0.3 s) arrive in step:
    // TTFT 2.1 s against the model's 0.6 s for clients spread over the cycle (all 32 in phase
    // would wait 16.5 prompts, ~5 s); the single-client and decode figures are within 9 %.
    // Why they stay in step: a prompt's pass stalls every decode, so requests encoded in one
    // burst decode in lockstep and return together; only their output lengths' spread (up to
    // 250 tokens, 213 on average) parts them, and 2.1 s is the wait of groups of ~13. The runs
    // publish no length spread to model it by. Tightened 0.24 -> 0.22 at 21.0 % (the fitted
    // per-request overhead, 47 -> 70 ms); 21.4 % with the NeuronLink topology.
    if (source == "optimum-neuron-vllm-ods" && !throughput) return 0.22;
    // optimum-neuron vLLM on trn1.32xlarge, 4 x TP8 (checked, not fitted): three single-client
    // runs of one build whose first tokens took 478, 242 and 242 ms (the first, like the first
    // inf2 vLLM run of that month in optimum-neuron-guidellm, 475 ms, slower than the runs
    // after it). The model gives 297 ms against 310 ms for the same TP8 build on inf2.48xlarge
    // (315-322 ms measured): TP8 is one closed row of trn1's 4 x 4 torus but a chain of 4 of
    // inf2's 12-chip ring, at half its bandwidth; the context encodings are the same
    // NeuronCore-v2 work. ITL and throughput within 5.3 %. Bound: the level reached (16.1 %,
    // 15.2 % with the topology) plus a margin.
    if (source == "optimum-neuron-vllm-trn1-dp4" && !throughput) return 0.16;
    // SGLang 0.3 (online rows out of sample) is within the target since its prompts are encoded
    // at TensorRT-LLM's rate (9.3 %; was 15.6 %, its 8B TTFT 31-36 % above measured). The later
    // SGLang on 4-8 x H200 (v0.4 or later, torch.compile, overlap scheduler) reports the median
    // ITL over every gap: a decode step alone while fewer than half the iterations encode a
    // prompt; 21.3 -> 14.1 %.
    // Its 70B steps at 1-4 requests/s are still 28-35 % above measured (13.6-14.8 ms: a fixed
    // cost per layer and step shared with the 2024 vLLM 0.6 and SGLang 0.3 runs), and at 8/s
    // (70B) the measured median gap, 70.8 ms, is 1.6x the model's decode step. Both sources are
    // held to the 15 % target.
    // The perf-overview tables of other TensorRT-LLM releases are checked, not fitted, except for
    // one constant: the runtime's logits and decoder buffers, [build max batch, vocab] arrays on
    // every rank allocated before the KV cache, are fitted at 31 bytes per slot and vocabulary
    // entry over the 540 runs of 0.10-0.12 that state their build's max batch
    // (serving_runtime_buffers_test.cpp). trtllm-bench 0.12 builds Llama 3 70B for 8192
    // sequences at TP8 (benchmark_config.yml), so 128,256-entry buffers take ~30 GiB of each
    // GPU's KV room where Llama 2 70B, built for 1024 at 2,176 tokens, loses 1 GiB: A100 FP16 TP2
    // 2048/2048 (87.5 tok/s, 0.15 has 255) 257 -> 52 % above measured, TP8 +17 -> +10 % and
    // 128/4096 +25 -> +18 % signed, 15.8 -> 12.5 % mean. What is left is high where many GPUs
    // decode long outputs, Llama 2 as well (H100 FP16 TP8 128/2048 +35 %, 0.15's Llama 3 row
    // +14 %): the model's KV-bound step is nearly as fast per token at half the batch. Bound: the
    // level reached plus a margin.
    if (source == "trtllm-0.12-offline") return 0.13;
    // Out of sample (added as a held-out check, not fitted): the 0.13.0 table, same trtllm-bench
    // method as 0.12, 607 dense rows. Its error is 0.12's before the runtime buffers: 15.7 % mean,
    // the model high where many GPUs decode long outputs (+19 % signed at TP8, +25 % at
    // 128/4096) and 5.6-8.9 % mean on the 6-8B models (TP1). Its rows have the same signature of
    // large build batches with Llama 3's vocabulary: at TP8 Llama 3 70B decodes 128/4096 at 0.71x
    // Llama 2 70B on FP16 H100s (4,259 vs 5,997 tok/s) and 0.77x on FP8 H100s, and 70B FP8 on
    // one H100 (128/2048 344 tok/s, 0.17 has 912) and FP16 70B on 2 x A100 at 2048/2048 (109
    // tok/s) are 2.2-2.8x below the model; but the page states no build settings (its build
    // command takes trtllm-bench's per-model table or, from the tuning heuristics' release on,
    // the KV-sized batch), so its rows carry no max batch and keep the running batch's buffers.
    // Bound: the level reached.
    if (source == "trtllm-0.13-offline") return 0.16;
    // Out of sample: 0.10 is the first release measured with in-flight batching ("initial
    // measurements ... expected to improve"), streaming every token back (gptManagerBenchmark
    // --streaming) under the max_utilization scheduler; the same GPUs run Llama 3 8B 1.0-3.0x
    // faster in 0.11 and 0.12 (H200 FP8 128/2048: 8,368 -> 23,724 / 23,231 tok/s) while Llama 2
    // 7B stays within 10 %, and the 70B at TP8 on H100/H200 1.35-1.6x faster even at 128/128,
    // where every request fits in the KV cache. With the dataset's 2,000 requests 30.5 -> 26.0 %;
    // with the runtime buffers of its 2048-sequence builds (see 0.12) 24.4 -> 23.5 %. Llama 3 8B
    // ran at the same rate on H100 and H200 (128/2048 8,014 and 8,368 tok/s; 2048/2048 3,500 and
    // 3,674) with a per-token cost growing with the sequence: 0.10's XQA cubins serve 8 query heads
    // per KV head only and its Hopper XQA kernels Llama 2 70B only (release notes; the Hopper
    // qgmma JIT kernel arrives in 0.11), so its FP8-KV Hopper rows (4 query heads per KV head)
    // decode with the per-query-head masked-MHA kernel (gqa_shared_kv_reads false): those 8 rows
    // ~100 -> 13 % mean, the source 23.5 -> 19.8 % (max 205.6 -> 86.3 %). What is left is the
    // long-output rows of every model (128/2048 and 2048/2048 +26 % mean against +12 % in 0.11
    // and 0.12), the max_utilization scheduler's pauses and streaming being the run's
    // differences; no published figure gives their cost, so they are not modelled. Bound: the
    // level reached plus a margin.
    if (source == "trtllm-0.10-offline") return 0.21;
    // Out of sample (checked, not fitted): LMDeploy 0.1's TurboMind on A100-80G, every
    // concurrency of its static-inference table. Its clients start together and send identical
    // requests, so every round is a wave that reaches an idle engine at once; with each prompt's
    // first token waiting for the prefill iteration that holds it (TurboMind prefills every
    // admitted prompt before it samples) the TTFT of 128- and 2048-token prompts at 16-64 clients
    // whose sequences fit in the KV blocks is within 34 % where it was 73-97 % below, and the
    // median token gap is a decode step (latency 48.3 -> 21.6 %). The tested v0.1.0a1 leaves each
    // prompt's last token to the first decode step, which samples the first token: one prompt
    // alone is within 10 % on the 7B and 13B (was 56 % below: 20 vs 22 ms, 36 vs 40 ms) and 22 %
    // on the 70B (57 vs 74 ms; was 62 %), 21.6 -> 20.5 %. What is left: 1-token prompts at 16-64
    // clients wait 21-213 ms against one decode step (11-29 ms), and where 32-64 clients overrun
    // the KV blocks TurboMind admits everyone and evicts later (13B, 64 x 128/2048: mean TTFT
    // 7.8 s, max 60 s) where the model queues whole requests (43 s). Throughput within 9.5 % mean.
    // Bounds: the levels reached.
    if (source == "lmdeploy-0.1-a100-static") return throughput ? 0.10 : 0.21;
    // Out of sample (checked, not fitted): Yi 1.5 34B over the four A10G of one g5.12xlarge (TP4
    // on PCIe x8, no NVLink), vLLM 0.4.3 and TGI, the llmperf driver of llmperf-a10g-llama3-8b.
    // Decode is within 7 % up to 4 clients (one client: 46.7 ms per token against 49.2), but the
    // first token of one ~520-token prompt takes 587 ms against the model's 354 ms, and from 16
    // clients on throughput stops at 124-140 tok/s (model 168-271) with TTFT 2.3-3.1x the model's.
    // Prefill is what is short: each prompt's 120 all-reduces of 7.4 MB stage through host memory
    // (no GPU P2P), priced at one socket's host-staged rate, 0.41 of the x8 link (6.4 GB/s
    // busbw). The prefill gap asks for ~3 GB/s: the rate measured on a g5.48xlarge whose ring
    // crosses sockets (pytorch issue 127077), and NCCL 2.20.5, which vLLM 0.4.3's torch 2.3
    // ships, is slower on G5 than 2.18.5 (NVIDIA/nccl issue 1298) by a factor no published
    // all-reduce table gives. FMBench's TGI 1.4.5 (torch 2.1) on the same g5.12xlarge is faster
    // than the model, so the single-socket rate is not lowered. Bounds: the levels reached.
    if (source == "llmperf-4xa10g-yi-34b") return throughput ? 0.35 : 0.38;
    // Out of sample (checked, not fitted; added with no model change): FMBench on SageMaker,
    // Llama 2 13B with TGI 1.4.5, 1-2 clients, 16-46 generated tokens. Four A10G (TP4) are
    // within 12-27 % (the model slow: its TP4 prefill of a 3,394-token prompt, 1.35 s, exceeds
    // the whole measured request, 1.99 s). Eight A10G are measured slower than four: the
    // g5.48xlarge's GPUs sit four to a CPU socket, and a TP8 ring staged through host memory
    // across the sockets runs at the 3.10 GB/s busbw measured there (pytorch issue 127077); with
    // it those rows are within 5-22 % (16-76 % before). TGI 1.4.5 decodes without CUDA graphs
    // (the default from pull request 1703, 2024-04-04), so a step lasts at least the host's time
    // to issue its layers, measured on TGI 1.0.3 (serving_host.cpp): p4d.24xlarge, 2x slower than
    // the model's ~11 ms step before, is within 6-34 %. Together: latency 28.8 -> 12.2 %,
    // throughput 51.4 -> 14.7 %. Bounds: the levels reached plus a margin.
    if (source == "fmbench-sagemaker-llama2-13b") return throughput ? 0.16 : 0.14;
    // TensorRT-LLM 0.5 first-token latency (out of sample), gptSessionBenchmark at batch 1 with
    // one output token: within the 15 % target (13.8 %; was 22.6 %) since a prompt's pass pays the
    // decode step's fixed cost per layer, TensorRT-LLM running both phases through one engine
    // (EnginePolicy::prefill_in_step_program). L40S, 2048-token prompts and the batch-64 GPT-J rows
    // are within 15 %; 128-token prompts on H100 and A100 still take 2-2.5 ms (6-7B) and 10-14 ms
    // (70B at TP4) more than the model, about twice the fitted 63 us per layer: the 0.5 session
    // runtime's own cost, which no fitted engine profile carries.
    // Out of sample: TensorRT-LLM 0.5.0 and 0.6.1 static batches (gptSessionBenchmark). Their
    // engines decode GQA models without the XQA kernel (off by default until after 0.6.1, and
    // without FP8 KV cache until 0.7.1; runs' gqa_shared_kv_reads false on 0.5 and on 0.6.1's
    // FP8-KV H100 rows), each query head re-reading its group's KV cache: Llama 2 70B (8 query
    // heads per KV head) decoding 2048 tokens ran 1.5-2.3x slower than the model with one read per
    // KV head, the MHA models (GPT-J, Llama 2 7B) within 9 %. With the re-reads, 0.5 throughput is
    // within 4 % on average (worst: Llama 2 13B, batch 128 of 128/2048 on H200, 23
    // %); 0.6.1's H100 Llama 2 70B rows run 15-20 % faster than the model, and its FP16-KV A100
    // rows, which the source's later revision benchmarks with TRTLLM_ENABLE_XQA=1 (same figures),
    // keep shared reads (128/2048 at TP4: 32 % slower than the model). Bounds: the levels reached
    // (4.0 %, 12.0 %) plus a margin.
    if (source == "trtllm-0.5-session") return throughput ? 0.05 : 0.15;
    if (source == "trtllm-0.6-session") return 0.14;
    // Out of sample (checked, not fitted; added with no model change): GPUStack's performance lab,
    // Qwen3-14B on one H100 SXM, vLLM 0.11, SGLang 0.5.5 and TensorRT-LLM 1.2 with 100-1,000 chat
    // requests sent at once. All 36 values, lengths (the runs' token totals over their requests)
    // and engine defaults re-read against the page: no transcription error. The quantities are the
    // model's: vllm bench serve's mean TTFT over a burst includes the queueing of every request,
    // and the model's TTFT is ~0.45 of its run time as the measured one is ~0.5 of the measured;
    // the error is a rate, the same on every metric of a run. Every engine and length runs
    // 1.35-2.2x slower than the model (vLLM 1.6-1.7x at 2K, 4K, 32K and ShareGPT; 3.9x for
    // 1,000 x 128/4), which the 2024-2025 tables on the same GPU fit within 10-15 %. The slow part
    // is compute: the 32000/100 prompts (~1.3e17 FLOP) take 387 s on vLLM, 33 % of the H100's
    // dense BF16 peak, the 2K and 4K runs 25-28 %, where the TensorRT-LLM and vLLM tables'
    // prefills reach 50-60 %; SGLang's FP8 weights gain 1.2x over vLLM on the 32K prompts where
    // the model gives 1.65x. Bandwidth is not: the same lab's Qwen3-8B decode on the same GPU and
    // engines (gpustack-qwen3-8b-h100-latency, below) is as fast as the model or faster. Compute at
    // about half rate with full memory bandwidth is what a power- or clock-capped GPU shows; the
    // page states no power limit, clock or host, so no run field can carry it. Bounds: the levels
    // reached (93.9 and 50.2 %) plus a margin.
    if (source == "gpustack-qwen3-14b-h100") return throughput ? 0.96 : 0.52;
    // Out of sample (checked, not fitted; added with no model change): MLPerf Inference v4.1,
    // NVIDIA's Llama 2 70B FP8 on 8 H100 (four TP2 copies) and 8 H200 (eight TP1 copies),
    // OpenOrca's 222 prompt / 294 generated tokens. Offline and Server throughput are within 3 %.
    // The Server latencies are not: LoadGen's Poisson load at 75 and 101 queries/s keeps ~845
    // sequences running per H100 copy (75.1/4 x 45.0 s mean latency) at a 155 ms mean step,
    // where the model settles at ~390 and 70 ms; on the H200 copies ~450 run at 123 ms, where
    // the model settles at ~680 and 183 ms. The same rate thus sits at a different point of the
    // step-time-versus-batch curve on each system, one above and one below the model. The
    // harness (closed/NVIDIA/code/harness/harness_llm/main_llm.cc @ 198fc467) streams tokens in
    // Server only ("disable it for Offline scenario") and schedules with max_utilization. Per
    // output token an H100 copy's Server run is 11-12 % slower than its Offline run at nearly the
    // same batch (~836 vs 896 sequences), an H200 copy's 6-7 % slower at half the batch (~450 vs
    // 806), which a streaming cost of ~20 us per sequence and step would explain on the H100;
    // but on the H200 the model's capacity is already 2 % low, at 0.97 of which the Poisson load
    // puts it, and any added cost moves its batch further up. Near saturation the running batch
    // is rate x (fixed step cost) / (1 - utilisation): a 2-3 % capacity error moves it 1.5-2x.
    // Bound: the level reached (53.7 %) plus a margin; tightened 0.56 -> 0.45 at 42.7 % when
    // Server rows became the finite LoadGen runs they are (loadgen_queries).
    if (source == "mlperf-inference-v4.1-llama2-70b" && !throughput) return 0.45;
    // Out of sample (checked, not fitted; added with no model change): Fujitsu's MLPerf v4.1
    // Llama 2 70B with NVIDIA's harness. 4 x H100 (two TP2 copies): Server throughput within 2 %,
    // Offline 24 % below the model (10,133 tok/s; NVIDIA's 8-GPU system reaches 12,262 per four
    // GPUs, within 3 % of the model), and Server latencies missing as NVIDIA's H100 copies do
    // (TPOT 167 ms against 36; see above). Bound: the level reached plus a margin. The 8 x L40S
    // rows (two TP4 copies over PCIe, throughput only) keep the 15 % target: Offline 3,718 tok/s
    // is 19 % above the model's 3,015, the perf-overview L40S TP4 70B rows within 13 %.
    if (source == "mlperf-inference-v4.1-llama2-70b-fujitsu-h100" && !throughput) return 0.79;
    // Out of sample (checked, not fitted; added with no model change): MLPerf v4.1 Mixtral 8x7B,
    // NVIDIA's eight TP1 FP8 copies on 8 H100 and 8 H200, 427 prompt / 146 generated tokens per
    // sample. Offline and Server throughput within 14 %; the Server latencies are faster in the
    // model on both systems (TPOT 67 and 56 ms against 103 and 138, TTFT 131 and 111 ms against
    // 180 and 228), as for NVIDIA's Llama 2 70B H100 copies: at ~44-49 queries/s a copy, the
    // measured steps carry ~650-800 sequences and the prompts' prefill chunks (max_num_tokens
    // 8,192-16,384) where the model settles at ~430. Bound: the level reached plus a margin.
    if (source == "mlperf-inference-v4.1-mixtral-8x7b" && !throughput) return 0.45;
    // Out of sample (checked, not fitted; added with no model change): Red Hat's MLPerf v5.1
    // Llama 3.1 8B with vLLM 0.10 (FP8 weights), 871 prompt / 128 generated tokens. One H100:
    // Offline within 1 %, Server throughput 7 % under (its Server build's capacity, so its
    // latencies are not rows: see the source note). One L40S: Server within 1 % but Offline 44 %
    // above the measured 1,642 tok/s (12.8 samples/s, 28 % of the FP8 peak where the H100 run
    // reaches 36 %): no vLLM run on Ada is fitted, and the model's Ada prefill rate is
    // TensorRT-LLM's, within 13 % on the perf-overview L40S rows; its Server TTFT and TPOT are
    // 29 and 42 % under. Bounds: the levels reached plus a margin.
    if (source == "mlperf-inference-v5.1-llama3.1-8b-redhat") return throughput ? 0.15 : 0.38;
    // The same benchmark with NVIDIA's harness on HPE's 8 H200 (TP1 x 8): throughput within 1 %
    // in all three scenarios; Server TPOT 128 ms in the model against 75, Interactive within 25 %.
    // Tightened 0.37 -> 0.24 at 21.3 % with the finite LoadGen runs (loadgen_queries).
    if (source == "mlperf-inference-v5.1-llama3.1-8b-hpe-h200" && !throughput) return 0.24;
    // QCT's run of the same benchmark: 13.7 % while the steady-state queue stood in for the run,
    // 18.5 % as the finite LoadGen run of its stated 253,992 queries. The steady state reached the
    // measured 22.7 ms TPOT only through its queue at utilisation 0.998; the finite run shows the
    // model's own prefill/decode split (its step 17.8 ms) and an Offline capacity 5.3 % below the
    // measured. Bound: the level reached plus a margin.
    if (source == "mlperf-inference-v5.1-llama3.1-8b-qct-h200" && !throughput) return 0.20;
    // Out of sample (checked, not fitted; added with no model change): other submitters' MLPerf
    // v4.1 and v5.1 runs of NVIDIA's harness. Throughput is within 9 % on every such source
    // (Llama 2 70B, Mixtral, Llama 3.1 8B and 405B on H100 and H200). The latencies at the
    // scheduled Server rate are not. Mixtral's TTFT and TPOT are 38-51 % under measured (the
    // model's capacity 3-17 % above, so its queue is shorter). Llama 2 70B: the H100 TP2 systems'
    // latencies are 49 % under (their Server steps slower than the Offline ones, as in
    // mlperf-inference-v4.1-llama2-70b), the H200 TP1 ones 32-81 % over (rates within a few % of
    // the model's capacity), and one H200 TTFT (Lenovo, 104.21 queries/s) is 38 s against 252 ms
    // where Dell's 102.71 queries/s gives 378 ms; without that row the source's latency mean is
    // 50 %. Bounds: the levels reached plus a margin. As finite LoadGen runs of their stated
    // query counts (loadgen_queries) the Lenovo TTFT is 289 ms and the latency mean 42.1 %
    // (was 674.5 %): tightened 6.8 -> 0.45.
    if (source == "mlperf-inference-v4.1-llama2-70b-submitters" && !throughput) return 0.45;
    if (source == "mlperf-inference-v4.1-mixtral-8x7b-submitters" && !throughput) return 0.40;
    if (source == "mlperf-inference-v5.1-mixtral-8x7b-h200" && !throughput) return 0.53;
    // Out of sample (checked, not fitted; added with no model change): TensorRT-LLM 0.9.0's
    // static-batch tables: 10.6 % mean over the 96 rows without Mixtral. Mixtral 8x7B FP8 at TP2
    // on H100 and H200 runs 1.3-2x slower than the model at three of its four shapes (H200
    // 128/128 at batch 1,024: 5,444 out tok/s per GPU against 10,857) and its 2,048-token first
    // tokens take 88-90 ms against 39-40, where the A100 (FP16) rows are within 7-18 % at three
    // shapes: the FP8 MoE layers of that release ran far from the rate later releases reach (the
    // 0.13 and 0.17 Mixtral tables: 11.5 and 9.9 % mean). Bounds: the levels reached plus a
    // margin.
    if (source == "trtllm-0.9-session") return throughput ? 0.17 : 0.18;
    // Out of sample (checked, not fitted; added with no model change, after seeing the error of
    // gpustack-qwen3-14b-h100): the same lab's Qwen3-8B on the same H100 SXM and engines,
    // ShareGPT at 4 clients. Decode, bound by memory bandwidth, is as fast as the model or faster
    // (TPOT 7.2-7.7 ms, model 7.9-8.9; throughput within 9.7 % mean), so the 14B runs' shortfall
    // is not the GPU's memory path. SGLang's first token is within 1 %; vLLM's and
    // TensorRT-LLM's take 64 and 52 ms against the model's 18-20 ms for a ~233-token prompt
    // (~3.5 TFLOP, a few ms of compute): a per-request cost of their chat front ends that the
    // fitted profiles do not carry. Bound: the level reached (30.6 %; 29.9 % with TensorRT-LLM's
    // prompt pass at the decode step's fixed cost per layer) plus a margin.
    if (source == "gpustack-qwen3-8b-h100-latency" && !throughput) return 0.31;
    // Out of sample (checked, not fitted; added with no model change, after seeing the H100
    // sources' error): the same lab's pages for A100 80GB and for Qwen3-32B, same engines, method
    // and lengths. On the A100 the model holds: Qwen3-14B throughput within 14.9 % mean and
    // Qwen3-32B's vLLM 2K/4K and TensorRT-LLM runs within 5 % (TTFT and TPOT within 6 %). So the
    // lab's H100 shortfall is that GPU's setup, not the engines or the method: Qwen3-32B on its
    // H100 runs 1.5-2.6x slower than the model (105 % throughput) where its A100 is within 19 %,
    // and the measured H100 prefills the 32K prompts only 1.5x faster than the A100 (1,157 vs
    // 1,784 s) where the dense BF16 peaks differ 3.2x. What the A100 rows leave: vLLM's 1,000
    // prompts of 128 tokens take 27 s (14B) and 50 s (32B) against the model's 16 and 37 s (the
    // prompt GEMMs at 45-54 % of peak where TensorRT-LLM on the same GPU reaches 72-81 %, as the
    // model gives both), and the mean TPOT of the 1,000-request bursts, where decode steps share
    // the GPU with other requests' prefills (14B TensorRT-LLM 262 ms against 136). Bounds: levels.
    if (source == "gpustack-qwen3-14b-a100") return throughput ? 0.16 : 0.30;
    if (source == "gpustack-qwen3-32b-a100") return throughput ? 0.21 : 0.30;
    if (source == "gpustack-qwen3-32b-h100") return throughput ? 1.08 : 0.50;
    // Out of sample (checked, not fitted; added with no model change): Inf1 NeuronPerf encoder
    // tables of Neuron 2.10-2.20 on inf1.xlarge. Four copies with two workers each (BERT base,
    // DistilBERT) are within 5-12 %. One copy alone is not: BERT base at batch 1 takes 7.9 ms
    // (the same row as neuron-encoder-cnn's) where the model gives 3.9, yet batch 3 takes 10.5
    // ms (model 10.7). So batch 1 has a ~6.6 ms fixed cost and adds ~1.3 ms per sample, and the
    // model has the fixed cost too small and the per-sample cost too large. DistilRoBERTa is 19-37
    // % fast at every batch. Bound: the level reached (23.2 %) plus a margin.
    if (source == "neuron-inf1-history" && throughput) return 0.25;
    // Out of sample: optimum-neuron's TGI on Neuron 2.18 (transformers-neuronx 0.10.0.21, one
    // 4096-token bucket per batch-32 build, no flash-attention kernel), one llmperf client. The
    // model's first tokens are 1.5-1.8x the measured ones (707 vs 479 ms for Mistral 7B, 669 vs
    // 378 ms for Llama 2 7B): it prices the 4096-token bucket's materialised scores at the 2.18
    // tables' factor. Llama 2 7B's step (71 ms per token) is 1.5x the model's even though the same
    // build of Mistral 7B is 0.8x it. Llama 2 7B has 32 KV heads, so each step reads a 4096-token
    // cache for 32 slots (69 GB per replica). Bounds: the levels reached (45.1 %, 44.9 %) plus a
    // margin.
    if (source == "optimum-neuron-tgi-2.18") return 0.47;
    // The optimum-neuron-vllm-ods build sampling on the host CPU (config B of the chunked-prefill
    // README): the graphs return logits and the host samples them, so no step overlaps it
    // (ServingSetup::host_sampling). Its host time per step (22 ms) is fitted on the one
    // synchronous ITL; the rest is checked: the synchronous TTFT 8.8 -> 2.8 % and throughput
    // 84 -> 0.7 %; at 32 clients the ITL 50 -> 29 % and throughput 186 -> 103 %, still short: at
    // 32 clients the host adds ~65 ms per token over the ods build, 2.7x its 24 ms at one, so the
    // sampler's time grows with the live rows (~1.4 ms each), which the one fitted row cannot
    // separate from a fixed cost per step.
    // TTFT 3.9 s at 32 clients stays 85 % (model 0.57 s: clients in step, as in the ods build).
    // Tightened 0.50 -> 0.31 (29.3 %) and 1.37 -> 0.54 (51.9 %).
    if (source == "optimum-neuron-vllm-cpu-sampling") return throughput ? 0.54 : 0.31;
    // Out of sample: optimum-neuron vLLM, Qwen3-32B on one Trainium2 (TP4, batch 2), one client.
    // The first token is within 6 %. The step is 32.1 ms against the model's 41.7 ms: the
    // model's 22.6 ms of weight streaming (65.5 GB at 2.9 TB/s) plus the 10.6 ms host loop,
    // fitted on 2025 NeuronCore-v2 servers, already exceed the measured step. Bounds: the levels
    // reached (18.0 %, 20.5 %) plus a margin.
    if (source == "optimum-neuron-vllm-trn2-qwen3-32b") return throughput ? 0.22 : 0.20;
    // Out of sample: the vLLM Neuron plugin (Neuron SDK 2.32, 2026) on trn2.48xlarge, TP8 Llama
    // 3.1 8B, max-num-seqs 2, 2 clients, 512-token prompts. The plugin schedules one step ahead
    // by default (async scheduling), so the host loop fitted on the synchronous 2025
    // optimum-neuron servers (10.9 ms) bounds the step instead of adding to the device's 4.8 ms:
    // TPOT 11.2 ms against 10.52 measured (15.7 before), throughput 32.0 -> 5.3 %. The measured
    // TTFT is 51 ms; the model gives 108 ms, of which the per-request overhead fitted on those
    // servers is 61 ms; no published figure separates the newer plugin's front end. Bounds: the
    // levels reached (58.5 %, 5.3 %) plus a margin.
    if (source == "vllm-neuron-trn2-baseline") return throughput ? 0.07 : 0.60;
    // Out of sample: NxD Inference contrib tables (Neuron SDK 2.29, vLLM 0.16 with the Neuron
    // plugin, max-num-seqs 4, one client) for Mixtral 8x7B TP8 and 8x22B TP16 on trn2.48xlarge
    // and Mistral 7B v0.3 TP4 on trn2.3xlarge. TTFT is 27-41 % under the measured 130-555 ms
    // on both Mixtrals; TPOT is 21-23 % under on both Mixtrals (the MoE steps, whose expert
    // dispatch the tables say takes ~60 % of decode) and within 6 % on Mistral 7B. With the
    // plugin's one-step-ahead scheduling (its default, the run states it) the mean is 23.8 %
    // (37.0 % without); each rank's whole-width block rows (serving_moe.cpp) take it to 22.9 %.
    // Bound: the level reached plus a margin; the tables publish TTFT and TPOT only.
    if (source == "nxdi-contrib-mistral-family-trn2") return 0.25;
    // Out of sample: optimum-neuron vLLM, Qwen3 MoE (30B-A3B on trn1 TP32 and trn2 TP4, 235B-A22B
    // on trn2 TP64), one client. NxD's expert MLPs have static shapes (serving_moe.cpp): a
    // decode step with at least one routed row per expert runs all of them, and a long prompt runs
    // padded 512-row blocks. The trn2 30B step then goes from 32 to 42 ms (56 measured); latency
    // 60.0 -> 54.4 %, throughput 92.7 -> 73.2 %; each rank gathering and accumulating every
    // block over the whole hidden width, 50.4 % and 65.9 %. The first tokens are still 4-6x the
    // model's: 1.5-4.6 s against 0.38-0.78 s, 0.15-0.26 ms per block and layer that no published
    // figure breaks down. Bounds: the levels reached plus a margin.
    if (source == "optimum-neuron-vllm-qwen3-moe") return throughput ? 0.68 : 0.52;
    // Out of sample: NVIDIA DeepLearningExamples' BERT-large (SQuAD, 384 tokens, FP16) on Triton,
    // batch 1-16, one request at a time, on T4, V100 and A100. Its TorchScript model computes
    // attention as separate matmuls and softmax (the run states it: 28.0 -> 22.2 %) and issues
    // its kernels from the host: with the eager floor of decode steps applied to the forward pass
    // its A100 and V100 batch-1 latencies go 57 -> 24 % and 35 -> 8 % (18.8 %). The TensorRT
    // engines from the same ONNX export register no attention plugin (runner config:
    // triton_custom_operations null), so their rows state the scores materialised
    // (attention_kernel false): batch 8-16 went from 25-33 % fast to 9-15 % slow on all three
    // GPUs (18.8 -> 12.5 %); batch 1 is 16-26 % off either way. Tightened 0.21 -> 0.14.
    if (source == "dle-triton-bert-large") return throughput ? 0.15 : 0.14;
    // Out of sample: optimum's GPTQ benchmark, Llama 2 13B on one A100 80GB with transformers'
    // generate() (eager, static batch, 512 + 512 tokens), FP16 and 4-bit GPTQ (exllama kernel).
    // Its KV cache grows by concatenation, re-copied whole every step (41.3 -> 39.8 %; FP16 batch
    // 16: 63.9 -> 47.2 %). What is left: 37 ms per token at batch 1 against the eager floor of
    // 21.7 ms (0.54 ms per layer, fitted on TGI's fused flash-Llama layers; transformers' Llama
    // layer issues several times as many kernels); prefill 24-43 % above the model. The 4-bit
    // steps follow exllama's kernels (serving_dequant.cpp: a conversion pass per row below 8 rows,
    // an FP16 reconstruction at 8 and above): 39.8 -> 33.9 %, GPTQ batch 16 72.6 -> 41.8 %.
    // Bound: the level reached (33.9 %) plus a margin.
    if (source == "optimum-gptq-a100-llama2-13b") return throughput ? 0.15 : 0.36;
    // Out of sample (checked, not fitted): AccelMark's verified vLLM 0.7.3 runs (ShareGPT
    // prompts, greedy outputs ending at EOS or 512 tokens, mean ~345). Its offline figure hands
    // 100 prompts to vLLM at once and divides by the time to the last output: the run lasts until
    // the longest answers (near the 512 cap) finish, at a shrinking batch (output_tokens_max,
    // serving_output_spread.cpp). With that tail the offline rows went from 26-58 % fast to
    // within 0-28 % on all but H200, which reports throttling (throughput 31.1 -> 17.5 % for 8B,
    // 25.4 -> 9.4 % for 70B). vLLM 0.7's V0 engine hands a step's tokens to the streams during the
    // next step (`async_output_processing`): with that step the single-client first tokens go from
    // 2.5-4.9x short to 1.2-2.3x (20 ms measured against 14.6 on H100 for a ~208-token prompt; the
    // rest is host time per request), latency 31.5 -> 25.6 % (8B) and 39.8 -> 28.6 % (70B). The
    // H200 run is slower than the H100 run in every streaming figure. W4A16 (GPTQ-Marlin) runs at
    // 0.64-0.66x BF16's offline throughput on every GPU (vLLM 0.7.3 on A100, H100, H200); with
    // Marlin's flat mixed-input rate the model puts it at 0.71-0.93x. W8A8 runs at 1.15-1.34x
    // BF16; with int8 GEMMs at the int8 peak the model gives 1.24-1.37x. The quant source's mean
    // went 55.4 -> 34.4 % with the tail. Median TPOT over requests sees the batch of each
    // request's own stay (serving_run_profile.h): 8B latency 27.3 -> 24.2 %, tightened 0.28 ->
    // 0.26. Bounds: the levels reached plus a margin.
    if (source == "accelmark-vllm-0.7-llama3-8b") return throughput ? 0.20 : 0.26;
    if (source == "accelmark-vllm-0.7-llama3-70b") return throughput ? 0.12 : 0.31;
    if (source == "accelmark-vllm-0.7-llama3.1-8b-quant") return 0.37;
    // The same runs with ~28K-token prompts (suite D, added after the output-lag change, with no
    // change for it; the lag moves it by under 0.1 point). Single-client first tokens are within
    // 5 % on H100 and H200; on A100 the model's are 22-26 % long. Offline throughput is within 7 %
    // except on H200 (19 % fast, as in its short-prompt run). The one-client steps of the A100
    // 80GB and H200 runs (31 and 16 ms) are 1.4-1.7x those of the A100 40GB and H100 runs (18 and
    // 12 ms) and 2x the model's. Overloaded A100s show first tokens at 0.6-0.9x the model's
    // backlog; H100 and H200 at 0.5 requests/s, below their capacity, wait 2.3-2.4x the model's.
    // Bounds: the levels reached (36.9 %, 15.4 %) plus a margin.
    if (source == "accelmark-vllm-0.7-llama3.1-8b-28k") return throughput ? 0.17 : 0.39;
    // Out of sample: AccelMark's suite A on one A100 80GB again, with the vLLM 0.20.1 runner (V1
    // engine, chunked prefill, no output-processor lag), the same prompts and clients as the vLLM
    // 0.7 rows. Offline 13 % slow with the longest answers' tail (8 % fast without it), as its
    // sustained clients' throughput (12 % slow): V1's step is modelled long; steps within 11 %. One
    // client's first token is 28 ms against the model's 16 ms (41 %): host time per request in the
    // front end, as for 0.7. At 100 requests/s (nine times the capacity) the median first token
    // waits 1.7 s against the model's 8.8 s: with 128 running sequences (the streaming engine's
    // default) the model frees every slot at once, after the mean output, where ShareGPT's spread
    // of answer lengths frees slots from the first seconds; no run publishes that spread. Without
    // that row the latency mean is 14.2 %. Bounds: the levels reached (64.0 %, 12.1 %) plus a
    // margin; the throughput bound was 0.11 while the offline row's missing tail offset the slow
    // step. With each request's own batch (serving_run_profile.h) the 25 and 100 requests/s
    // runs' median request holds its slot beside all 128: TPOT 29 ms against 22 measured
    // (40.5 -> 47.0 %), V1's long step again.
    if (source == "accelmark-vllm-0.20-a100-llama3-8b") return throughput ? 0.14 : 0.66;
    // Out of sample (checked, not fitted; added with no model change): suite B on 8 H200, the
    // same runner and encoding as accelmark-vllm-0.7-llama3-70b. Alone, a request decodes as the
    // model says (TPOT 12.3 ms, model 13.5) but its first token takes 77 ms against 25; under
    // 5-25 req/s the measured TPOT rises to 39-59 ms where the model's stays at 16-24 ms, and
    // TTFT to 0.13-0.59 s against 0.05-0.07 s: the same direction as the A100 rows of that
    // source (TPOT 62-75 ms against 30-38 at 5-10 req/s), twice as far. Throughput is 14-19 %
    // above measured. Bounds: the levels reached plus a margin.
    if (source == "accelmark-vllm-0.7-llama3-70b-h200") return throughput ? 0.18 : 0.56;
    // The same runner's suite D (~28K-token prompts, 256 outputs) on that A100. One client's first
    // token is 3.18 s against the model's 3.78 s (19 %) and its step within 6 %. Under the 0.5-2
    // requests/s backlog every iteration carries a 2,048-token prompt chunk (the streaming
    // engine's budget): the median step is 232 ms, one fourteenth of the measured 28.6K-token
    // prefill (227 ms), where the model gives 171 ms; the sustained clients' throughput is 27 %
    // above measured for the same reason. With the median request's own batch
    // (serving_run_profile.h) the step is 188 ms, latency 20.7 -> 18.0 %: tightened 0.25 -> 0.21.
    // Bounds: the levels reached plus a margin.
    if (source == "accelmark-vllm-0.20-a100-llama3.1-8b-28k") return throughput ? 0.22 : 0.21;
    // Out of sample: Cisco's H200 Llama 3.1 8B (MLPerf v5.1) states no batch or batched-token
    // limits, so the model's defaults stand in. At the Server's 320 queries/s (70 % of the Offline
    // rate) its mean first token is 60.9 ms against the model's 37.0 ms: queueing behind other
    // prompts' prefill chunks, which the unstated token budget sets. TPOT within 4 %. Bound: the
    // level reached plus a margin.
    if (source == "mlperf-inference-v5.1-llama3.1-8b-cisco-h200" && !throughput) return 0.23;
    // Out of sample: the same GPUStack lab's Qwen3-235B-A22B (MoE, 22B active) on 8 H100 and
    // 8 A100. vLLM's 2K-32K random prompts at TP8 BF16 are within 1-16 % on H100 (32K prompts:
    // TTFT 70.4 s against 68.6 s) and 2-31 % on A100, FP8 TP4 on H100 10-45 % (the model fast).
    // The 1,000-request bursts are not: ShareGPT runs 1.8-2x slower than the model on H100 for
    // vLLM and SGLang, BF16 TP8 and FP8 TP4 alike, and SGLang 1.8x on A100, the pattern of the
    // lab's dense H100 pages (gpustack-qwen3-14b-h100), and the 128-in / 4-out burst's TPOT (three
    // gaps per request, set by which prefills a request waits behind) is 2.4-4x off, as on every
    // page of the lab (37-71 % for the dense models). The page states no clock, power limit or
    // MoE kernel choice that a run field could carry. Bounds: the levels reached plus a margin.
    if (source == "gpustack-qwen3-235b-a22b-h100") return throughput ? 0.56 : 0.52;
    if (source == "gpustack-qwen3-235b-a22b-a100") return throughput ? 0.32 : 0.48;
    // Out of sample: TGI 1.0.3 on SageMaker (g5 and p4d), 5-20 closed-loop users, 50 tokens per
    // request. FP16: median time per token within 1.4 % signed (15.5 % mean), throughput 29 %
    // above measured, most where TP8 spreads a small model (7B on 8 A100: 2x, the measured step,
    // 34-39 ms, slower than 13B's 24-29 ms on the same instance) or 20 users load 8 A10G. GPTQ
    // 4-bit: every configuration runs ~2x slower than the model (throughput +97 %, time per token
    // -27 % signed): TGI 1.0.3 runs 4-bit GPTQ through exllama's kernels (Ex4bitLinear,
    // server/text_generation_server/utils/layers.py @ v1.0.3), which the model prices for the
    // pytorch engine only; its TGI profile prices Marlin, and no run field selects the kernel.
    // TGI has no fitted runs of its own; TensorRT-LLM's factors stand in. Bounds: the levels
    // reached plus a margin.
    if (source == "tgi-1.0.3-sagemaker-llama2") return throughput ? 0.60 : 0.23;
    return 0.15;
}
