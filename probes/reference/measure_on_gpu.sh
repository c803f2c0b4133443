#!/bin/bash
# Measures one GPU host for ClusterPlan: builds clusterplan-probe alone (CLUSTERPLAN_PROBES_ONLY),
# runs `clusterplan-probe all`, then the PyTorch cross-check (torch_reference.py) on the same GPU.
# Usage: probes/reference/measure_on_gpu.sh OUTDIR [PREBUILT_PROBE]
# NCCL and cuBLASLt are taken from the CUDA toolkit, else from PyTorch's NVIDIA wheels.
set -u
out=${1:?usage: measure_on_gpu.sh OUTDIR [PREBUILT_PROBE]}
prebuilt=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"

{
  date -u
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem,power.limit --format=csv
  nvcc --version
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)"
} > "$out/env.txt" 2>&1

# Library folders of PyTorch's NVIDIA wheels (nvidia/<name>/lib and nvidia/cu13/lib layouts).
wheel_dirs=$(python3 - <<'PY' 2>/dev/null
import glob, os, site
roots = site.getsitepackages() + [site.getusersitepackages()]
print(" ".join(sorted({os.path.dirname(p) for r in roots for p in glob.glob(r + "/nvidia/**/lib*.so*", recursive=True)})))
PY
)
nccl_h=$(find /usr/local/cuda/include /usr/include $(for d in $wheel_dirs; do echo "$d/../include"; done) -maxdepth 1 -name nccl.h 2>/dev/null | head -1)
nccl_so=$(find /usr/local/cuda/lib64 /usr/lib/x86_64-linux-gnu $wheel_dirs -maxdepth 1 -name 'libnccl.so*' 2>/dev/null | head -1)
echo "nccl.h: ${nccl_h:-none}; libnccl: ${nccl_so:-none}; wheel libs: $wheel_dirs" >> "$out/env.txt"
export LD_LIBRARY_PATH="$(echo $wheel_dirs | tr ' ' ':')${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

probe=""
if [ -n "$nccl_h" ] && [ -n "$nccl_so" ]; then
  if timeout 120 cmake -S "$root" -B "$root/build/probe" -DCLUSTERPLAN_PROBES_ONLY=ON -DBUILD_TESTING=OFF \
       -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
       -DNCCL_INCLUDE_DIR="$(dirname "$nccl_h")" -DNCCL_LIBRARY="$nccl_so" > "$out/build.log" 2>&1 &&
     timeout 150 cmake --build "$root/build/probe" -j"$(nproc)" >> "$out/build.log" 2>&1; then
    probe="$root/build/probe/probes/clusterplan-probe"
  fi
fi
if [ -z "$probe" ] || [ ! -x "$probe" ]; then
  echo "probe: built here failed or NCCL missing; using the prebuilt binary ${prebuilt:-(none)}" >> "$out/env.txt"
  probe=$prebuilt
fi
echo "probe binary: $probe" >> "$out/env.txt"

# The probe first, on an idle GPU; then the cross-check.
if [ -n "$probe" ]; then
  timeout 270 "$probe" all > "$out/probe_all.txt" 2> "$out/probe_all.log"
  echo "probe exit $?" >> "$out/env.txt"
fi
timeout 150 python3 "$root/probes/reference/torch_reference.py" > "$out/torch_reference.json" 2> "$out/torch_reference.log"
echo "torch_reference exit $?" >> "$out/env.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >> "$out/env.txt" 2>&1
