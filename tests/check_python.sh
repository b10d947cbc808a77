#!/usr/bin/env bash
# Every Python file of the repository (runners/python, bench, tests, scripts: ruff.toml's
# include) passes `ruff check` (pycodestyle, pyflakes, import order, bugbear, pyupgrade, type
# hints on functions) and is in `ruff format` style: ruff would change nothing. The ruff is the
# one pinned in scripts/deps.txt, in .venv.
#   tests/check_python.sh SOURCE_DIR
set -euo pipefail
cd "$1"
ruff=.venv/bin/ruff
[ -x "$ruff" ] || {
    echo "FAIL: $1/$ruff is missing (scripts/setup installs the ruff pinned in scripts/deps.txt)"
    exit 1
}
files=$("$ruff" check --no-cache --show-files 2>/dev/null | grep -c '\.py$' || true)
if [ ! -f ruff.toml ] || [ "$files" -le 20 ]; then
    echo "FAIL: no ruff.toml, or only $files Python files, in $1; is it the repository?"
    exit 1
fi
status=0
"$ruff" check --no-cache --quiet || {
    echo "FAIL: ruff check found the problems above (ruff check --fix fixes those marked [*])"
    status=1
}
"$ruff" format --no-cache --check --quiet || {
    echo "FAIL: not in ruff format style, as shown above (.venv/bin/ruff format fixes it)"
    status=1
}
[ "$status" -eq 0 ] || exit 1
echo "$files Python files pass ruff check and are in ruff format style ($("$ruff" --version))"
