#!/usr/bin/env python3
"""The size bars of the product code: no file over MAX_FILE_LINES lines, no function over
MAX_FUNCTION_LINES lines.

Product code is what lives under PRODUCT_DIRS (tests are not product code): its C++ and CUDA
(.cpp, .h, .cu, .cuh) and its Python (.py). Generated files (a GENERATED_MARKERS line among
their first lines) are left out, and so are hidden and __pycache__ folders. Functions and
methods are found by Universal Ctags, each language parsed as itself: C++ and CUDA files as
C++ (kind f, function definitions), Python files as Python (kinds f and m); a function's size
is its first line to its last. Exits 1 listing every file and function over its bar, else 0;
either way it prints the largest file and the largest function with their sizes.

    python3 tests/check_sizes.py REPO_ROOT
"""

import os
import pathlib
import shutil
import subprocess
import sys
from typing import NamedTuple

MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 120
PRODUCT_DIRS = ("app", "core", "ui", "kernels", "runners", "bench", "scripts")
CPP_SUFFIXES = (".cpp", ".h", ".cu", ".cuh")
PY_SUFFIXES = (".py",)
GENERATED_MARKERS = ("@generated", "do not edit", "automatically generated", "auto-generated")
GENERATED_HEAD_LINES = 5
# ctags fields of one tag: name, file, first line, last line (tab-separated).
XFORMAT = "%N\t%F\t%n\t%e"


class Sized(NamedTuple):
    lines: int
    where: str  # FILE or FILE:LINE NAME


def count_lines(path: pathlib.Path) -> int:
    """Lines of a file as `wc -l` counts them, plus a last line without a newline."""
    data = path.read_bytes()
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


def is_generated(path: pathlib.Path) -> bool:
    """Whether a file says it is generated in its first lines."""
    with path.open(encoding="utf-8", errors="replace") as f:
        for _, line in zip(range(GENERATED_HEAD_LINES), f):
            if any(marker in line.lower() for marker in GENERATED_MARKERS):
                return True
    return False


def product_files(root: pathlib.Path) -> list[pathlib.Path]:
    """The product's C++, CUDA and Python files, generated ones left out, sorted."""
    out = []
    for top in PRODUCT_DIRS:
        for dirpath, dirnames, filenames in os.walk(root / top):
            dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != "__pycache__"]
            for name in filenames:
                path = pathlib.Path(dirpath) / name
                if name.endswith(CPP_SUFFIXES + PY_SUFFIXES) and not is_generated(path):
                    out.append(path)
    return sorted(out)


def check_ctags(ctags: str) -> None:
    """Refuses a ctags that is not Universal Ctags (the options below are its own)."""
    version = subprocess.run(
        [ctags, "--version"], capture_output=True, text=True, check=False
    ).stdout
    if "Universal Ctags" not in version:
        sys.exit(f"check_sizes: {ctags} is not Universal Ctags (deb universal-ctags)")


def functions(
    ctags: str, root: pathlib.Path, files: list[pathlib.Path], language: str, kinds: str
) -> list[Sized]:
    """Sizes of the functions ctags finds in `files`, every file parsed as `language`."""
    if not files:
        return []
    cmd = [
        ctags,
        "-x",
        f"--_xformat={XFORMAT}",
        f"--kinds-{language}={kinds}",
        "--fields=+ne",
        f"--language-force={language}",
        "-L",
        "-",
    ]
    names = "".join(f"{p.relative_to(root)}\n" for p in files)
    proc = subprocess.run(cmd, input=names, capture_output=True, text=True, cwd=root, check=False)
    if proc.returncode != 0:
        sys.exit(f"check_sizes: ctags failed on the {language} files: {proc.stderr.strip()}")
    out = []
    for line in proc.stdout.splitlines():
        fields = line.split("\t")
        if len(fields) != 4 or not fields[2].isdigit() or not fields[3].isdigit():
            continue  # a tag without an end line (a declaration ctags could not close)
        name, path, first, last = fields
        out.append(Sized(int(last) - int(first) + 1, f"{path}:{first} {name}"))
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: check_sizes.py REPO_ROOT", file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1]).resolve()
    ctags = shutil.which("ctags")
    if ctags is None:
        sys.exit("check_sizes: ctags not found (deb universal-ctags)")
    check_ctags(ctags)

    files = product_files(root)
    if not files:
        sys.exit(f"check_sizes: no product files under {root}")
    sized_files = [Sized(count_lines(p), str(p.relative_to(root))) for p in files]
    cpp = [p for p in files if p.name.endswith(CPP_SUFFIXES)]
    py = [p for p in files if p.name.endswith(PY_SUFFIXES)]
    sized_functions = functions(ctags, root, cpp, "C++", "f") + functions(
        ctags, root, py, "Python", "fm"
    )

    long_files = sorted((s for s in sized_files if s.lines > MAX_FILE_LINES), reverse=True)
    long_functions = sorted(
        (s for s in sized_functions if s.lines > MAX_FUNCTION_LINES), reverse=True
    )
    for s in long_files:
        print(f"file over {MAX_FILE_LINES} lines: {s.where} ({s.lines} lines)")
    for s in long_functions:
        print(f"function over {MAX_FUNCTION_LINES} lines: {s.where} ({s.lines} lines)")

    largest_file = max(sized_files)
    print(
        f"largest file: {largest_file.where} ({largest_file.lines} lines, bar "
        f"{MAX_FILE_LINES}; {len(sized_files)} files)"
    )
    if sized_functions:
        largest = max(sized_functions)
        print(
            f"largest function: {largest.where} ({largest.lines} lines, bar "
            f"{MAX_FUNCTION_LINES}; {len(sized_functions)} functions)"
        )
    else:
        print("check_sizes: ctags found no functions", file=sys.stderr)
        return 1
    return 1 if long_files or long_functions else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
