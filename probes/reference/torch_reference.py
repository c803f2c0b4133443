#!/usr/bin/env python3
"""Cross-check for clusterplan-probe on the same GPU through PyTorch (cuBLAS and the copy engine
or kernels PyTorch picks): bf16 GEMMs (8192^3 and the probe's transformer shapes) and a
device-to-device tensor copy. Prints one JSON document on stdout.

Conventions match the probe's (probes/schema/clusterplan.probe-1.md): FLOPs = 2*m*n*k, copy
bytes = bytes read + bytes written. Inputs are random normal (zeros run faster and hide work),
several input sets rotate so that no timed call finds its operands in L2, each call is timed with
CUDA events after warm-up, and every measurement is taken twice so the spread can be read."""
import datetime
import json
import statistics
import sys

import torch

SHAPES = [(8192, 8192, 8192, "square"), (8192, 12288, 4096, "qkv h=4096"),
          (8192, 4096, 4096, "attn-out h=4096"), (8192, 16384, 4096, "mlp-up h=4096"),
          (8192, 4096, 16384, "mlp-down h=4096"), (8192, 24576, 8192, "qkv h=8192"),
          (8192, 8192, 32768, "mlp-down h=8192")]


def timed_calls(fn, warmup, timed):
    for _ in range(warmup):
        fn(0)
    torch.cuda.synchronize()
    times_s = []
    for i in range(timed):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn(i)
        stop.record()
        stop.synchronize()
        times_s.append(start.elapsed_time(stop) / 1e3)
    # min_s is the probe's statistic (best of the timed calls); the median is PyTorch users'.
    return {"median_s": statistics.median(times_s), "mean_s": statistics.fmean(times_s),
            "min_s": min(times_s), "max_s": max(times_s), "calls": timed}


def gemm(m, n, k, dtype, sets=3):
    # Layout TN as the probe's cuBLASLt call: C[m,n] = A[m,k] . B[n,k]^T.
    a = [torch.randn(m, k, device="cuda", dtype=dtype) for _ in range(sets)]
    b = [torch.randn(n, k, device="cuda", dtype=dtype) for _ in range(sets)]
    out = torch.empty(m, n, device="cuda", dtype=dtype)
    stats = timed_calls(lambda i: torch.matmul(a[i % sets], b[i % sets].t(), out=out), 20, 100)
    stats["tflops_median"] = 2.0 * m * n * k / stats["median_s"] / 1e12
    stats["tflops_mean"] = 2.0 * m * n * k / stats["mean_s"] / 1e12
    stats["tflops_best"] = 2.0 * m * n * k / stats["min_s"] / 1e12
    del a, b, out
    torch.cuda.empty_cache()
    return stats


def copy_d2d(total_bytes):
    src = torch.randint(0, 255, (total_bytes,), device="cuda", dtype=torch.uint8)
    dst = torch.empty_like(src)
    stats = timed_calls(lambda i: dst.copy_(src), 5, 30)
    moved = 2.0 * total_bytes
    stats["bytes"] = moved
    stats["gbytes_per_s_median"] = moved / stats["median_s"] / 1e9
    stats["gbytes_per_s_mean"] = moved / stats["mean_s"] / 1e9
    stats["gbytes_per_s_best"] = moved / stats["min_s"] / 1e9
    del src, dst
    torch.cuda.empty_cache()
    return stats


def main():
    if not torch.cuda.is_available():
        print("torch_reference: no CUDA device visible to PyTorch", file=sys.stderr)
        return 2
    props = torch.cuda.get_device_properties(0)
    doc = {"schema": "clusterplan.torch-reference/1",
           "measured_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "device": {"name": props.name, "total_memory_bytes": props.total_memory,
                      "multiprocessors": props.multi_processor_count,
                      "l2_bytes": getattr(props, "L2_cache_size", None)},
           "torch": torch.__version__, "cuda": torch.version.cuda,
           "cublas_note": "torch.matmul on bf16 tensors (cuBLAS / cuBLASLt default heuristic)",
           "gemm_bf16": [], "copy_d2d": []}
    for repeat in range(2):
        for m, n, k, label in SHAPES:
            row = {"m": m, "n": n, "k": k, "label": label, "repeat": repeat}
            row.update(gemm(m, n, k, torch.bfloat16))
            doc["gemm_bf16"].append(row)
            print(f"gemm bf16 {m}x{n}x{k} {label}: {row['tflops_median']:.1f} TFLOP/s", file=sys.stderr)
        # The probe's membw array sizes: a copy's fixed start and drain cost shrinks with size.
        for array_bytes in (256 << 20, 1 << 30, 4 << 30):
            row = {"array_bytes": array_bytes, "repeat": repeat}
            row.update(copy_d2d(array_bytes))
            doc["copy_d2d"].append(row)
            print(f"copy d2d {array_bytes >> 20} MiB: {row['gbytes_per_s_median']:.0f} GB/s",
                  file=sys.stderr)
    json.dump(doc, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
