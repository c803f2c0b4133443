#!/usr/bin/env python3
"""Fused attention on one GPU through PyTorch's scaled_dot_product_attention, for the model's
fused-attention rate (sim/src/engine/model_constants.h kFlashAttentionFraction*) and its decode
KV reads: causal bf16 prefill attention (head dim 128, 32 heads, ~16k tokens per call) forward
and forward+backward per backend, and one-token decode attention over a KV cache with grouped
query heads (32 query, 8 KV heads). FLOPs follow FlashAttention-2's paper: forward
4*b*h*s^2*d, halved for causal masks; backward 2.5x forward. Prints one JSON document."""
import datetime
import json
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}


def timed(fn, launches=20):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    best = None
    for _ in range(5):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(launches):
            fn()
        stop.record()
        stop.synchronize()
        t = start.elapsed_time(stop) / 1e3 / launches
        best = t if best is None else min(best, t)
    return best


def prefill():
    rows = []
    heads, dim = 32, 128
    for seq in (1024, 2048, 4096, 8192, 16384):
        batch = max(1, 16384 // seq)
        fwd_flops = 4.0 * batch * heads * seq * seq * dim / 2.0
        for name, backend in BACKENDS.items():
            row = {"backend": name, "batch": batch, "heads": heads, "seq": seq, "head_dim": dim,
                   "causal": True, "forward_flops": fwd_flops}
            try:
                q, k, v = (torch.randn(batch, heads, seq, dim, device="cuda", dtype=torch.bfloat16,
                                       requires_grad=True) for _ in range(3))
                with sdpa_kernel(backend):
                    t_fwd = timed(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True))
                    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                    grad = torch.randn_like(out)

                    def step():
                        o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                        o.backward(grad)
                    t_all = timed(step, 10)
                row.update({"forward_s": t_fwd, "forward_tflops": fwd_flops / t_fwd / 1e12,
                            "fwd_bwd_s": t_all, "fwd_bwd_tflops": 3.5 * fwd_flops / t_all / 1e12})
                print(f"prefill {name} seq {seq}: fwd {row['forward_tflops']:.0f}, "
                      f"fwd+bwd {row['fwd_bwd_tflops']:.0f} TFLOP/s", file=sys.stderr)
                del q, k, v, out, grad
            except Exception as e:  # a backend the build or the shape does not support
                row["error"] = str(e).splitlines()[0][:200]
                print(f"prefill {name} seq {seq}: {row['error']}", file=sys.stderr)
            rows.append(row)
            torch.cuda.empty_cache()
    return rows


def decode():
    rows = []
    q_heads, kv_heads, dim = 32, 8, 128
    for batch in (8, 64):
        for context in (1024, 4096, 16384):
            row = {"batch": batch, "q_heads": q_heads, "kv_heads": kv_heads, "head_dim": dim,
                   "context": context, "kv_bytes": 2.0 * batch * kv_heads * context * dim * 2}
            try:
                q = torch.randn(batch, q_heads, 1, dim, device="cuda", dtype=torch.bfloat16)
                k, v = (torch.randn(batch, kv_heads, context, dim, device="cuda", dtype=torch.bfloat16)
                        for _ in range(2))
                t = timed(lambda: F.scaled_dot_product_attention(q, k, v, enable_gqa=True), 50)
                row.update({"time_s": t, "kv_gbytes_per_s": row["kv_bytes"] / t / 1e9})
                print(f"decode batch {batch} context {context}: {t * 1e6:.1f} us, "
                      f"{row['kv_gbytes_per_s']:.0f} GB/s", file=sys.stderr)
                del q, k, v
            except Exception as e:
                row["error"] = str(e).splitlines()[0][:200]
                print(f"decode batch {batch} context {context}: {row['error']}", file=sys.stderr)
            rows.append(row)
            torch.cuda.empty_cache()
    return rows


def main():
    if not torch.cuda.is_available():
        print("torch_attention: no CUDA device visible to PyTorch", file=sys.stderr)
        return 2
    props = torch.cuda.get_device_properties(0)
    doc = {"schema": "clusterplan.torch-attention/1",
           "measured_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "device": {"name": props.name, "multiprocessors": props.multi_processor_count},
           "torch": torch.__version__, "cuda": torch.version.cuda,
           "cudnn": torch.backends.cudnn.version(),
           "timing": "back-to-back calls between two CUDA events, best of 5 loops",
           "prefill": prefill(), "decode": decode()}
    json.dump(doc, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
