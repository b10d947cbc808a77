"""probaudit_lock.check (python/probaudit_lock) agrees with `probaudit check` on three locks.

A transformers-runner run of tiny BERT (the repo's fixture) is pinned; then three locks are
checked both ways in the same environment (.venv's Python, the lock's thread count set): the
lock as pinned (identical), the lock with a numerics variable the environment lacks (a changed
variable), the lock with a kernel library this environment does not have (a missing kernel
library). Both must name the same differences and give the same verdict (probaudit check's exit
code 0 or 3; probaudit_lock: identical, a ProbauditLockWarning, or with strict=True a
ProbauditLockError). The package must also install with pip from the repository.

Usage: test_probaudit_lock.py PROBAUDIT
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "probaudit_lock"
FIXTURES = ROOT / "tests" / "fixtures"

LOADER = """
import json, sys, warnings
import torch
torch.set_num_threads(int(sys.argv[2]))
import probaudit_lock
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    r = probaudit_lock.check(sys.argv[1])
try:
    probaudit_lock.check(sys.argv[1], strict=True)
    strict = "passed"
except probaudit_lock.ProbauditLockError:
    strict = "raised"
print(json.dumps({"paths": sorted(d.path for d in r.differences if d.moves_numerics),
                  "exit": r.exit_code,
                  "warned": [issubclass(w.category, probaudit_lock.ProbauditLockWarning)
                             for w in caught],
                  "strict": strict}))
"""


def cli(probaudit: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [probaudit, *args], capture_output=True, text=True, timeout=900, env=os.environ.copy()
    )


def pinned_lock(probaudit: str, d: Path) -> Path:
    lines = [json.dumps({"id": f"i{i}", "text": f"a fine meal number {i}"}) for i in range(4)]
    (d / "data.jsonl").write_text("\n".join(lines) + "\n")
    study = {
        "name": "lock",
        "model": {"path": str(FIXTURES / "tiny-bert")},
        "heads": {"h": {"kind": "classifier"}},
        "dataset": {"path": "data.jsonl"},
        "environments": {"venv": {"python": sys.executable}},
        "configs": {"t": {"runner": "transformers", "env": "venv", "threads": 1}},
        "reference": "t",
    }
    (d / "s.study.json").write_text(json.dumps(study))
    r = cli(probaudit, "run", str(d / "s.study.json"), "--all", "--ledger", str(d / "l.db"))
    assert r.returncode == 0, r.stderr
    lock = d / "identical.lock.json"
    r = cli(
        probaudit,
        "pin",
        str(d / "s.study.json"),
        "--ledger",
        str(d / "l.db"),
        "--run",
        "1",
        "-o",
        str(lock),
        "--sample",
        "2",
    )
    assert r.returncode == 0, r.stderr
    return lock


def variants(lock: Path) -> dict:
    doc = json.loads(lock.read_text())
    changed = json.loads(json.dumps(doc))
    changed["environment"]["env"]["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
    missing = json.loads(json.dumps(doc))
    assert missing["environment"]["kernel_libraries"]["flash-attn"] == "", "flash-attn is here"
    missing["environment"]["kernel_libraries"]["flash-attn"] = "2.7.4"
    out = {"identical": lock}
    for name, d in (("changed variable", changed), ("missing kernel library", missing)):
        path = lock.parent / (name.replace(" ", "-") + ".lock.json")
        path.write_text(json.dumps(d))
        out[name] = path
    return out


def both(probaudit: str, lock: Path) -> tuple:
    r = cli(probaudit, "check", str(lock), "--json")
    assert r.returncode in (0, 3), f"probaudit check exited {r.returncode}: {r.stderr}"
    doc = json.loads(r.stdout)
    paths = sorted(d["what"] for d in doc["environment_differences"] if d["can_move_numbers"])
    env = {**os.environ, "PYTHONPATH": str(PACKAGE)}
    threads = str(json.loads(lock.read_text())["config"].get("threads", 1))
    p = subprocess.run(
        [sys.executable, "-c", LOADER, str(lock), threads],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert p.returncode == 0, p.stderr
    return {"paths": paths, "exit": r.returncode}, json.loads(p.stdout)


def main() -> int:
    probaudit = str(Path(sys.argv[1]).resolve())
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        locks = variants(pinned_lock(probaudit, d))
        expect = {
            "identical": [],
            "changed variable": ["env.CUBLAS_WORKSPACE_CONFIG"],
            "missing kernel library": ["kernel_libraries.flash-attn"],
        }
        for name, lock in locks.items():
            cli_side, py_side = both(probaudit, lock)
            assert cli_side["paths"] == expect[name], f"{name}: probaudit check said {cli_side}"
            assert py_side["paths"] == cli_side["paths"], f"{name}: {py_side} vs {cli_side}"
            assert py_side["exit"] == cli_side["exit"], f"{name}: {py_side} vs {cli_side}"
            differs = bool(expect[name])
            assert py_side["warned"] == ([True] if differs else []), f"{name}: {py_side}"
            assert py_side["strict"] == ("raised" if differs else "passed"), f"{name}: {py_side}"
            print(f"{name}: both say {cli_side['paths'] or 'identical'} (exit {cli_side['exit']})")
        # Installable with pip from the repository (no index: setuptools from .venv), built
        # from a copy so that the build leaves nothing in the source tree.
        shutil.copytree(PACKAGE, d / "pkg", ignore=shutil.ignore_patterns("__pycache__"))
        target = d / "site"
        r = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-deps",
                "--no-build-isolation",
                "--no-index",
                "--target",
                str(target),
                str(d / "pkg"),
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert r.returncode == 0, r.stderr
        assert (target / "probaudit_lock" / "fingerprint.py").is_file()
        print("pip installs it from the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
