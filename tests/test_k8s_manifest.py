#!/usr/bin/env python3
"""`probaudit sweep --k8s`: the Indexed Job manifest it writes.

- It is a valid batch/v1 Job by the Kubernetes API's own models (the pinned `kubernetes`
  Python client): read into V1Job and written back, nothing is lost (a field the API does not
  know would be dropped) and nothing required is missing; the negative: a misspelled field is
  caught by the same check.
- Each pod's command, run here as the Job controller would run it (its env plus
  JOB_COMPLETION_INDEX 0..N-1, in its workingDir, with the claim "mounted" at a local folder),
  records its shard; `probaudit merge` of the N ledgers equals the one-node run per config.
- What a Job cannot carry is one line, exit 1, and no manifest file.

  .venv/bin/python tests/test_k8s_manifest.py PROBAUDIT
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest
from typing import Any

from kubernetes import client
from shard_study import FIXTURES, numerics, write_study

PROBAUDIT = sys.argv.pop(1) if len(sys.argv) > 1 else "build/default/bin/probaudit"


def probaudit(*args: object) -> subprocess.CompletedProcess:
    return subprocess.run([PROBAUDIT, *map(str, args)], capture_output=True, text=True)


def lost_fields(manifest: dict[str, Any]) -> list[str]:
    """What V1Job does not carry of `manifest`: the API client reads it into its models (which
    check required fields) and writes it back; every difference is a field the API lacks."""
    api = client.ApiClient()
    job = api._ApiClient__deserialize(manifest, "V1Job")
    back = api.sanitize_for_serialization(job)
    return diff(manifest, back)


def diff(a: Any, b: Any, where: str = "$") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in a:
            out += diff(a[k], b[k], f"{where}.{k}") if k in b else [f"{where}.{k}"]
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [x for i, (p, q) in enumerate(zip(a, b)) for x in diff(p, q, f"{where}[{i}]")]
    return [] if a == b else [where]


class TestK8sManifest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = pathlib.Path(cls.tmp.name)
        cls.study = write_study(cls.dir)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def manifest(self, *extra: str) -> dict[str, Any]:
        r = probaudit(
            "sweep",
            self.study,
            "--k8s",
            "--shards",
            "3",
            "--image",
            "registry.example/probaudit:1.0",
            "--pvc",
            "audit-data",
            *extra,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("kubectl apply", r.stderr)
        return json.loads(r.stdout)

    def test_manifest_is_a_valid_indexed_job(self) -> None:
        m = self.manifest("--gpu", "1")
        self.assertEqual(lost_fields(m), [])
        spec = m["spec"]
        self.assertEqual(
            (spec["completionMode"], spec["completions"], spec["parallelism"]), ("Indexed", 3, 3)
        )
        self.assertEqual(spec["podReplacementPolicy"], "Failed")
        pod = spec["template"]["spec"]
        self.assertEqual(pod["restartPolicy"], "Never")
        self.assertEqual(pod["volumes"][0]["persistentVolumeClaim"]["claimName"], "audit-data")
        c = pod["containers"][0]
        self.assertEqual(c["resources"]["limits"]["nvidia.com/gpu"], "1")
        self.assertEqual(c["volumeMounts"][0]["mountPath"], "/data")
        env = {e["name"]: e["value"] for e in c["env"]}
        self.assertEqual(env["STUDY"], "/data/s.study.json")
        self.assertEqual(env["SWEEP_DIR"], "/data/s.sweep")
        self.assertNotIn("resources", self.manifest()["spec"]["template"]["spec"]["containers"][0])

    def test_the_check_catches_a_field_the_api_lacks(self) -> None:
        m = self.manifest()
        m["spec"]["completionMod"] = m["spec"].pop("completionMode")
        self.assertEqual(lost_fields(m), ["$.spec.completionMod"])
        m = self.manifest()
        del m["spec"]["template"]["spec"]["containers"][0]["name"]  # required by the API
        with self.assertRaises(ValueError):
            lost_fields(m)

    def test_each_pod_records_its_shard_and_they_merge_into_the_one_node_run(self) -> None:
        one = self.dir / "one.ledger"
        r = probaudit("run", self.study, "--all", "--ledger", one)
        self.assertEqual(r.returncode, 0, r.stderr)
        # The claim is this folder, mounted where it is; the image's probaudit is the built one.
        m = self.manifest("--mount", self.dir, "--probaudit", os.path.abspath(PROBAUDIT))
        c = m["spec"]["template"]["spec"]["containers"][0]
        for index in range(m["spec"]["completions"]):
            env = dict(
                os.environ,
                JOB_COMPLETION_INDEX=str(index),
                **{e["name"]: e["value"] for e in c["env"]},
            )
            p = subprocess.run(
                c["command"], cwd=c["workingDir"], env=env, capture_output=True, text=True
            )
            self.assertEqual(p.returncode, 0, p.stderr)
        shards = sorted((self.dir / "s.sweep").glob("shard-*.ledger"))
        self.assertEqual(
            [s.name for s in shards], ["shard-1.ledger", "shard-2.ledger", "shard-3.ledger"]
        )
        merged = self.dir / "merged.ledger"
        r = probaudit("merge", *shards, "-o", merged)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(numerics(merged), numerics(one))
        self.assertEqual(len(numerics(one)), 3)

    def test_refusals(self) -> None:
        out = self.dir / "job.json"
        cases = [
            (["--shards", "3", "--pvc", "c"], "--image"),
            (["--shards", "3", "--image", "i"], "--pvc"),
            (["--image", "i", "--pvc", "c"], "--shards"),
            (["--shards", "3", "--image", "i", "--pvc", "c", "--mount", "data"], "absolute"),
        ]
        # A generation head: its serving runs depend on every request, no shard records one.
        gen = json.loads(self.study.read_text())
        gen["model"] = {"path": str(FIXTURES / "tiny-llama")}
        gen["heads"] = {"gen": {"kind": "generation", "max_new_tokens": 4, "template": "{text}"}}
        gen["configs"] = {"ref": {"batch_size": 1}, "b4": {"batch_size": 4}}
        gen_study = self.dir / "gen.study.json"
        gen_study.write_text(json.dumps(gen))
        cases.append(
            (["--shards", "3", "--image", "i", "--pvc", "c"], "generation head", gen_study)
        )
        for args, why, *study in cases:
            r = probaudit("sweep", *(study or [self.study]), "--k8s", "-o", out, *args)
            self.assertEqual(r.returncode, 1, args)
            self.assertIn(why, r.stderr)
            self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
            self.assertFalse(out.exists())


if __name__ == "__main__":
    unittest.main(verbosity=2)
