#!/usr/bin/env bash
# The GPU check: on a machine with an NVIDIA GPU, nvcc and a Python torch (no Qt, no internet
# needed), builds kernels/ and the engine against that torch, runs the `gpu` test suites and
# prints the throughput of the default vs the batch-invariant kernels for both real models at
# batch 1, 8 and 32 in bfloat16 and float32, then the same rows through transformers on the same
# device (bench/gpu_transformers.py); the transformers runner's checks on the device
# (tests/gpu/runner_gpu_check.py). Designed to finish in under 9 minutes on one GPU.
#
#   scripts/gpu-check.sh                 # PYTHON=python3 by default; the real models are read
#                                        # from .cache/models (scripts/setup fetches them)
#   scripts/gpu-check.sh --stage DIR     # on a Debian machine with the -dev packages: copy the
#                                        # few headers and libraries the engine needs (JSON,
#                                        # PCRE2, utf8proc, OpenSSL) into DIR, for a GPU machine
#                                        # that lacks them; then PROBAUDIT_GPU_STAGE=DIR there.
#   PROBAUDIT_GPU_CHECK_TESTS_ONLY=1 ...  # the build and the `gpu` suites only (a short rerun)
#   PROBAUDIT_GPU_CHECK_DRY=1 scripts/gpu-check.sh   # without a GPU: build and run (suites skip),
#                                        # to check the script itself
#
# A lent GPU machine that takes at most CARRY_MIB (64) of files per call and keeps what earlier
# calls left only while it stays warm (seconds): the real models (about 180 MiB) travel in
# pieces, one call after the other, and the build starts in the background with the first one.
#   scripts/gpu-check.sh --pack          # here: .gpu/ gets the staged libraries, the models as
#                                        # a checksummed gzip tarball cut into pieces that fit
#                                        # beside the working tree, and plan.txt: the calls
#   scripts/gpu-check.sh --device-begin  # there, first call: copy the tree to $WORK (outside
#                                        # the re-sent checkout), start the build (setsid)
#   scripts/gpu-check.sh --device-collect   # there, middle calls: keep this call's piece
#   scripts/gpu-check.sh --device-finish # there, last call: join and verify the models, wait for
#                                        # the build, run the suites and the benchmark; the log
#                                        # also goes to $OUT/gpu-check.log
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PACK="$ROOT/.gpu"
WORK="${PROBAUDIT_GPU_WORK:-/tmp/probaudit-gpu}"

stage() {
    local dest="$1"
    mkdir -p "$dest/include" "$dest/lib" "$dest/share/cmake"
    cp -r /usr/include/nlohmann "$dest/include/"
    cp -r /usr/share/cmake/nlohmann_json "$dest/share/cmake/"
    cp /usr/include/pcre2.h /usr/include/utf8proc.h "$dest/include/"
    cp -r /usr/include/openssl "$dest/include/"
    cp -r /usr/include/x86_64-linux-gnu/openssl/* "$dest/include/openssl/" 2>/dev/null || true
    for lib in libpcre2-8 libutf8proc libcrypto; do
        cp -P /usr/lib/x86_64-linux-gnu/$lib.so* "$dest/lib/"
    done
}

# Pieces of the models tarball: the first shares its call with the staged libraries.
pack() {
    local limit=$(( ${CARRY_MIB:-64} * 1024 * 1024 )) margin=$(( 2 * 1024 * 1024 ))
    [[ -f .cache/models/all-MiniLM-L6-v2/model.safetensors ]] ||
        { echo "gpu-check: no .cache/models (run ./scripts/setup first)"; exit 2; }
    rm -rf "$PACK" && mkdir -p "$PACK"
    stage "$PACK/stage"
    # transformers on that machine reads the GGUF through the pure-Python gguf package, which
    # its image lacks: its wheel travels with the staged libraries (bench/gpu_transformers.py).
    python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$PACK/stage/wheels" \
        "$(awk '$1 == "venv" && $2 ~ /^gguf==/ { print $2 }' scripts/deps.txt)"
    # Only the two models the suites and the benchmarks read (not the -hf conversion).
    tar -C .cache -cf - models/all-MiniLM-L6-v2 models/SmolLM2-135M-Instruct | gzip -1 >"$PACK/models.tar.gz"
    (cd "$PACK" && sha256sum models.tar.gz >models.sha256)
    # What travels with every call: tracked files and untracked ones git does not ignore.
    local tree
    tree=$( { git ls-files -z; git ls-files -z --others --exclude-standard; } |
            xargs -0 stat -c %s 2>/dev/null | awk '{s += $1} END {print s + 0}')
    local room=$(( limit - tree - margin ))
    local staged; staged=$(du -sb "$PACK/stage" | cut -f1)
    local total; total=$(stat -c %s "$PACK/models.tar.gz")
    (( room - staged > 4 * 1024 * 1024 )) || { echo "gpu-check: the tree leaves no room to carry"; exit 2; }
    local offset=0 n=0 size
    while (( offset < total )); do
        size=$(( n == 0 ? room - staged : room ))
        (( size > total - offset )) && size=$(( total - offset ))
        dd if="$PACK/models.tar.gz" of="$PACK/models.part-$n" bs=1M iflag=skip_bytes,count_bytes \
           skip=$offset count=$size status=none
        offset=$(( offset + size )); n=$(( n + 1 ))
    done
    rm "$PACK/models.tar.gz"
    {
        echo "# $n device calls, one right after the other (the machine keeps files only while warm)"
        echo "# working tree $(( tree / 1048576 )) MiB; staged libraries $(( staged / 1048576 )) MiB; models $(( total / 1048576 )) MiB gzipped"
        for (( i = 0; i < n; i++ )); do
            if (( i == 0 )); then
                echo "call 1: carry [\".gpu/stage\", \".gpu/models.sha256\", \".gpu/models.part-0\"]  command: scripts/gpu-check.sh --device-begin"
            elif (( i == n - 1 )); then
                echo "call $(( i + 1 )): carry [\".gpu/models.part-$i\"]  command: scripts/gpu-check.sh --device-finish  timeout_s: 600"
            else
                echo "call $(( i + 1 )): carry [\".gpu/models.part-$i\"]  command: scripts/gpu-check.sh --device-collect"
            fi
        done
    } >"$PACK/plan.txt"
    cat "$PACK/plan.txt"
}

# Each call's pieces go to $WORK/parts, which later calls (re-sending the checkout) leave alone.
collect() {
    mkdir -p "$WORK/parts"
    local p
    for p in "$PACK"/models.part-* "$PACK"/models.sha256; do
        [[ -f "$p" ]] && cp "$p" "$WORK/parts/"
    done
    echo "gpu-check: pieces held: $(cd "$WORK/parts" && printf '%s ' *)"
}

build() {
    local start=$1 gen=(-G "Unix Makefiles") prefix=()
    command -v nvcc >/dev/null || { echo "gpu-check: nvcc not found"; return 2; }
    command -v cmake >/dev/null || { echo "gpu-check: cmake not found"; return 2; }
    command -v ninja >/dev/null && gen=(-G Ninja)
    if [[ -n "${PROBAUDIT_GPU_STAGE:-}" ]]; then
        prefix=(-DCMAKE_PREFIX_PATH="$PROBAUDIT_GPU_STAGE" -DOPENSSL_ROOT_DIR="$PROBAUDIT_GPU_STAGE")
    fi
    local out="$ROOT/build/gpu-check"
    mkdir -p "$ROOT/build"
    cmake -S . -B "$out" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DPROBAUDIT_GPU_CHECK=ON \
          -DPROBAUDIT_WITH_CUDA=ON -DPROBAUDIT_PYTHON="$(command -v "$PY")" "${prefix[@]}" >"$out.configure.log" 2>&1 \
        || { tail -30 "$out.configure.log"; return 1; }
    cmake --build "$out" -j "$(nproc)" >"$out.build.log" 2>&1 || { grep -E "error|Error" "$out.build.log" | head -30; return 1; }
    echo "gpu-check: built in $(( $(date +%s) - start )) s"
}

case "${1:-}" in
--stage)
    dest="${2:?usage: gpu-check.sh --stage DIR}"
    stage "$dest"
    echo "staged into $dest: $(du -sh "$dest" | cut -f1)"
    exit 0 ;;
--pack)
    pack
    exit 0 ;;
--device-begin)
    rm -rf "$WORK" && mkdir -p "$WORK/tree"
    tar -C "$ROOT" --exclude=./build --exclude=./.gpu/models.part-* -cf - . | tar -C "$WORK/tree" -xf -
    collect
    # The build runs on in its own session after this call returns; --device-finish waits for it.
    PROBAUDIT_GPU_STAGE="$WORK/tree/.gpu/stage" setsid nohup "$WORK/tree/scripts/gpu-check.sh" --build-only \
        >"$WORK/build.out" 2>&1 </dev/null &
    echo "gpu-check: build started in the background in $WORK/tree"
    exit 0 ;;
--device-collect)
    collect
    tail -2 "$WORK/build.out" 2>/dev/null || true
    exit 0 ;;
--device-finish)
    collect
    log="${OUT:-$WORK}/gpu-check.log"
    : >"$WORK/models.tar.gz"
    i=0
    while [[ -f "$WORK/parts/models.part-$i" ]]; do
        cat "$WORK/parts/models.part-$i" >>"$WORK/models.tar.gz"
        i=$(( i + 1 ))
    done
    (cd "$WORK" && cp parts/models.sha256 . && sha256sum -c models.sha256) ||
        { echo "gpu-check: the models did not arrive whole (pieces 0..$(( i - 1 )) joined)"; exit 2; }
    mkdir -p "$WORK/tree/.cache" && tar -C "$WORK/tree/.cache" -xzf "$WORK/models.tar.gz"
    for (( waited = 0; waited < 540; waited += 5 )); do
        [[ -f "$WORK/build.rc" ]] && break
        sleep 5
    done
    [[ -f "$WORK/build.rc" ]] || { echo "gpu-check: the background build did not finish"; tail -20 "$WORK/build.out"; exit 1; }
    cat "$WORK/build.out"
    [[ "$(cat "$WORK/build.rc")" == 0 ]] || exit 1
    rc=0
    PROBAUDIT_GPU_STAGE="$WORK/tree/.gpu/stage" "$WORK/tree/scripts/gpu-check.sh" 2>&1 | tee "$log" || rc=$?
    # The build, sanitizer and other logs come back too.
    if [[ -n "${OUT:-}" ]]; then
        cp "$WORK/tree/build/"gpu-check.*.log "$OUT/" 2>/dev/null || true
    fi
    exit $rc ;;
esac

start=$(date +%s)
PY="${PYTHON:-python3}"
if [[ -n "${PROBAUDIT_GPU_STAGE:-}" ]]; then
    export LD_LIBRARY_PATH="$PROBAUDIT_GPU_STAGE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
if [[ "${1:-}" == "--build-only" ]]; then
    rc=0
    build "$start" || rc=$?
    echo "$rc" >"$WORK/build.rc"
    exit $rc
fi
if "$PY" - <<'PY'
import torch, sys
print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, "
      f"device: {torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'none'}")
sys.exit(0 if torch.cuda.is_available() else 3)
PY
then
    export PROBAUDIT_REQUIRE_GPU=1 # a suite that finds no device fails rather than skips
elif [[ -n "${PROBAUDIT_GPU_CHECK_DRY:-}" ]]; then
    echo "gpu-check: no usable GPU; PROBAUDIT_GPU_CHECK_DRY set, so building and running anyway (suites skip)"
else
    echo "gpu-check: no usable CUDA device"; exit 3
fi
build "$start" || exit 1

status=0
(cd build/gpu-check && ctest -L gpu --no-tests=error --verbose --timeout 400) || status=1
echo "gpu-check: tests done at $(( $(date +%s) - start )) s"
if [[ -n "${PROBAUDIT_GPU_CHECK_TESTS_ONLY:-}" ]]; then # a rerun of the suites alone
    exit $status
fi
# The transformers runner on the device, driven over its protocol (no Qt there).
PYTHONUNBUFFERED=1 "$PY" tests/gpu/runner_gpu_check.py || status=1
echo "gpu-check: runner check done at $(( $(date +%s) - start )) s"
build/gpu-check/bin/gpu_bench --reps 3 --items 256 | tee build/gpu-check.bench.txt || status=1
echo "gpu-check: benchmark done at $(( $(date +%s) - start )) s"
# The same rows through transformers on the same device, with the engine's ratio.
"$PY" bench/gpu_transformers.py --reps 3 --items 256 --engine build/gpu-check.bench.txt || status=1
echo "gpu-check: transformers benchmark done at $(( $(date +%s) - start )) s"
# The kernel suite once more under compute-sanitizer (stray writes, shared-memory races).
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
if [[ -n "$sanitizer" && -n "${PROBAUDIT_REQUIRE_GPU:-}" ]]; then
    for tool in memcheck racecheck; do
        if timeout 90 "$sanitizer" --tool "$tool" --error-exitcode 9 \
            build/gpu-check/bin/test_kernels_gpu >"build/gpu-check.$tool.log" 2>&1; then
            echo "gpu-check: $tool clean"
        else
            status=1
            echo "gpu-check: $tool found errors:"
            tail -25 "build/gpu-check.$tool.log"
        fi
    done
    echo "gpu-check: sanitizers done at $(( $(date +%s) - start )) s"
fi
echo "gpu-check: done in $(( $(date +%s) - start )) s (status $status)"
exit $status
