#!/usr/bin/env bash
# Two builds of the engine, bit for bit: a change meant to keep numerics (a faster default path,
# issue #28) must leave every record, with every layer's hash, as it was. Runs `probaudit score`
# of both builds over the same items under each config below, on the llama-family models (both
# SmolLM2 checkpoints and the tiny llama and Qwen3 fixtures: RMSNorm, rotary, grouped and
# qk-normed attention, SwiGLU) and on all-MiniLM-L6-v2, with --capture hashes, and compares the
# per-item records byte for byte. (tests/behaviour covers the BERT path against golden files.)
#
#     bench/same_bits.sh OLD_PROBAUDIT NEW_PROBAUDIT      exit 0: every record identical
#
# Build OLD from the commit before the change, e.g.
#     git worktree add /tmp/old HEAD~1 && (cd /tmp/old && ./scripts/build)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
    echo "usage: bench/same_bits.sh OLD_PROBAUDIT NEW_PROBAUDIT (two executables)" >&2
    exit 2
fi
old=$1
new=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
items=resources/demo/sentiment-sentences/yelp.jsonl
smollm=$(.venv/bin/python -c 'import json, sys; sys.path.insert(0, "tests/golden")
from make_golden import SMOLLM_TEMPLATE as t
print(json.dumps({"kind": "label_tokens", "template": t, "labels": ["No", "Yes"]}))')
tiny='{"kind":"label_tokens","template":"Review: {text}\nSentiment:","labels":["a","b"]}'
minilm='{"kind":"adapter","path":"tests/fixtures/adapters/all-MiniLM-L6-v2-mean.safetensors"}'
configs=('{"batch_size":1}'
    '{"batch_size":8,"padding_side":"left"}'
    '{"batch_size":8,"padding_side":"left","attention":"sdpa","threads":2}'
    '{"batch_size":1,"attention":"sdpa"}'
    '{"batch_size":4,"padding_side":"right","dtype":"bfloat16"}'
    '{"batch_size":8,"padding_side":"left","pad_to":"fixed","pad_to_n":96,"attention":"sdpa"}'
    '{"batch_size":8,"padding_side":"left","kernels":"batch_invariant"}'
    '{"batch_size":4,"padding_side":"right","dtype":"bfloat16","kernels":"batch_invariant"}')
models=(.cache/models/SmolLM2-135M-Instruct/SmolLM2-135M-Instruct.Q4_1.gguf
    .cache/models/SmolLM2-135M-Instruct-hf tests/fixtures/tiny-llama tests/fixtures/tiny-qwen3
    .cache/models/all-MiniLM-L6-v2)
heads=("$smollm" "$smollm" "$tiny" "$tiny" "$minilm")
limits=(24 24 64 64 64)
n=0
differ=0
for i in "${!models[@]}"; do
    model=${models[$i]}
    head=${heads[$i]}
    limit=${limits[$i]}
    for cfg in "${configs[@]}"; do
        for side in old new; do
            exe=$old
            [ "$side" = new ] && exe=$new
            if ! "$exe" score "$model" --head "$head" --input "$items" --limit "$limit" \
                --config "$cfg" --capture hashes --output "$out/$n.$side.jsonl" \
                >"$out/$n.$side.log" 2>&1; then
                echo "same_bits: the $side build failed on $model $cfg: $(tail -1 "$out/$n.$side.log")" >&2
                exit 2
            fi
        done
        if cmp -s "$out/$n.old.jsonl" "$out/$n.new.jsonl"; then
            echo "same   $(wc -l <"$out/$n.old.jsonl") records  $model $cfg"
        else
            echo "DIFFER $model $cfg"
            differ=$((differ + 1))
        fi
        n=$((n + 1))
    done
done
echo "same_bits: $((n - differ)) of $n runs identical"
[ "$differ" -eq 0 ]
