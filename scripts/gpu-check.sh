#!/usr/bin/env bash
# The GPU check: on a machine with an NVIDIA GPU, nvcc and a Python torch (no Qt, no internet
# needed), builds kernels/ and the engine against that torch, runs the `gpu` test suites and
# prints the throughput of the default vs the batch-invariant kernels for both real models at
# batch 1, 8 and 32 in bfloat16 and float32. Designed to finish in under 8 minutes on one GPU.
#
#   scripts/gpu-check.sh                 # PYTHON=python3 by default; the real models are read
#                                        # from .cache/models (scripts/setup fetches them)
#   scripts/gpu-check.sh --stage DIR     # on a Debian machine with the -dev packages: copy the
#                                        # few headers and libraries the engine needs (JSON,
#                                        # PCRE2, utf8proc, OpenSSL) into DIR, for a GPU machine
#                                        # that lacks them; then PROBAUDIT_GPU_STAGE=DIR there.
#   PROBAUDIT_GPU_CHECK_DRY=1 scripts/gpu-check.sh   # without a GPU: build and run (suites skip),
#                                        # to check the script itself
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"

if [[ "${1:-}" == "--stage" ]]; then
    dest="${2:?usage: gpu-check.sh --stage DIR}"
    mkdir -p "$dest/include" "$dest/lib" "$dest/share/cmake"
    cp -r /usr/include/nlohmann "$dest/include/"
    cp -r /usr/share/cmake/nlohmann_json "$dest/share/cmake/"
    cp /usr/include/pcre2.h /usr/include/utf8proc.h "$dest/include/"
    cp -r /usr/include/openssl "$dest/include/"
    cp -r /usr/include/x86_64-linux-gnu/openssl/* "$dest/include/openssl/" 2>/dev/null || true
    for lib in libpcre2-8 libutf8proc libcrypto; do
        cp -P /usr/lib/x86_64-linux-gnu/$lib.so* "$dest/lib/"
    done
    echo "staged into $dest: $(du -sh "$dest" | cut -f1)"
    exit 0
fi

start=$(date +%s)
PY="${PYTHON:-python3}"
if "$PY" - <<'PY'
import torch, sys
print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, "
      f"device: {torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'none'}")
sys.exit(0 if torch.cuda.is_available() else 3)
PY
then :; elif [[ -n "${PROBAUDIT_GPU_CHECK_DRY:-}" ]]; then
    echo "gpu-check: no usable GPU; PROBAUDIT_GPU_CHECK_DRY set, so building and running anyway (suites skip)"
else
    echo "gpu-check: no usable CUDA device"; exit 3
fi
command -v nvcc >/dev/null || { echo "gpu-check: nvcc not found"; exit 2; }
command -v cmake >/dev/null || { echo "gpu-check: cmake not found"; exit 2; }
gen=(-G "Unix Makefiles")
command -v ninja >/dev/null && gen=(-G Ninja)
prefix=()
if [[ -n "${PROBAUDIT_GPU_STAGE:-}" ]]; then
    prefix=(-DCMAKE_PREFIX_PATH="$PROBAUDIT_GPU_STAGE" -DOPENSSL_ROOT_DIR="$PROBAUDIT_GPU_STAGE")
    export LD_LIBRARY_PATH="$PROBAUDIT_GPU_STAGE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
build="$ROOT/build/gpu-check"
cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DPROBAUDIT_GPU_CHECK=ON \
      -DPROBAUDIT_WITH_CUDA=ON -DPROBAUDIT_PYTHON="$(command -v "$PY")" "${prefix[@]}" >"$build.configure.log" 2>&1 \
    || { tail -30 "$build.configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" >"$build.build.log" 2>&1 || { grep -E "error|Error" "$build.build.log" | head -30; exit 1; }
echo "gpu-check: built in $(( $(date +%s) - start )) s"

status=0
(cd "$build" && ctest -L gpu --output-on-failure --timeout 400) || status=1
echo "gpu-check: tests done at $(( $(date +%s) - start )) s"
"$build/bin/gpu_bench" --reps 3 --items 256 || status=1
echo "gpu-check: done in $(( $(date +%s) - start )) s (status $status)"
exit $status
