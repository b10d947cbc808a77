#!/usr/bin/env bash
# Every C++ and CUDA source in the repository is in .clang-format style (DESIGN.md,
# Conventions): clang-format would change nothing. Lists the files it would change.
#   tests/check_format.sh SOURCE_DIR
set -euo pipefail
cd "$1"
command -v clang-format > /dev/null || {
    echo "FAIL: clang-format is not installed (scripts/deps.txt)"
    exit 1
}
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh')
[ "${#files[@]}" -gt 50 ] || {
    echo "FAIL: only ${#files[@]} sources listed; is $1 the repository?"
    exit 1
}
bad=()
for f in "${files[@]}"; do
    clang-format --dry-run -Werror "$f" > /dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -gt 0 ]; then
    echo "FAIL: not in .clang-format style (clang-format -i to fix):"
    printf '  %s\n' "${bad[@]}"
    exit 1
fi
echo "${#files[@]} sources in .clang-format style ($(clang-format --version))"
