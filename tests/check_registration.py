#!/usr/bin/env python3
"""Every Qt Test slot of a suite that CTest runs with a list of function names (ARGS in
tests/CMakeLists.txt, or a COMMAND naming functions) must appear in one of those lists;
otherwise a new test compiles, passes locally, and CI never runs it.

    python3 tests/check_registration.py tests
"""

import pathlib
import re
import sys

SPECIAL = {"initTestCase", "cleanupTestCase", "init", "cleanup"}


def calls(cmake: str) -> list[tuple[str, list[str] | None]]:
    """(suite, [function names]) for every registration that names functions."""
    text = re.sub(r"#[^\n]*", "", cmake)
    out = []
    for m in re.finditer(r"probaudit_add_test\(\s*(\w+)(.*?)\)", text, re.S):
        args = re.search(r"\bARGS\b(.*)$", m.group(2), re.S)
        out.append((m.group(1), args.group(1).split() if args else None))
    for m in re.finditer(r"add_test\(\s*NAME\s+\S+\s+COMMAND\s+(\w+)([^)]*)\)", text, re.S):
        out.append((m.group(1), m.group(2).split()))
    return out


def slots(source: str) -> list[str]:
    body = source.split("Q_SLOTS:", 1)
    if len(body) < 2:
        return []
    names = re.findall(r"^\s*void\s+(\w+)\s*\(\s*\)", body[1], re.M)
    return [n for n in names if n not in SPECIAL and not n.endswith("_data")]


def main(folder: str | pathlib.Path) -> int:
    folder = pathlib.Path(folder)
    registered = {}
    for suite, fns in calls((folder / "CMakeLists.txt").read_text()):
        registered.setdefault(suite, set())
        if fns is None:
            registered[suite] = None  # runs every function
        elif registered[suite] is not None:
            registered[suite].update(fns)
    missing = []
    for suite, fns in sorted(registered.items()):
        src = folder / f"{suite}.cpp"
        if fns is None or not src.exists():
            continue
        for name in slots(src.read_text()):
            if name not in fns:
                missing.append(f"{suite}::{name}")
    for m in missing:
        print(f"not run by ctest: {m} (add it to an ARGS list or an add_test COMMAND)")
    print(
        f"checked {sum(1 for v in registered.values() if v is not None)} suites that name their "
        "functions"
    )
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "tests"))
