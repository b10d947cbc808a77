#!/usr/bin/env python3
"""The transformers runner (runners/python/probaudit_runner, docs/runner-protocol.md) through
`probaudit run`, in the Python environment of .venv (this interpreter):

  - On the two demo models (all-MiniLM-L6-v2 with an adapter, SmolLM2-135M-Instruct GGUF with
    label tokens) the reference runner's logits and probabilities match the libtorch engine's
    within 1e-4 per item (fp32, CPU), on the same tokens; the same config recorded twice in
    the same environment is bit-identical (every float, every layer hash); a second config
    (bfloat16) is recorded, compared, and differs (the negative side of the checks).
  - Its layer hashes are the engine's: the pa64 hash in Python gives the golden hashes of
    tests/golden/row_hash.json (made by an independent implementation), and SmolLM2's
    embedding layer, where both compute the same floats, hashes alike in both runners.
  - A generation head on the runner gives the engine's texts, tokens and step logits (1e-4).
  - Architectures the engine does not have (Gemma 3 with sliding-window layers, Phi-3, Qwen3
    MoE, the LFM2 hybrid), as tiny random models: two configs each, recorded and compared.
  - Two environments in one study (a second venv over .venv's packages, its runner with
    ATEN_CPU_CAPABILITY=default): the diagnosis names the environment and what differs.
  - Bad input is one line, exit 1 and no ledger: interpreter missing, torch missing there,
    transformers older than supported, a model folder it cannot read, an architecture that
    transformers does not know, a runner speaking another protocol version.
  - pin and check work for a runner environment (the lock starts the runner there again).
  - A runner that dies mid-run is one line and exit 1; the finished batches stay, and the same
    command resumes the run to the numbers of an uninterrupted one.

    .venv/bin/python tests/test_transformers_runner.py PROBAUDIT
"""

import base64
import json
import os
import pathlib
import shlex
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import unittest
from typing import Any

from peak_memory import run_measured

PROBAUDIT = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 else "build/default/bin/probaudit"
HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
MODELS = ROOT / ".cache" / "models"
MINILM = MODELS / "all-MiniLM-L6-v2"
SMOLLM = MODELS / "SmolLM2-135M-Instruct" / "SmolLM2-135M-Instruct.Q4_1.gguf"
ADAPTER = HERE / "fixtures" / "adapters" / "all-MiniLM-L6-v2-mean.safetensors"
SENTENCES = ROOT / "resources" / "demo" / "sentiment-sentences" / "yelp.jsonl"
SMOLLM_TEMPLATE = (
    "<|im_start|>user\nIs the sentiment of this review positive? Answer Yes or "
    "No.\nReview: {text}<|im_end|>\n<|im_start|>assistant\n"
)

# The row hash library probaudit gives its runners (bin/../lib/probaudit), for the in-process tests.
ROWHASH_LIB = (
    pathlib.Path(PROBAUDIT).resolve().parent.parent
    / "lib"
    / "probaudit"
    / "libprobaudit_rowhash.so"
)
os.environ.setdefault("PROBAUDIT_ROWHASH_LIB", str(ROWHASH_LIB))
# The runners' operator counter (probaudit_runner/optrace.py) is built once for this test run,
# here and in every runner probaudit starts, not in the home folder.
_CACHE = tempfile.TemporaryDirectory(prefix="probaudit-runner-cache-")
os.environ["PROBAUDIT_RUNNER_CACHE"] = _CACHE.name
sys.path.insert(0, str(ROOT / "runners" / "python"))
sys.path.insert(0, str(HERE))


def run(*args: object, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    # The row hash library is probaudit's to name: the in-process tests' variable stays here.
    base = {k: v for k, v in os.environ.items() if k != "PROBAUDIT_ROWHASH_LIB"}
    return subprocess.run(
        [PROBAUDIT, *map(str, args)],
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        timeout=900,
    )


def write_study(
    path: pathlib.Path,
    model: str | pathlib.Path,
    head: dict[str, Any],
    configs: dict[str, Any],
    environments: dict[str, Any] | None = None,
    reference: str | None = None,
    capture: str = "vectors",
    limit: int = 24,
) -> pathlib.Path:
    study = {
        "name": path.stem,
        "model": {"path": str(model)},
        "heads": {"h": head},
        "dataset": {
            "path": str(SENTENCES),
            "labels": ["negative", "positive"],
            "limit": limit,
            "seed": 3,
        },
        "capture": capture,
        "environments": environments or {"venv": {"python": sys.executable}},
        "configs": configs,
        "reference": reference or next(iter(configs)),
    }
    path.write_text(json.dumps(study, indent=1))
    return path


def runs_by_config(ledger: str | pathlib.Path) -> dict[str, int]:
    with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True) as db:
        return {r[1]: r[0] for r in db.execute("select id, config_name from runs order by id")}


def records(ledger: str | pathlib.Path, run_id: int) -> dict[str, dict[str, Any]]:
    r = run("export", ledger, "--run", run_id, "--format", "jsonl")
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    out = {}
    for line in r.stdout.splitlines():
        rec = json.loads(line)
        rec.pop("batch_seconds", None)
        out[rec["id"]] = rec
    return out


def kernel_traces(ledger: str | pathlib.Path) -> dict[str, dict[str, Any]]:
    with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True) as db:
        return {
            r[0]: json.loads(r[1])
            for r in db.execute(
                "select config_name, kernel_trace from runs where kernel_trace is not null"
            )
        }


def numbers(rec: dict[str, Any]) -> dict[str, Any]:
    """The recorded numbers of one item (what "bit-identical" compares)."""
    return {k: v for k, v in rec.items() if k not in ("batch_seconds", "run")}


class TestRowHash(unittest.TestCase):
    def test_python_hash_is_the_golden_hash(self) -> None:
        import torch
        from probaudit_runner.rowhash import hash_bytes_reference, hash_rows

        golden = json.loads((HERE / "golden" / "row_hash.json").read_text())
        self.assertGreaterEqual(len(golden["cases"]), 10)
        for case in golden["cases"]:
            n, length = case["case"], case["bytes"]
            data = bytes((k * 37 + 11 * n) % 256 for k in range(length))
            self.assertEqual(f"{hash_bytes_reference(data):016x}", case["hash"], case)
            if length:
                t = torch.frombuffer(bytearray(data), dtype=torch.uint8).reshape(1, -1)
                self.assertEqual(f"{hash_rows(t)[0]:016x}", case["hash"], case)
        # A row of floats: the vectorized hash is the plain one, and a changed bit changes it.
        t = torch.randn(3, 384)
        hashes = hash_rows(t)
        self.assertEqual(hashes, [hash_bytes_reference(t[i].numpy().tobytes()) for i in range(3)])
        t[1, 7] = torch.nextafter(t[1, 7], torch.tensor(10.0))
        self.assertNotEqual(hash_rows(t)[1], hashes[1])

    def test_batch_hash_is_each_rows_hash(self) -> None:
        """hash_batch (numpy on the CPU, torch on a device; both run here) is hash_rows of each
        row's real tokens, whatever the padding side, dtype or hidden size; a changed bit in a
        real token changes that row and layer only, a changed pad changes nothing."""
        import torch
        from probaudit_runner import rowhash
        from probaudit_runner.rowhash import hash_batch, hash_rows

        self.assertIsNotNone(rowhash.native(), f"no row hash library at {ROWHASH_LIB}")
        torch.manual_seed(3)
        for dtype, H, side in (
            (torch.float32, 384, "right"),
            (torch.float32, 7, "left"),
            (torch.bfloat16, 64, "left"),
            (torch.bfloat16, 5, "right"),
            (torch.float16, 6, "right"),
        ):
            lengths, L = [9, 4, 1, 9], 9
            start = [L - n if side == "left" else 0 for n in lengths]
            hidden = [torch.randn(4, L, H).to(dtype) for _ in range(3)]
            want = [
                hash_rows(torch.stack([h[r, s : s + n] for h in hidden]).reshape(3, -1))
                for r, (s, n) in enumerate(zip(start, lengths))
            ]
            for method, threads in (("native", 1), ("numpy", 1), ("numpy", 2), ("torch", 1)):
                got = hash_batch(hidden, start, lengths, threads, method)
                self.assertEqual(got, want, (dtype, H, side, method, threads))
            r = 1
            pad = 0 if side == "left" else L - 1
            hidden[2][r, pad] += 1  # a pad
            self.assertEqual(hash_batch(hidden, start, lengths), want)
            hidden[2][r, start[r] + 2] += 1  # a real token of row 1, layer 2
            got = hash_batch(hidden, start, lengths)
            self.assertNotEqual(got[r][2], want[r][2])
            got[r][2] = want[r][2]
            self.assertEqual(got, want)


class TestTraceCounts(unittest.TestCase):
    def test_raw_events_count_as_key_averages_do(self) -> None:
        """The trace reads the profiler's raw events; key_averages (the documented, slower path)
        counts the same ops, and a different computation shows in the counts."""
        import torch
        from probaudit_runner.trace import counts

        x = torch.randn(8, 16)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            torch.softmax(x @ x.T, -1)
        from probaudit_runner.trace import _raw_counts

        self.assertIsNotNone(_raw_counts(prof, False), "this torch has no raw profiler events")
        raw, averaged = counts(prof), counts(prof, raw=False)
        self.assertEqual(raw, averaged)
        self.assertEqual(counts(prof, device_kernels=True), raw)  # the CUDA run's reading
        # The documented difference: key_averages folds aten::sum into its same-name caller.
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            x.sum()
        self.assertEqual(counts(prof)[0]["aten::sum"], 2)
        self.assertEqual(counts(prof, raw=False)[0]["aten::sum"], 1)
        self.assertEqual(raw[0].get("aten::mm"), 1, raw[0])
        self.assertIn("aten::_softmax", raw[0])

    def test_a_run_trace_is_the_sum_of_its_forwards(self) -> None:
        """A run's trace, its operators counted natively (a RecordFunction callback, as the
        engine counts them) or by one profiler over the run counted every `harvest` forwards,
        counts what a profiler around each forward counts, summed: on plain operators, on a
        transformer layer's forward (some 50 kinds of operator) and on the numpy row hash."""
        import collections

        import torch
        from probaudit_runner.rowhash import hash_batch
        from probaudit_runner.trace import RunTrace, counts

        torch.manual_seed(1)
        x = torch.randn(8, 16)
        layer = torch.nn.TransformerEncoderLayer(16, 2, 32, batch_first=True).eval()
        mask = torch.tensor([[False] * 6 + [True] * 2] * 2)

        def encoder() -> torch.Tensor:
            with torch.inference_mode():
                return layer(x.reshape(2, 4, 16).repeat(1, 2, 1), src_key_padding_mask=mask)

        # numpy_hash: on a pool of threads, whose operators only the native counter sees
        def numpy_hash() -> None:
            hash_batch([x.reshape(2, 4, 16)] * 3, [0, 1], [4, 3], 2, "numpy")

        forwards = [
            lambda: torch.softmax(x @ x.T, -1),
            lambda: x.sum(),
            lambda: torch.relu(x) @ x.T,
            encoder,
            lambda: x @ x.T,
            encoder,
            numpy_hash,
        ]
        want = collections.Counter()
        for f in forwards:
            with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
                f()
            want.update(counts(prof)[0])
        self.assertGreater(len(want), 30, want)
        for ops_from, harvest in (
            ("native", 64),
            ("profiler", 1),
            ("profiler", 2),
            ("profiler", 64),
        ):
            trace = RunTrace("cpu", harvest, ops_from)
            self.assertEqual(trace.ops_from, ops_from)
            for f in forwards:
                trace.forward(f)
            got = trace.result()
            self.assertEqual(got["ops"], dict(want), (ops_from, harvest))
            self.assertEqual(got["device_kernels"], {})
            self.assertIn("device_kernels_unavailable", got)
            self.assertEqual(trace.result()["ops"], dict(want))  # result() counts nothing twice
            torch.sigmoid(x)  # after the trace: not counted
            self.assertNotIn("aten::sigmoid", trace.result()["ops"])

    def test_without_a_compiler_the_profiler_counts(self) -> None:
        """Where the native counter cannot be built (no compiler here), the trace counts from
        the profiler and says why, and builds nothing; with a compiler it is built once into
        the cache and reused by the next runner."""
        code = (
            "import sys, torch; sys.path.insert(0, sys.argv[1]); "
            "from probaudit_runner.trace import RunTrace; t = RunTrace('cpu'); "
            "t.forward(lambda: torch.ones(3) @ torch.ones(3)); r = t.result(); "
            "print(t.ops_from, r['ops'].get('aten::dot'), t.why_profiler)"
        )
        with tempfile.TemporaryDirectory() as cache:

            def trace(**env: str) -> list[str]:
                r = subprocess.run(
                    [sys.executable, "-c", code, str(ROOT / "runners" / "python")],
                    capture_output=True,
                    text=True,
                    timeout=300,
                    env={**os.environ, "PROBAUDIT_RUNNER_CACHE": cache, **env},
                )
                self.assertEqual(r.returncode, 0, r.stderr)
                return r.stdout.split(maxsplit=2)

            ops_from, dots, why = trace(CXX=os.path.join(cache, "no-such-c++"))
            self.assertEqual((ops_from, dots), ("profiler", "1"))
            self.assertIn("no-such-c++", why)
            self.assertEqual(os.listdir(cache), [])
            self.assertEqual(trace(PROBAUDIT_RUNNER_TRACE="profiler")[:2], ["profiler", "1"])
            # A compiler that notes each call it gets: the first runner builds, the next reuses.
            calls = pathlib.Path(cache) / "calls"
            cxx = pathlib.Path(cache) / "c++"
            cxx.write_text(f'#!/bin/sh\necho "$@" >> {calls}\nexec c++ "$@"\n')
            cxx.chmod(0o755)
            for _ in range(2):
                native = trace(CXX=str(cxx))
                self.assertEqual(native[:2], ["native", "1"], native)
            self.assertEqual(len(calls.read_text().splitlines()), 1)
            built = [f for f in os.listdir(cache) if f.startswith("optrace-")]
            self.assertEqual(len(built), 1, os.listdir(cache))
            self.assertTrue(built[0].endswith(".so"), built)


@unittest.skipUnless(
    MINILM.is_dir() and SMOLLM.is_file(), "the demo models are not in .cache/models"
)
class TestParity(unittest.TestCase):
    """Engine vs reference runner in one ledger, and the runner against itself."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = pathlib.Path(cls.tmp.name)
        configs = {
            "engine": {"batch_size": 4, "threads": 2},
            "hf": {"runner": "transformers", "batch_size": 4, "threads": 2},
            "hf-again": {"runner": "transformers", "batch_size": 4, "threads": 2, "repeat": 1},
            "hf-bfloat16": {
                "runner": "transformers",
                "batch_size": 4,
                "threads": 2,
                "dtype": "bfloat16",
            },
        }
        cls.ledgers, cls.finished = {}, {}
        for name, model, head in (
            ("minilm", MINILM, {"kind": "adapter", "path": str(ADAPTER)}),
            (
                "smollm2",
                SMOLLM,
                {"kind": "label_tokens", "template": SMOLLM_TEMPLATE, "labels": ["No", "Yes"]},
            ),
        ):
            study = write_study(cls.dir / f"{name}.study.json", model, head, configs)
            r = run("run", study, "--all", "--events", "jsonl")
            if r.returncode != 0:
                raise RuntimeError(r.stderr)
            cls.ledgers[name] = cls.dir / f"{name}.ledger"
            cls.finished[name] = [
                e
                for e in map(json.loads, r.stdout.splitlines())
                if e.get("event") == "run-finished"
            ]

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def check_model(
        self, name: str, tables: int
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        ledger = self.ledgers[name]
        runs = runs_by_config(ledger)
        self.assertEqual(set(runs), {"engine", "hf", "hf-again", "hf-bfloat16"})
        eng, hf, again, bf16 = (
            records(ledger, runs[c]) for c in ("engine", "hf", "hf-again", "hf-bfloat16")
        )
        self.assertEqual(len(eng), 24)
        worst = 0.0
        for item, e in eng.items():
            h = hf[item]
            self.assertEqual(e["tokens"], h["tokens"], item)  # the same tokens were read
            for a, b in zip(e["logits"] + e["probs"], h["logits"] + h["probs"]):
                worst = max(worst, abs(a - b))
            self.assertEqual(e["decision"], h["decision"], item)
            self.assertEqual(len(e["layer_hashes"]), len(h["layer_hashes"]))
        self.assertLessEqual(worst, 1e-4, f"{name}: engine vs transformers differ by {worst}")
        same_layers = sum(e["layer_hashes"] == hf[i]["layer_hashes"] for i, e in eng.items())
        print(
            f"{name}: engine vs transformers: largest difference {worst:.3g}, "
            f"{same_layers}/{len(eng)} items bit-identical in every layer",
            file=sys.stderr,
        )
        # Run to run in one environment: every number and every layer hash.
        for item in hf:
            self.assertEqual(numbers(hf[item]), numbers(again[item]), item)
        # The negative side: the same checks do see a difference where there is one (bfloat16
        # against float32 in the same environment).
        self.assertEqual(set(bf16), set(hf))
        self.assertTrue(all(bf16[i]["layer_hashes"][-1] != hf[i]["layer_hashes"][-1] for i in hf))
        self.assertGreater(
            max(abs(a - b) for i in hf for a, b in zip(bf16[i]["logits"], hf[i]["logits"])), 1e-4
        )
        # The cross-runner comparison with its three levels.
        r = run("compare", ledger, runs["engine"], runs["hf"], "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        verdict = json.loads(r.stdout)
        self.assertEqual(verdict["items"], 24)
        r = run("verify", ledger)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # The kernel trace spans each run: the same batches count the same ops, all six batches
        # of four are in it (`tables` embedding tables each), and bfloat16 runs other ops.
        traces = kernel_traces(ledger)
        ops = traces["hf"]["ops"]
        self.assertEqual(traces["hf-again"]["ops"], ops)
        self.assertNotEqual(traces["hf-bfloat16"]["ops"], ops)
        self.assertIn("device_kernels_unavailable", traces["hf"])
        self.assertEqual(ops.get("aten::embedding"), 6 * tables, ops)  # a lookup a table a batch
        return eng, hf

    def test_minilm_matches_the_engine(self) -> None:
        self.check_model("minilm", tables=3)  # words, positions, token types

    def test_smollm2_matches_the_engine(self) -> None:
        eng, hf = self.check_model("smollm2", tables=1)
        # The embedding layer is a lookup of the same dequantized weights in both runners: the
        # same floats, so the same hash (the runners hash alike).
        self.assertTrue(all(eng[i]["layer_hashes"][0] == hf[i]["layer_hashes"][0] for i in eng))

    def test_environment_is_the_runners(self) -> None:
        with sqlite3.connect(f"file:{self.ledgers['minilm']}?mode=ro", uri=True) as db:
            envs = [
                json.loads(r[0])
                for r in db.execute(
                    "select e.json from runs r join environments e on e.hash = r.env_hash "
                    "where r.config_name = 'hf'"
                )
            ]
        self.assertEqual(len(envs), 1)
        fp = envs[0]
        import torch
        import transformers

        self.assertEqual(fp["kind"], "transformers")
        self.assertEqual(fp["environment"], "venv")
        self.assertEqual(fp["torch"], torch.__version__)
        self.assertEqual(fp["transformers"], transformers.__version__)
        self.assertIn("flash-linear-attention", fp["kernel_libraries"])
        self.assertEqual(len(fp["packages_sha256"]), 64)
        # probaudit gave the runner its row hash library (the hashes are the engine's either way).
        runner = [e["runner"] for e in self.finished["minilm"] if "runner" in e]
        self.assertEqual(len(runner), 3, self.finished["minilm"])
        self.assertTrue(all(x["row_hash"] == "native" for x in runner), runner)
        self.assertTrue(all(x["trace_ops"] == "native" for x in runner), runner)

    def test_the_profiler_counts_what_the_native_counter_counts(self) -> None:
        """The same run with the operators counted by torch.profiler (as where no compiler
        can build the native counter): the same kernel trace, and a warning that says so."""
        study = json.loads((self.dir / "minilm.study.json").read_text())
        study["configs"], study["reference"] = {"hf": study["configs"]["hf"]}, "hf"
        path = self.dir / "minilm-profiler.study.json"
        path.write_text(json.dumps(study))
        r = run(
            "run", path, "--all", "--events", "jsonl", env={"PROBAUDIT_RUNNER_TRACE": "profiler"}
        )
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        events = [json.loads(line) for line in r.stdout.splitlines()]
        warnings = [e["message"] for e in events if e.get("event") == "warning"]
        self.assertEqual(len(warnings), 1, warnings)
        self.assertIn("counted the kernel trace's operators with torch.profiler", warnings[0])
        finished = [e for e in events if e.get("event") == "run-finished"]
        self.assertEqual(finished[0]["runner"]["trace_ops"], "profiler")
        self.assertEqual(
            kernel_traces(self.dir / "minilm-profiler.ledger")["hf"],
            kernel_traces(self.ledgers["minilm"])["hf"],
        )


TOKENIZER = MODELS / "SmolLM2-135M-Instruct-hf"
LABEL_HEAD = {
    "kind": "label_tokens",
    "template": "Review: {text}\nIs it positive? Answer:",
    "labels": [" No", " Yes"],
}


@unittest.skipUnless(TOKENIZER.is_dir(), "the SmolLM2 tokenizer is not in .cache/models")
class TestHiddenStateLayout(unittest.TestCase):
    """Hidden state 0 is the embeddings and the last the model's final state, num_hidden_layers
    + 1 in all, whatever order the architecture returns them in: Mamba returns no embeddings
    entry (its index 0 is layer 1, which was named "embeddings"); GPT-NeoX and OLMo2 return the
    usual order."""

    def test_index_zero_is_the_embeddings(self) -> None:
        import tiny_models
        import torch
        from probaudit_runner.model import LoadedModel

        with tempfile.TemporaryDirectory() as tmp:
            for name in ("mamba", "gpt_neox", "olmo2"):
                with self.subTest(name):
                    path = tiny_models.make(name, pathlib.Path(tmp) / name, TOKENIZER)
                    m = LoadedModel(str(path), LABEL_HEAD, "float32", "cpu", "math")
                    ids = m.tok("the soup was cold")["input_ids"]
                    (rec,) = m.forward([ids], "right", "longest", 0, "vectors")
                    layers = m.model.config.num_hidden_layers
                    hidden = m.model.config.hidden_size
                    raw = base64.b64decode(rec["vectors"])
                    vectors = torch.frombuffer(bytearray(raw), dtype=torch.float32)
                    vectors = vectors.view(layers + 1, hidden)
                    self.assertEqual(len(rec["hashes"]), layers + 1)
                    x = torch.tensor([ids])
                    with torch.inference_mode():
                        embeddings = m.model.get_input_embeddings()(x)[0, -1]
                        model_states = m.model(input_ids=x, output_hidden_states=True).hidden_states
                    self.assertTrue(torch.equal(vectors[0], embeddings), name)
                    self.assertTrue(torch.equal(vectors[layers], model_states[-1][0, -1]), name)
                    # The planted cause: Mamba's own index 0 is not the embeddings.
                    own_first_is_embeddings = torch.equal(model_states[0][0, -1], embeddings)
                    self.assertEqual(own_first_is_embeddings, name != "mamba", name)


@unittest.skipUnless(TOKENIZER.is_dir(), "the SmolLM2 tokenizer is not in .cache/models")
class TestArchitectures(unittest.TestCase):
    """Architectures the engine does not have, as tiny random models made here from
    transformers configs (tests/tiny_models.py): each through a study with two configs, compared."""

    @classmethod
    def setUpClass(cls) -> None:
        import tiny_models

        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = pathlib.Path(cls.tmp.name)
        cls.models = {
            n: tiny_models.make(n, cls.dir / n, TOKENIZER) for n in tiny_models.ARCHITECTURES
        }

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_each_architecture_runs_two_configs_and_compares(self) -> None:
        self.assertEqual(
            set(self.models),
            {"gemma3", "phi3", "qwen3_moe", "lfm2", "mamba", "gpt_neox", "olmo2"},
        )
        for name, path in self.models.items():
            with self.subTest(name):
                layers = json.loads((path / "config.json").read_text())["num_hidden_layers"]
                study = write_study(
                    self.dir / f"{name}.study.json",
                    path,
                    LABEL_HEAD,
                    {
                        "batch-1": {"runner": "transformers", "batch_size": 1},
                        "batch-4-left": {
                            "runner": "transformers",
                            "batch_size": 4,
                            "padding_side": "left",
                        },
                    },
                    capture="hashes",
                    limit=12,
                )
                r = run("run", study, "--all")
                self.assertEqual(r.returncode, 0, r.stderr)
                ledger = self.dir / f"{name}.ledger"
                runs = runs_by_config(ledger)
                a, b = records(ledger, runs["batch-1"]), records(ledger, runs["batch-4-left"])
                self.assertEqual(len(a), 12)
                for item, rec in a.items():
                    self.assertEqual(len(rec["layer_hashes"]), layers + 1)
                    self.assertEqual(len(rec["probs"]), 2)
                    self.assertAlmostEqual(sum(rec["probs"]), 1.0, places=5)
                    self.assertEqual(rec["tokens"], b[item]["tokens"])
                    self.assertLess(abs(rec["logits"][0] - b[item]["logits"][0]), 1e-3, item)
                r = run("compare", ledger, runs["batch-1"], runs["batch-4-left"], "--json")
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(json.loads(r.stdout)["items"], 12)
                # The engine does not have this architecture: the study's engine config is
                # refused with one line, before anything is written.
                engine_study = write_study(
                    self.dir / f"{name}-engine.study.json",
                    path,
                    LABEL_HEAD,
                    {"engine": {}},
                    limit=4,
                )
                r = run("run", engine_study, "--all")
                self.assertEqual(r.returncode, 1)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertFalse((self.dir / f"{name}-engine.ledger").exists())


@unittest.skipUnless(MINILM.is_dir(), "the demo models are not in .cache/models")
class TestTwoEnvironments(unittest.TestCase):
    """Two Python environments in one study: a second venv made cheaply over .venv's packages
    (a .pth file), whose runner reads ATEN_CPU_CAPABILITY=default (ATen's unvectorized kernels).
    The diagnosis names the environment as the suspect and says what differs in it."""

    def test_diagnosis_names_the_environment_difference(self) -> None:
        import site
        import venv

        with tempfile.TemporaryDirectory() as tmp:
            d = pathlib.Path(tmp)
            venv.EnvBuilder(with_pip=False).create(d / "venv-b")
            purelib = next((d / "venv-b" / "lib").glob("python3*/site-packages"))
            (purelib / "probaudit-over-venv.pth").write_text(
                "\n".join(site.getsitepackages()) + "\n"
            )
            study = write_study(
                d / "two.study.json",
                MINILM,
                {"kind": "adapter", "path": str(ADAPTER)},
                {"a": {"env": "a", "batch_size": 4}, "b": {"env": "b", "batch_size": 4}},
                environments={
                    "a": {"python": sys.executable},
                    "b": {
                        "python": str(d / "venv-b" / "bin" / "python"),
                        "env": {"ATEN_CPU_CAPABILITY": "default"},
                    },
                },
                capture="hashes",
                limit=16,
            )
            r = run("run", study, "--all")
            self.assertEqual(r.returncode, 0, r.stderr)
            r = run("diagnose", study, "--sample", "8", "--batch", "4", "--json")
            self.assertEqual(r.returncode, 0, r.stderr)
            diagnosis = json.loads(r.stdout)
            row = next(c for c in diagnosis["configs"] if c["config"] == "b")
            self.assertEqual(row["differs_in"], ["env"])
            self.assertEqual(row["suspects"], ["environment"])
            text = "\n".join(row["environment"])
            self.assertIn("env.ATEN_CPU_CAPABILITY: absent in A, default in B", text)
            self.assertIn("cpu.capability", text)
            self.assertNotIn("packages_sha256", text)  # names the environment, moves nothing
            r = run("diagnose", study, "--sample", "8", "--batch", "4")
            self.assertIn("b runs in another environment than the reference", r.stdout)


@unittest.skipUnless(TOKENIZER.is_dir(), "SmolLM2 (Hugging Face folder) is not in .cache/models")
class TestGeneration(unittest.TestCase):
    """A generation head on the transformers runner: greedy, static batches, the engine's
    definitions of a step (chosen token, its logit, the top-2 gap, the batch) and of the text."""

    def test_generation_matches_the_engine(self) -> None:
        head = {
            "kind": "generation",
            "template": "<|im_start|>user\nList the words that carry the sentiment of this "
            "sentence, one per line.\nSentence: {text}<|im_end|>\n"
            "<|im_start|>assistant\n",
            "max_new_tokens": 16,
            "top_logprobs": 2,
            "records": {"mode": "lines", "lowercase": True},
        }
        with tempfile.TemporaryDirectory() as tmp:
            d = pathlib.Path(tmp)
            study = write_study(
                d / "gen.study.json",
                TOKENIZER,
                head,
                {
                    "engine": {"batch_size": 4, "threads": 2},
                    "hf": {"runner": "transformers", "batch_size": 4, "threads": 2},
                    "hf-serial": {"runner": "transformers", "batch_size": 1, "threads": 2},
                },
                capture="none",
                limit=8,
            )
            r = run("run", study, "--all")
            self.assertEqual(r.returncode, 0, r.stderr)
            ledger = d / "gen.ledger"
            runs = runs_by_config(ledger)
            with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True) as db:

                def gens(run_id: int) -> dict[str, tuple]:
                    return {
                        item: (text, finish, tokens, logits, batch)
                        for item, text, finish, tokens, logits, batch in db.execute(
                            "select item, text, finish, tokens, logits, batch from generations "
                            "where run = ?",
                            (run_id,),
                        )
                    }

                eng, hf, serial = gens(runs["engine"]), gens(runs["hf"]), gens(runs["hf-serial"])
            self.assertEqual(len(eng), 8)
            worst = 0.0
            for item, e in eng.items():
                h = hf[item]
                self.assertEqual(e[0], h[0], item)  # the text
                self.assertEqual(e[1], h[1], item)  # why it ended
                self.assertEqual(e[2], h[2], item)  # the tokens
                self.assertEqual(e[4], h[4], item)  # rows in each pass
                n = len(e[3]) // 4
                for a, b in zip(struct.unpack(f"<{n}f", e[3]), struct.unpack(f"<{n}f", h[3])):
                    worst = max(worst, abs(a - b))
                self.assertEqual(set(struct.unpack(f"<{n}i", serial[item][4])), {1})
            self.assertLessEqual(worst, 1e-4)
            print(
                f"generation: engine vs transformers: largest step-logit difference {worst:.3g}",
                file=sys.stderr,
            )


@unittest.skipUnless(MINILM.is_dir(), "the demo models are not in .cache/models")
class TestPinCheck(unittest.TestCase):
    """pin and check for a runner environment: the lock holds the environment's fingerprint and
    interpreter; check starts the runner there again, and names what changed."""

    def test_pin_and_check_a_runner_environment(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            d = pathlib.Path(tmp)
            study = write_study(
                d / "pin.study.json",
                MINILM,
                {"kind": "adapter", "path": str(ADAPTER)},
                {"hf": {"runner": "transformers", "batch_size": 4}},
                capture="hashes",
                limit=12,
            )
            self.assertEqual(run("run", study, "--all").returncode, 0)
            lock = d / "runtime.lock.json"
            r = run("pin", study, "--run", 1, "-o", lock, "--sample", 6)
            self.assertEqual(r.returncode, 0, r.stderr)
            pinned = json.loads(lock.read_text())
            self.assertEqual(pinned["environment"]["kind"], "transformers")
            self.assertEqual(pinned["runner_environment"]["python"], sys.executable)
            r = run("check", lock, "--study", study, "--json")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            result = json.loads(r.stdout)
            self.assertEqual(result["environment_differences"], [])
            self.assertEqual(result["sample"]["changed"], 0)
            # The environment changed since the pin: ATen's kernels chosen otherwise.
            pinned["runner_environment"]["env"] = ["ATEN_CPU_CAPABILITY=default"]
            lock.write_text(json.dumps(pinned))
            r = run("check", lock, "--json")
            self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
            what = {
                x["what"]
                for x in json.loads(r.stdout)["environment_differences"]
                if x["can_move_numbers"]
            }
            self.assertIn("env.ATEN_CPU_CAPABILITY", what)
            self.assertIn("cpu.capability", what)


class TestBadInput(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = pathlib.Path(cls.tmp.name)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def refused(
        self,
        name: str,
        expect: str,
        model: str | pathlib.Path = MINILM,
        environments: dict[str, Any] | None = None,
        env: dict[str, str] | None = None,
        head: dict[str, Any] | None = None,
    ) -> str:
        study = write_study(
            self.dir / f"{name}.study.json",
            model,
            head or {"kind": "adapter", "path": str(ADAPTER)},
            {"hf": {"runner": "transformers"}},
            environments=environments,
        )
        r = run("run", study, "--all", env=env)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        lines = [line for line in r.stderr.splitlines() if line.strip()]
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn(expect, lines[0])
        self.assertFalse((self.dir / f"{name}.ledger").exists(), "a ledger was written")
        return lines[0]

    def test_interpreter_missing(self) -> None:
        self.refused(
            "nopython",
            "no such interpreter",
            environments={"gone": {"python": str(self.dir / "no" / "python")}},
        )

    def test_torch_missing(self) -> None:
        if (
            shutil.which("python3") is None
            or subprocess.run(["python3", "-c", "import torch"], capture_output=True).returncode
            == 0
        ):
            self.skipTest("the system python3 has torch")
        self.refused(
            "notorch",
            "torch is not installed in",
            environments={"bare": {"python": shutil.which("python3")}},
        )

    def test_transformers_too_old(self) -> None:
        fake = self.dir / "old-transformers"
        (fake / "transformers").mkdir(parents=True, exist_ok=True)
        (fake / "transformers" / "__init__.py").write_text('__version__ = "4.20.0"\n')
        line = self.refused(
            "oldtf",
            "transformers 4.20.0",
            environments={"old": {"python": sys.executable, "env": {"PYTHONPATH": str(fake)}}},
        )
        self.assertIn("older than the transformers runner supports", line)

    @unittest.skipUnless(MINILM.is_dir(), "the demo models are not in .cache/models")
    def test_model_folder_unreadable(self) -> None:
        broken = self.dir / "broken-model"
        shutil.copytree(MINILM, broken, dirs_exist_ok=True)
        (broken / "config.json").write_text("{ not json")
        self.refused("broken", "config.json", model=broken)

    @unittest.skipUnless(MINILM.is_dir(), "the demo models are not in .cache/models")
    def test_architecture_unknown(self) -> None:
        odd = self.dir / "odd-model"
        shutil.copytree(MINILM, odd, dirs_exist_ok=True)
        cfg = json.loads((odd / "config.json").read_text())
        cfg["model_type"] = "no-such-architecture"
        (odd / "config.json").write_text(json.dumps(cfg))
        self.refused("odd", '"no-such-architecture" is not known to transformers', model=odd)

    def test_ready_and_env_of_another_type(self) -> None:
        # Refused when the runner starts, before any batch: a "row_hash" read as a string once
        # every batch was recorded raised a raw JSON type error and left the run unsealed.
        python = self.dir / "faulty-python"
        python.write_text(
            f"#!/bin/sh\nexec {shlex.quote(sys.executable)} "
            f"{shlex.quote(str(HERE / 'faulty_runner.py'))}\n"
        )
        python.chmod(0o755)
        for field, value in (("row_hash", 5), ("torch", ["2.5"])):
            with self.subTest(field=field):
                self.refused(
                    f"ready-{field}",
                    f'"ready" line has a "{field}" that is not a string',
                    environments={"faulty": {"python": str(python)}},
                    env={"PROBAUDIT_RUNNER_FAULT": "ready-fields:" + json.dumps({field: value})},
                )
        # An environment fingerprint that is not an object (an array raised a JSON library's
        # type error).
        self.refused(
            "env-array",
            "environment fingerprint is not a JSON object",
            environments={"faulty": {"python": str(python)}},
            env={"PROBAUDIT_RUNNER_FAULT": "env-result:[1, 2]"},
        )

    def test_another_protocol_version(self) -> None:
        # 2: the runner before the run-long kernel trace; 99: one from the future.
        for version in (2, 99):
            with self.subTest(version=version):
                pkg = self.dir / f"runner-{version}" / "probaudit_runner"
                pkg.mkdir(parents=True, exist_ok=True)
                (pkg / "__init__.py").write_text("")
                (pkg / "__main__.py").write_text(
                    'import json, sys\nprint(json.dumps({"event": "ready", "protocol": '
                    f"{version}}}), flush=True)\nsys.stdin.read()\n"
                )
                line = self.refused(
                    f"protocol-{version}",
                    f"speaks protocol {version}",
                    env={"PROBAUDIT_RUNNERS_DIR": str(pkg.parent)},
                )
                self.assertIn("this probaudit speaks 3", line)


@unittest.skipUnless(MINILM.is_dir(), "the demo models are not in .cache/models")
class TestHostileLogits(unittest.TestCase):
    """A runner's reply is outside input: logits that are empty, padding only, another number of
    classes than the head has, or not a string end the run with one sentence and exit 1, never
    a crash, and nothing is sealed."""

    def test_bad_logits_are_refused(self) -> None:
        three = base64.b64encode(struct.pack("<3f", 0.5, -0.5, 1.0)).decode()
        cases = {
            "empty": ("", "0 logits for an item of a head with 2 labels"),
            "padding": ("=" * 16, "logits are not base64"),
            "three classes": (three, "3 logits for an item of a head with 2 labels"),
            "a number": (5, "the runner's reply has no logits"),
        }
        with tempfile.TemporaryDirectory() as tmp:
            d = pathlib.Path(tmp)
            python = d / "faulty-python"
            faulty = HERE / "faulty_runner.py"
            python.write_text(
                f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(faulty))}\n"
            )
            python.chmod(0o755)
            head = {"kind": "adapter", "path": str(ADAPTER)}
            for name, (logits, says) in cases.items():
                with self.subTest(name):
                    study = write_study(
                        d / f"{name.replace(' ', '-')}.study.json",
                        MINILM,
                        head,
                        {"hf": {"runner": "transformers", "batch_size": 4}},
                        environments={"venv": {"python": str(python)}},
                        capture="hashes",
                    )
                    fault = "forward-logits:" + json.dumps(logits)
                    r = run("run", study, "--all", env={"PROBAUDIT_RUNNER_FAULT": fault})
                    self.assertEqual(r.returncode, 1, r.stderr)
                    self.assertIn(says, r.stderr)
                    ledger = d / f"{name.replace(' ', '-')}.ledger"
                    with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True) as db:
                        status = [s for (s,) in db.execute("select status from runs")]
                    self.assertNotIn("finished", status)


@unittest.skipUnless(MINILM.is_dir(), "the demo models are not in .cache/models")
class TestHostileLines(unittest.TestCase):
    """A runner's reply line of any shape (one that never ends, a flood of values, nesting past
    any limit) is refused within the environment's timeout plus 5 s, with probaudit under
    512 MiB of resident memory, and the runner is stopped (issue #53's bar)."""

    def test_hostile_lines_are_bounded(self) -> None:
        timeout = 10
        with tempfile.TemporaryDirectory() as tmp:
            d = pathlib.Path(tmp)
            python = d / "faulty-python"
            python.write_text(
                f"#!/bin/sh\nexec {shlex.quote(sys.executable)} "
                f"{shlex.quote(str(HERE / 'faulty_runner.py'))}\n"
            )
            python.chmod(0o755)
            for shape in ("endless", "values", "deep"):
                with self.subTest(shape):
                    study = write_study(
                        d / f"{shape}.study.json",
                        MINILM,
                        {"kind": "adapter", "path": str(ADAPTER)},
                        {"hf": {"runner": "transformers", "batch_size": 4}},
                        environments={"venv": {"python": str(python), "timeout": timeout}},
                        capture="hashes",
                    )
                    stamp = d / f"{shape}.stamp"
                    env = {
                        **os.environ,
                        "PROBAUDIT_RUNNER_FAULT": f"forward-line:{shape}",
                        "PROBAUDIT_FAULT_STAMP": str(stamp),
                    }
                    r, peak = run_measured([PROBAUDIT, "run", str(study), "--all"], env, True)
                    wall = time.time() - float(stamp.read_text())  # since the line began
                    print(
                        f"runner line {shape}: exit {r.returncode}, {wall:.1f} s, "
                        f"peak {peak / (1 << 20):.0f} MiB",
                        file=sys.stderr,
                    )
                    self.assertEqual(r.returncode, 1, r.stderr)
                    self.assertIn('the transformers runner\'s answer to "forward"', r.stderr)
                    self.assertLessEqual(peak, 512 << 20)
                    self.assertLessEqual(wall, timeout + 5)


@unittest.skipUnless(MINILM.is_dir(), "the demo models are not in .cache/models")
class TestSilentRunners(unittest.TestCase):
    """Every wait for a runner is bounded by its environment's "timeout", and a runner that is no
    longer wanted is stopped, even one that ignores SIGTERM: a runner that never starts, one that
    prints a banner instead of the protocol, one that is ready and then never answers."""

    def test_silent_runners_are_stopped(self) -> None:
        cases = {
            "silent": ("", "gave no answer within 2 s"),
            "banner": ("echo 'Welcome to my Python'", "first line is not JSON"),
            "mute": (
                'echo \'{"event": "ready", "protocol": 3}\'',
                'answer to "env": the child process',
            ),
        }
        head = {"kind": "adapter", "path": str(ADAPTER)}
        with tempfile.TemporaryDirectory() as tmp:
            d = pathlib.Path(tmp)
            for name, (speaks, says) in cases.items():
                with self.subTest(name):
                    pidfile = d / f"{name}.pid"
                    python = d / f"{name}-python"
                    python.write_text(
                        f"#!/bin/sh\ntrap '' TERM\necho $$ > {pidfile}\n{speaks}\nsleep 600\n"
                    )
                    python.chmod(0o755)
                    study = write_study(
                        d / f"{name}.study.json",
                        MINILM,
                        head,
                        {"hf": {"runner": "transformers"}},
                        environments={"venv": {"python": str(python), "timeout": 2}},
                        capture="hashes",
                    )
                    r = run("run", study, "--all")
                    self.assertEqual(r.returncode, 1, r.stderr)
                    self.assertIn(says, r.stderr)
                    pid = int(pidfile.read_text())
                    self.assertFalse(pathlib.Path(f"/proc/{pid}").exists(), f"{name} runs on")


@unittest.skipUnless(MINILM.is_dir(), "the demo models are not in .cache/models")
class TestCrashResumes(unittest.TestCase):
    def test_runner_dies_mid_run_and_the_run_resumes(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            d = pathlib.Path(tmp)
            head = {"kind": "adapter", "path": str(ADAPTER)}
            configs = {"hf": {"runner": "transformers", "batch_size": 4}}
            whole = write_study(d / "whole.study.json", MINILM, head, configs, capture="hashes")
            self.assertEqual(run("run", whole, "--all").returncode, 0)
            # The cut run's runner is tests/faulty_runner.py, named as its environment's python
            # by a shell script: it ends its process at the third forward while
            # PROBAUDIT_RUNNER_FAULT says so, and is the plain runner for the resuming run.
            python = d / "faulty-python"
            faulty = HERE / "faulty_runner.py"
            python.write_text(
                f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {shlex.quote(str(faulty))}\n"
            )
            python.chmod(0o755)
            study = write_study(
                d / "cut.study.json",
                MINILM,
                head,
                configs,
                environments={"venv": {"python": str(python)}},
                capture="hashes",
            )
            r = run("run", study, "--all", env={"PROBAUDIT_RUNNER_FAULT": "exit-after-forward:2"})
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn('ended during "forward"', r.stderr)
            ledger = d / "cut.ledger"
            with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True) as db:
                done, status = db.execute("select items_done, status from runs").fetchone()
            self.assertEqual((done, status), (8, "interrupted"))
            r = run("run", study, "--all")
            self.assertEqual(r.returncode, 0, r.stderr)
            with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True) as db:
                self.assertEqual(db.execute("select count(*) from runs").fetchone()[0], 1)
            cut = records(ledger, runs_by_config(ledger)["hf"])
            full = records(d / "whole.ledger", runs_by_config(d / "whole.ledger")["hf"])
            self.assertEqual(len(cut), 24)
            for item in full:
                self.assertEqual(numbers(cut[item]), numbers(full[item]), item)

    def test_a_stopped_run_keeps_the_batch_in_flight_and_resumes(self) -> None:
        """Ctrl-C during a runner run: the batch the runner was computing when the stop came
        (sent before the previous one was recorded) is recorded too, the run is interrupted
        after whole batches, and the same command resumes it to an uninterrupted run's numbers."""
        import signal

        with tempfile.TemporaryDirectory() as tmp:
            d = pathlib.Path(tmp)
            head = {"kind": "adapter", "path": str(ADAPTER)}
            configs = {"hf": {"runner": "transformers", "batch_size": 4}}
            whole = write_study(
                d / "whole.study.json", MINILM, head, configs, capture="hashes", limit=400
            )
            self.assertEqual(run("run", whole, "--all").returncode, 0)
            study = write_study(
                d / "cut.study.json", MINILM, head, configs, capture="hashes", limit=400
            )
            env = {k: v for k, v in os.environ.items() if k != "PROBAUDIT_ROWHASH_LIB"}
            seen = None
            with subprocess.Popen(
                [PROBAUDIT, "run", str(study), "--all", "--events", "jsonl"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            ) as p:
                try:
                    for line in p.stdout:
                        e = json.loads(line)
                        if seen is None and e.get("event") == "progress" and e["done"] >= 8:
                            seen = e["done"]
                            p.send_signal(signal.SIGINT)
                        if e.get("event") == "run-finished":
                            finished = e
                    p.wait(timeout=300)
                    err = p.stderr.read()
                finally:
                    if p.poll() is None:
                        p.kill()
            self.assertIsNotNone(seen, "the run ended before it could be stopped")
            self.assertEqual(p.returncode, 130, err)
            self.assertEqual(finished["status"], "interrupted")
            done = finished["items_done"]
            self.assertEqual(done % 4, 0)
            # The stop is noticed at the batch whose progress line was read (when the signal lands
            # before that batch's progress call checks for it) or at a later one; the batch then in
            # flight is recorded too, so at least one batch more than the progress line said. (Not
            # + 8: which of the two cases happens depends on scheduling, and under a loaded
            # machine both do.)
            self.assertGreaterEqual(done, seen + 4)
            self.assertLess(done, 400)
            r = run("run", study, "--all", "--events", "jsonl")
            self.assertEqual(r.returncode, 0, r.stderr)
            started = [json.loads(line) for line in r.stdout.splitlines() if '"started"' in line]
            self.assertEqual(started[0]["resumed_items"], done)
            cut = records(d / "cut.ledger", runs_by_config(d / "cut.ledger")["hf"])
            full = records(d / "whole.ledger", runs_by_config(d / "whole.ledger")["hf"])
            self.assertEqual(len(cut), 400)
            for item in full:
                self.assertEqual(numbers(cut[item]), numbers(full[item]), item)


if __name__ == "__main__":
    unittest.main(verbosity=2)
