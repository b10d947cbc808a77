"""The CI templates in docs/examples/ci run as written.

Each template's commands are taken from its YAML (the GitHub Actions job's `run` steps, each in
its own shell, the later ones after a failure only when `if: always()`; the GitLab job's
`script` in one shell, as GitLab runs it), in order, and run with bash in a workspace laid out as
the templates expect: a study with a policy at audit/model.study.json (tiny BERT, the repo's
fixture), the signer's public key at audit/probaudit.pub, the private key where each CI system
puts its secret. Only the install step (id `install`, GitLab's `before_script`) and the actions
that are `uses:` are left out: the probaudit under test is on PATH instead. Then the evidence the
templates keep must be there: the ledger, JUnit XML that validates against junit-10.xsd, an
attestation that securesystemslib verifies, the card. Twice: with a policy that passes (the job
succeeds) and with one that fails (the job fails with the gate's exit code 5, and the evidence
is kept all the same).

Usage: test_ci_templates.py PROBAUDIT
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CI = ROOT / "docs" / "examples" / "ci"
FIXTURES = ROOT / "tests" / "fixtures"
PYTHON = ROOT / ".venv" / "bin" / "python"

STUDY = """{
  "name": "ci-template", "model": {"path": "%(fx)s/tiny-bert"},
  "heads": {"mean": {"kind": "adapter", "path": "%(fx)s/adapters/tiny-bert-mean.safetensors"}},
  "dataset": {"path": "data.jsonl"},
  "configs": {"ref": {"batch_size": 1}, "t2": {"batch_size": 1, "threads": 2}%(bf)s},
  "reference": "ref",
  "policy": {"rules": [
    {"name": "threads", "configs": [{"class": "threads"}], "max_flips": 0}%(more)s]}
}
"""
# A rule no run can meet: bfloat16 moves every probability.
FAILING = {
    "bf": ', "bf": {"dtype": "bfloat16"}',
    "more": ', {"name": "bf16", "configs": ["bf"], "max_dp_points": 0}',
}
PASSING = {"bf": "", "more": ""}


def workspace(root: Path, probaudit: str, policy: dict) -> dict:
    (root / "audit").mkdir()
    lines = [
        f'{{"id": "i{i}", "text": "the soup was {"cold" if i % 2 else "fine"} {i}"}}'
        for i in range(8)
    ]
    (root / "audit" / "data.jsonl").write_text("\n".join(lines) + "\n")
    (root / "audit" / "model.study.json").write_text(STUDY % {"fx": FIXTURES, **policy})
    subprocess.run([probaudit, "keygen", str(root / "key")], check=True, capture_output=True)
    (root / "key.pub").rename(root / "audit" / "probaudit.pub")
    return {"private_pem": (root / "key").read_text(), "private_path": str(root / "key")}


def expand(text: str, secrets: dict) -> str:
    """GitHub's ${{ ... }} expressions: the secrets and tokens the test provides."""
    return re.sub(r"\$\{\{\s*([^}]+?)\s*\}\}", lambda m: secrets[m.group(1)], text)


def run(command: str, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def github(probaudit: str, root: Path, keys: dict) -> tuple:
    """The job's steps as Actions runs them; returns (the job's exit, the paths it uploads)."""
    doc = yaml.safe_load((CI / "github-actions.yml").read_text())
    job = doc["jobs"]["audit"]
    secrets = {"secrets.PROBAUDIT_SIGNING_KEY": keys["private_pem"], "github.token": "unused"}
    steps = [s for s in job["steps"] if "uses" not in s and s.get("id") != "install"]
    assert len(steps) == 3, f"the workflow's steps changed: {steps}"
    failed = 0
    for step in steps:
        if failed and step.get("if") != "always()":
            continue
        env = {
            **os.environ,
            **{k: expand(str(v), secrets) for k, v in job["env"].items()},
            **{k: expand(str(v), secrets) for k, v in step.get("env", {}).items()},
        }
        env["PATH"] = f"{Path(probaudit).parent}:{env['PATH']}"
        done = run(expand(step["run"], secrets), env, root)
        if done.returncode != 0:
            print(f"github-actions.yml step {step['name']!r} exited {done.returncode}")
            failed = failed or done.returncode
    upload = next(s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/upload"))
    assert upload.get("if") == "always()", "the evidence must be kept when the gate fails"
    return failed, upload["with"]["path"].split()


def gitlab(probaudit: str, root: Path, keys: dict) -> tuple:
    """The job's script in one shell, as GitLab runs it; returns (its exit, the artifacts)."""
    job = yaml.safe_load((CI / "gitlab-ci.yml").read_text())["probaudit-gate"]
    assert "after_script" not in job, "GitLab ignores after_script's failures"
    env = {**os.environ, **{k: str(v) for k, v in job["variables"].items()}}
    env["PROBAUDIT_SIGNING_KEY"] = keys["private_path"]  # a "File" variable: its path
    env["PATH"] = f"{Path(probaudit).parent}:{env['PATH']}"
    done = run("\n".join(job["script"]), env, root)
    if done.returncode != 0:
        print(f"gitlab-ci.yml script exited {done.returncode}: {done.stderr.strip()[-300:]}")
    assert job["artifacts"]["reports"]["junit"] == "gate.junit.xml"
    assert job["artifacts"]["when"] == "always"
    return done.returncode, job["artifacts"]["paths"]


def check_evidence(root: Path, kept: list, what: str) -> None:
    for name in kept:
        assert (root / name).is_file(), f"{what}: {name} was not written"
    xsd = ROOT / "tests" / "fixtures" / "junit" / "junit-10.xsd"
    lint = subprocess.run(
        ["xmllint", "--noout", "--schema", str(xsd), str(root / "gate.junit.xml")],
        capture_output=True,
        text=True,
    )
    assert lint.returncode == 0, f"{what}: the JUnit XML does not validate: {lint.stderr}"
    check = subprocess.run(
        [
            str(PYTHON),
            str(ROOT / "tests" / "verify_attestation.py"),
            str(root / "gate.intoto.json"),
            str(root / "audit" / "probaudit.pub"),
        ],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, f"{what}: {check.stderr}"
    assert "## Reproducibility" in (root / "reproducibility.md").read_text()


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit("usage: test_ci_templates.py PROBAUDIT")
    probaudit = str(Path(sys.argv[1]).resolve())
    for name, template in (("github-actions.yml", github), ("gitlab-ci.yml", gitlab)):
        for policy, expected in ((PASSING, 0), (FAILING, 5)):
            with tempfile.TemporaryDirectory() as tmp:
                root = Path(tmp)
                keys = workspace(root, probaudit, policy)
                code, kept = template(probaudit, root, keys)
                assert code == expected, f"{name}: the job exited {code}, not {expected}"
                check_evidence(root, kept, name)
                print(f"{name}: the job exited {code} as the gate says; the evidence is there")
    return 0


if __name__ == "__main__":
    sys.exit(main())
