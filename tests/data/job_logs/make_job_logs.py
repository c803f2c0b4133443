#!/usr/bin/env python3
"""Writes the job-log fixtures: each in the line format its framework prints, with the first
steps slow (allocator, autotuning, compilation) and +-3 % deterministic jitter afterwards.
Run from this folder; the files are committed, this script documents how they were made."""
import math

def jitter(i):
    # deterministic, zero-mean-ish noise in [-0.03, 0.03]
    return 0.03 * math.sin(i * 2.399963)

def warm(i, n_slow=3):
    return [3.0, 1.6, 1.15][i] if i < n_slow else 1.0

def megatron(path, step_s, gb, iters=40, interval=10, start=0, batch=None):
    lines = ["using world size: 8, data-parallel size: 8, tensor-model-parallel size: 1, pipeline-model-parallel size: 1",
             "> building GPT model ...", "[after dataloaders are built] datetime: 2026-10-02 09:14:03",
             "training ..."]
    for k in range(iters):
        it = start + (k + 1) * interval
        t_ms = step_s * warm(k) * (1 + jitter(k)) * 1000
        g = batch[k] if batch else gb
        lines.append(f" [2026-10-02 09:{14 + k // 6:02d}:{(k * 9) % 60:02d}] iteration {it:8d}/  143051 | "
                     f"consumed samples: {it * g:12d} | elapsed time per iteration (ms): {t_ms:.1f} | "
                     f"throughput per GPU (TFLOP/s/GPU): {150.0 / warm(k):.1f} | learning rate: 1.999E-04 | "
                     f"global batch size: {g:5d} | lm loss: {9.5 - 0.05 * k:.6E} | loss scale: 1.0 | "
                     f"grad norm: 1.234 | number of skipped iterations:   0 | number of nan iterations:   0 |")
    open(path, "w").write("\n".join(lines) + "\n")

megatron("megatron_gpt3_1p3b_p4d.log", 7.40, 512)
megatron("mixed_runs.log", 7.40, 512, iters=12)
with open("mixed_runs.log", "a") as f:  # a second run appended (restart from iteration 10)
    f.write(open("megatron_gpt3_1p3b_p4d.log").read().split("training ...\n")[1])
megatron("batch_rampup.log", 7.40, 512, iters=12, batch=[256] * 4 + [512] * 8)

# NeMo (PyTorch Lightning progress + metrics)
lines = ["[NeMo I 2026-10-02 10:00:00 exp_manager:396] Experiments will be logged at /results"]
for k in range(30):
    t = 2.93 * warm(k) * (1 + jitter(k))
    lines.append(f"Epoch 0: :   {k}%| | {k + 1}/3000 [00:{k:02d}<51:20, reduced_train_loss={9.8 - 0.01 * k:.3f}, "
                 f"global_step={k:.3f}, consumed_samples={(k + 1) * 512:.1f}, train_step_timing in s={t:.3f}]")
open("nemo_llama2_7b.log", "w").write("\n".join(lines) + "\n")

# DeepSpeed ThroughputTimer (global samples per second)
lines = ["[2026-10-02 11:00:00,001] [INFO] [config.py:1000:print] train_batch_size ............. 256"]
for k in range(25):
    sps = 212.3 / (warm(k) * (1 + jitter(k)))
    lines.append(f"[2026-10-02 11:00:{k:02d},123] [INFO] [timer.py:260:stop] epoch=0/micro_step={(k + 1) * 4}/"
                 f"global_step={k + 1}, RunningAvgSamplesPerSec={sps * 0.98:.3f}, CurrSamplesPerSec={sps:.3f}, "
                 f"MemAllocated=12.3GB, MaxMemAllocated=20.1GB")
open("deepspeed_bert_large.log", "w").write("\n".join(lines) + "\n")

# torchtitan (coloured metrics line, tps per device)
lines = ["[rank0]:[titan] 2026-10-02 12:00:00,000 - root - INFO - Training starts at step 1."]
for k in range(30):
    tps = 5432 / (warm(k) * (1 + jitter(k)))
    lines.append(f"[rank0]:[titan] 2026-10-02 12:00:{k:02d},000 - root - INFO - \x1b[31mstep: {k + 1:2d}  "
                 f"\x1b[32mloss: {8.0 - 0.02 * k:7.4f}  \x1b[33mmemory: 31.22GiB(39.49%)  "
                 f"\x1b[34mtps: {int(tps):,}  \x1b[35mtflops: 253.24  \x1b[39mmfu: 25.61%\x1b[39m")
open("torchtitan_llama3_8b.log", "w").write("\n".join(lines) + "\n")

# Hugging Face Trainer: tqdm redraws with carriage returns, per-step dicts, closing metrics
bar = []
for k in range(60):
    s_it = 1.84 * warm(k) * (1 + jitter(k))
    bar.append(f"{100 * (k + 1) // 600:3d}%|#         | {k + 1}/600 [00:{k:02d}<18:00, {s_it:5.2f}s/it]")
text = "***** Running training *****\n  Num examples = 50000\n" + "\r".join(bar) + "\n"
text += "{'loss': 1.2345, 'grad_norm': 0.5, 'learning_rate': 1.9e-05, 'epoch': 0.1}\n"
open("hf_trainer_tqdm.log", "w").write(text)
open("hf_trainer_summary_only.log", "w").write(
    "{'train_runtime': 1104.2, 'train_samples_per_second': 8.69, 'train_steps_per_second': 0.543, "
    "'train_loss': 1.21, 'epoch': 3.0}\n")

# Generic CSV (PyTorch Lightning CSVLogger export or a custom loop)
rows = ["step,step_time_s,loss"] + [f"{k + 1},{0.412 * warm(k) * (1 + jitter(k)):.4f},{3.0 - 0.01 * k:.3f}"
                                     for k in range(50)]
open("steps.csv", "w").write("\n".join(rows) + "\n")

open("no_steps.log", "w").write("> building GPT model ...\ntraining ...\n[after training is done]\n")
mixed = open("megatron_gpt3_1p3b_p4d.log").read().splitlines()[:10] + open("nemo_llama2_7b.log").read().splitlines()[1:5]
open("mixed_formats.log", "w").write("\n".join(mixed) + "\n")
open("negative_time.csv", "w").write("step,step_time_s\n1,0.5\n2,-0.4\n3,0.5\n4,0.5\n")
