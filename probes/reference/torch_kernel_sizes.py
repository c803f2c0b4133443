#!/usr/bin/env python3
"""Memory-bound kernels by size on one GPU through PyTorch, for the model's HBM size curve
(sim/src/engine/model_constants.h kHbmSizeCurve) and its decode steps: device copies from 64 KiB
to 1 GiB, and decode-shaped bf16 GEMMs (a few token rows times a layer's weight matrix), each
timed as many back-to-back launches between two CUDA events, as a step runs them. Weights rotate
over enough distinct matrices that each launch reads its operand from HBM, not L2. Prints one
JSON document on stdout."""
import datetime
import json
import sys

import torch

L2_ROTATION_BYTES = 1 << 30  # distinct operands per timed loop: many times any GPU's L2


def loop_time_s(fn, count, launches):
    """Seconds per launch of `launches` back-to-back calls, fn(i) picking operand set i % count."""
    for i in range(min(count, 20)):
        fn(i)
    torch.cuda.synchronize()
    best = None
    for _ in range(5):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for i in range(launches):
            fn(i % count)
        stop.record()
        stop.synchronize()
        t = start.elapsed_time(stop) / 1e3 / launches
        best = t if best is None else min(best, t)
    return best


def graph_time_s(fn, count, launches):
    """The same loop captured once in a CUDA graph and replayed: device time without host launches."""
    launches = min(launches, 400)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        for i in range(3):
            fn(i % count)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for i in range(launches):
            fn(i % count)
    graph.replay()
    torch.cuda.synchronize()
    best = None
    for _ in range(5):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        stop.record()
        stop.synchronize()
        t = start.elapsed_time(stop) / 1e3 / launches
        best = t if best is None else min(best, t)
    del graph
    return best


def copies():
    rows = []
    for shift in range(16, 31, 2):  # 64 KiB .. 1 GiB per copy
        size = 1 << shift
        count = max(2, min(64, L2_ROTATION_BYTES // size))
        src = [torch.randint(0, 255, (size,), device="cuda", dtype=torch.uint8) for _ in range(count)]
        dst = [torch.empty_like(s) for s in src]
        fn = lambda i: dst[i].copy_(src[i])
        launches = max(20, min(2000, (1 << 34) // size))
        t = loop_time_s(fn, count, launches)
        tg = graph_time_s(fn, count, launches)
        rows.append({"array_bytes": size, "bytes_moved": 2 * size, "time_s": t,
                     "gbytes_per_s": 2 * size / t / 1e9, "graph_time_s": tg,
                     "graph_gbytes_per_s": 2 * size / tg / 1e9})
        print(f"copy {size >> 10} KiB: {rows[-1]['gbytes_per_s']:.0f} GB/s eager, "
              f"{rows[-1]['graph_gbytes_per_s']:.0f} in a graph", file=sys.stderr)
        del src, dst
        torch.cuda.empty_cache()
    return rows


# (label, k, n): a layer's weight matrices, x[tokens, k] @ W[k, n]. Llama 3 8B and 70B at TP 8.
DECODE_SHAPES = [("8b qkv", 4096, 6144), ("8b o", 4096, 4096), ("8b gate_up", 4096, 28672),
                 ("8b down", 14336, 4096), ("70b/tp8 qkv", 8192, 1280), ("70b/tp8 o", 1024, 8192),
                 ("70b/tp8 gate_up", 8192, 7168), ("70b/tp8 down", 3584, 8192)]


def decode_gemms():
    rows = []
    for label, k, n in DECODE_SHAPES:
        weight_bytes = 2 * k * n
        count = max(2, min(64, L2_ROTATION_BYTES // weight_bytes))
        w = [torch.randn(n, k, device="cuda", dtype=torch.bfloat16) for _ in range(count)]
        for tokens in (1, 8, 32, 128):
            x = torch.randn(tokens, k, device="cuda", dtype=torch.bfloat16)
            out = torch.empty(tokens, n, device="cuda", dtype=torch.bfloat16)
            fn = lambda i: torch.matmul(x, w[i].t(), out=out)
            t = loop_time_s(fn, count, 400)
            tg = graph_time_s(fn, count, 400)
            moved = weight_bytes + 2 * tokens * (k + n)
            rows.append({"label": label, "k": k, "n": n, "tokens": tokens, "weight_bytes": weight_bytes,
                         "bytes_moved": moved, "time_s": t, "gbytes_per_s": moved / t / 1e9,
                         "graph_time_s": tg, "graph_gbytes_per_s": moved / tg / 1e9,
                         "tflops": 2 * tokens * k * n / tg / 1e12})
            print(f"{label} tokens {tokens}: {rows[-1]['gbytes_per_s']:.0f} GB/s eager "
                  f"{t * 1e6:.1f} us, graph {tg * 1e6:.1f} us", file=sys.stderr)
        del w
        torch.cuda.empty_cache()
    return rows


def main():
    if not torch.cuda.is_available():
        print("torch_kernel_sizes: no CUDA device visible to PyTorch", file=sys.stderr)
        return 2
    props = torch.cuda.get_device_properties(0)
    doc = {"schema": "clusterplan.torch-kernel-sizes/1",
           "measured_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
           "device": {"name": props.name, "multiprocessors": props.multi_processor_count,
                      "l2_bytes": getattr(props, "L2_cache_size", None)},
           "torch": torch.__version__, "cuda": torch.version.cuda,
           "timing": "back-to-back launches between two CUDA events, best of 5 loops; bytes read + written",
           "copies": copies(), "decode_gemms": decode_gemms()}
    json.dump(doc, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
