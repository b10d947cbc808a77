#!/usr/bin/env python3
"""`probaudit run --engine ssh://...`: a run on another host through a real OpenSSH server on
127.0.0.1 (tests/ssh_server.py: Debian's sshd, started as root in a temporary folder with a
generated host key and user key, stopped by its pid file).

  - The remote run records what a local run records: per config the same numerics digest, in a
    local ledger that verifies and labels the runs with where they came from.
  - The connection killed mid-run (the ssh client, found as a child of the CLI by its pid) is
    one sentence and exit 1; the same command resumes the remote run where its ledger stopped
    and the local ledger ends up complete.
  - `probaudit diagnose --engine ssh://`: the ladder runs there; its probe runs and the
    diagnosis come into the local ledger, the diagnosis naming the same runs by their ids here
    (which differ from theirs there when the local ledger has runs of its own).
  - Bad input (no server, no remote probaudit, a relative study path, a local ledger of another
    study) is one line, exit 1, and the local ledger is as it was.

    python3 tests/test_remote_engine.py PROBAUDIT FAULT_ENGINE
"""

import hashlib
import json
import os
import pathlib
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest
from collections.abc import Callable
from typing import Any

PROBAUDIT = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 2 else "build/default/bin/probaudit"
FAULT_ENGINE = (
    os.path.abspath(sys.argv.pop(1))
    if len(sys.argv) > 1
    else "build/default/tests/probaudit-fault-engine"
)
HERE = pathlib.Path(__file__).resolve().parent
HOST = "ssh://probaudit-test"

sys.path.insert(0, str(HERE))
from shard_study import numerics, write_study  # noqa: E402


def items_done(ledger: str | pathlib.Path) -> int:
    try:
        with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True) as db:
            return sum(r[0] for r in db.execute("select items_done from runs"))
    except sqlite3.Error:
        return 0


def digest(path: str | pathlib.Path) -> str | None:
    return (
        hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()
        if os.path.exists(path)
        else None
    )


class TestRemoteEngine(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        if os.geteuid() != 0:
            raise unittest.SkipTest("starting sshd needs root (CI runs as root)")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = pathlib.Path(cls.tmp.name)
        cls.server = cls.dir / "sshd"
        cls.addClassCleanup(
            subprocess.run, [sys.executable, HERE / "ssh_server.py", "stop", cls.server]
        )
        r = subprocess.run(
            [sys.executable, HERE / "ssh_server.py", "start", cls.server],
            capture_output=True,
            text=True,
        )
        if r.returncode != 0:
            raise RuntimeError(r.stdout + r.stderr)
        cls.ssh_config = r.stdout.strip()
        cls.study = write_study(cls.dir / "remote")
        cls.one = cls.dir / "one-node.ledger"
        r = subprocess.run(
            [PROBAUDIT, "run", cls.study, "--all", "--ledger", cls.one],
            capture_output=True,
            text=True,
        )
        if r.returncode != 0:
            raise RuntimeError(r.stderr)
        # The "remote" probaudit that takes 150 ms longer per batch, so a run can be cut.
        cls.slow = cls.dir / "slow-probaudit"
        cls.slow.write_text(
            f'#!/bin/sh\nPROBAUDIT_TEST_BATCH_DELAY_MS=150 exec {FAULT_ENGINE} "$@"\n'
        )
        cls.slow.chmod(0o755)
        # The remote probaudit that notes which command each connection ran.
        cls.calls = cls.dir / "calls.log"
        cls.noting = cls.dir / "noting-probaudit"
        cls.noting.write_text(f'#!/bin/sh\necho "$1" >> {cls.calls}\nexec {PROBAUDIT} "$@"\n')
        cls.noting.chmod(0o755)

    def remote(
        self,
        *args: object,
        probaudit: str | pathlib.Path | None = None,
        study: str | pathlib.Path | None = None,
        engine: str = HOST,
        command: tuple[str, ...] = ("run", "--all"),
    ) -> list[str | pathlib.Path]:
        return [
            PROBAUDIT,
            command[0],
            str(study or self.study),
            *command[1:],
            "--engine",
            engine,
            "--ssh-config",
            self.ssh_config,
            "--remote-probaudit",
            str(probaudit or PROBAUDIT),
            *map(str, args),
        ]

    @staticmethod
    def diagnosis(ledger: str | pathlib.Path) -> dict[str, Any]:
        with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True) as db:
            return json.loads(
                db.execute("select json from diagnoses order by id desc limit 1").fetchone()[0]
            )

    @staticmethod
    def run_digests(ledger: str | pathlib.Path) -> dict[int, tuple[str, str]]:
        """Run id -> (config or probe label, numerics digest)."""
        with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True) as db:
            return {
                i: (c if k == "study" else lab, n)
                for i, c, k, lab, n in db.execute(
                    "select id, config_name, kind, label, numerics_sha256 from runs "
                    "where status = 'finished'"
                )
            }

    @staticmethod
    def run_ids(d: dict[str, Any]) -> list[int]:
        ids = [d["reference_run"]] + [c["run"] for c in d["configs"] if "run" in c]
        ids += [x for r in d["table"] for x in (r["run_a"], r["run_b"])]
        # The cause rung's passes: each localisation's baselines and every pass.
        for c in d.get("causes", []):
            if "localization" in c:
                loc = c["localization"]
                ids += [loc["probe_a"], loc["probe_b"], *loc["probes"]]
        return ids

    @staticmethod
    def without_probe_ids(d: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for c in d.get("causes", []):
            c = dict(c)
            if "localization" in c:
                c["localization"] = {
                    k: v
                    for k, v in c["localization"].items()
                    if k not in ("probe_a", "probe_b", "probes")
                }
            out.append(c)
        return out

    def test_diagnose_there_brings_its_probes_and_diagnosis_here(self) -> None:
        remote_ledger = self.dir / "remote" / "diagnosed.ledger"
        local = self.dir / "diagnosed.ledger"
        # The local ledger has a run of its own: the runs coming in get other ids here.
        r = subprocess.run(
            [PROBAUDIT, "run", self.study, "--config", "b8", "--ledger", local],
            capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run(
            self.remote("--ledger", local, "--remote-ledger", remote_ledger),
            capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run(
            self.remote(
                "--ledger",
                local,
                "--remote-ledger",
                remote_ledger,
                command=("diagnose", "--sample", "16"),
            ),
            capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Diagnosis of study", r.stdout)  # printed here, as a local diagnosis is
        self.assertIn("probe ", r.stderr)  # each probe reported as it runs there
        there, here = self.diagnosis(remote_ledger), self.diagnosis(local)
        runs_there, runs_here = self.run_digests(remote_ledger), self.run_digests(local)
        # Every run the diagnosis names is, here, the same run (its label and numbers) as there.
        ids_there, ids_here = self.run_ids(there), self.run_ids(here)
        self.assertEqual(len(ids_there), len(ids_here))
        self.assertGreater(len(ids_there), 4)
        self.assertNotEqual(ids_there, ids_here)  # renumbered: the test sees the mapping
        for a, b in zip(ids_there, ids_here):
            self.assertEqual(runs_there[a], runs_here[b], (a, b))
        mapping = dict(zip(ids_there, ids_here))
        self.assertEqual(len(here["ladder"]), len(there["ladder"]))
        self.assertEqual(len(here["ladder"]), 5)
        self.assertEqual(here["ladder"][4]["step"], "cause")
        self.assertTrue(any("localization" in c for c in there["causes"]))
        self.assertEqual(self.without_probe_ids(here), self.without_probe_ids(there))
        for step_there, step_here in zip(there["ladder"], here["ladder"]):
            expected = step_there["finding"]
            for old in re.findall(r"\brun (\d+)\b", expected):
                self.assertIn(int(old), mapping, expected)
            self.assertEqual(
                re.sub(r"\brun (\d+)\b", lambda m: f"run {mapping[int(m[1])]}", expected),
                step_here["finding"],
            )
        self.assertEqual(
            {
                k: v
                for k, v in here.items()
                if k not in ("ladder", "table", "configs", "reference_run", "causes")
            },
            {
                k: v
                for k, v in there.items()
                if k not in ("ladder", "table", "configs", "reference_run", "causes")
            },
        )
        self.assertEqual(
            subprocess.run([PROBAUDIT, "verify", local], capture_output=True).returncode, 0
        )
        # The workbench's form: JSON events, ending with the local ledger and the head.
        r = subprocess.run(
            self.remote(
                "--ledger",
                self.dir / "fresh.ledger",
                "--remote-ledger",
                remote_ledger,
                "--events",
                "jsonl",
                command=("diagnose", "--sample", "16"),
            ),
            capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        events = [json.loads(line) for line in r.stdout.splitlines()]
        self.assertEqual(
            events[-1], {"event": "done", "ledger": str(self.dir / "fresh.ledger"), "head": "mean"}
        )
        self.assertIn("started", {e["event"] for e in events})
        self.assertNotIn("snapshot", {e["event"] for e in events})
        # No local ledger before: the copy is it, its diagnosis the remote one as it is.
        self.assertEqual(self.diagnosis(self.dir / "fresh.ledger"), self.diagnosis(remote_ledger))

    def test_diagnose_there_refuses_what_a_local_diagnose_refuses(self) -> None:
        local = self.dir / "refused-diagnosis.ledger"
        r = subprocess.run(
            self.remote(
                "--ledger", local, "--head", "nope", command=("diagnose", "--sample", "16")
            ),
            capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 1)
        self.assertIn('no head variant "nope"', r.stderr)
        self.assertFalse(local.exists())

    def test_remote_run_records_what_a_local_run_records(self) -> None:
        local = self.dir / "local.ledger"
        remote_ledger = self.dir / "remote" / "first.ledger"
        r = subprocess.run(
            self.remote("--ledger", local, "--remote-ledger", remote_ledger, probaudit=self.noting),
            capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("3 new finished runs of ssh://probaudit-test:", r.stderr)
        # One connection: the run sent its ledger's copy back itself (no `snapshot` after it),
        # and removed it there.
        self.assertEqual(self.calls.read_text().split(), ["run"])
        self.assertEqual(list((self.dir / "remote").glob("first.ledger.copy-*")), [])
        self.assertEqual(numerics(local), numerics(self.one))
        self.assertEqual(len(numerics(local)), 3)
        self.assertEqual(
            subprocess.run([PROBAUDIT, "verify", local], capture_output=True).returncode, 0
        )
        with sqlite3.connect(local) as db:
            meta = dict(db.execute("select key, value from meta"))
        self.assertEqual(meta["recorded_on"], "ssh://probaudit-test")
        # Again: nothing new is recorded there, nothing imported twice here.
        r = subprocess.run(
            self.remote("--ledger", local, "--remote-ledger", remote_ledger),
            capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("already recorded", r.stderr)
        self.assertIn("0 new finished runs", r.stderr)
        with sqlite3.connect(local) as db:
            self.assertEqual(db.execute("select count(*) from runs").fetchone()[0], 3)

    def test_dropped_connection_is_reported_and_the_run_resumes(self) -> None:
        local = self.dir / "resumed.ledger"
        remote_ledger = self.dir / "remote" / "cut.ledger"

        # drop: the connection (the CLI's ssh child, by its pid), not the remote run
        def drop(cli: subprocess.Popen) -> None:
            ssh = [
                int(p) for p in os.listdir("/proc") if p.isdigit() and self.parent_of(p) == cli.pid
            ]
            self.assertEqual(len(ssh), 1)
            os.kill(ssh[0], 9)

        code, err = self.cut_short(local, remote_ledger, drop)
        self.assertEqual(code, 1)
        self.assertIn("the connection dropped mid-run", err)
        self.assertIn("run the same command again", err)
        # the run's start, what its sample size can show, then the one sentence
        self.assertEqual(err.count("\n"), 3, err)
        self.assertTrue(err.splitlines()[1].startswith("planning: 37 items"), err)
        self.assertFalse(local.exists())
        self.assertLess(items_done(remote_ledger), 3 * 37)
        self.resume(local, remote_ledger)

    def test_cancel_stops_the_remote_run_and_the_same_command_resumes_it(self) -> None:
        local = self.dir / "cancelled.ledger"
        remote_ledger = self.dir / "remote" / "cancelled.ledger"
        # The workbench's Cancel:
        code, err = self.cut_short(
            local, remote_ledger, lambda cli: cli.send_signal(signal.SIGTERM)
        )
        self.assertEqual(code, 130, err)
        self.assertIn("stopped: the run on ssh://probaudit-test keeps every committed batch", err)
        self.assertFalse(local.exists())
        # The remote run stops too (at its next event), keeping what it committed.
        before = items_done(remote_ledger)
        time.sleep(1.0)
        self.assertEqual(items_done(remote_ledger), before)
        self.assertLess(before, 3 * 37)
        self.resume(local, remote_ledger)

    def test_snapshot_is_a_verified_copy_and_never_overwrites(self) -> None:
        copy = self.dir / "copy.ledger"
        r = subprocess.run(
            [PROBAUDIT, "snapshot", self.one, "-o", copy], capture_output=True, text=True
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(numerics(copy), numerics(self.one))
        self.assertEqual(
            subprocess.run([PROBAUDIT, "verify", copy], capture_output=True).returncode, 0
        )
        before = digest(copy)
        r = subprocess.run(
            [PROBAUDIT, "snapshot", self.one, "-o", copy], capture_output=True, text=True
        )
        self.assertEqual(r.returncode, 1)
        self.assertIn("exists already", r.stderr)
        self.assertEqual(digest(copy), before)

    def cut_short(
        self,
        local: pathlib.Path,
        remote_ledger: pathlib.Path,
        cut: Callable[[subprocess.Popen], None],
    ) -> tuple[int, str]:
        """Starts a slow remote run, calls cut(cli) once it has committed a batch; returns the
        CLI's exit code and standard error."""
        cli = subprocess.Popen(
            self.remote("--ledger", local, "--remote-ledger", remote_ledger, probaudit=self.slow),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            end = time.monotonic() + 60
            while items_done(remote_ledger) == 0 and time.monotonic() < end:
                time.sleep(0.05)
            self.assertGreater(items_done(remote_ledger), 0)
            cut(cli)
            _, err = cli.communicate(timeout=60)
        finally:
            if cli.poll() is None:
                cli.kill()
        return cli.returncode, err

    def resume(self, local: pathlib.Path, remote_ledger: pathlib.Path) -> None:
        """The same command at full speed, once the cut run's process has let go of its ledger;
        it resumes and the local ledger ends up with the one-node run's numbers."""
        end = time.monotonic() + 30
        while True:
            r = subprocess.run(
                self.remote("--ledger", local, "--remote-ledger", remote_ledger),
                capture_output=True,
                text=True,
            )
            if r.returncode == 0 or time.monotonic() > end or "another process" not in r.stderr:
                break
            time.sleep(0.5)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("resuming after", r.stderr)
        self.assertEqual(numerics(local), numerics(self.one))

    @staticmethod
    def parent_of(pid: str | int) -> int:
        try:
            with open(f"/proc/{pid}/stat") as f:
                return int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return -1

    def test_bad_input(self) -> None:
        local = self.dir / "bad.ledger"
        cases = [
            (self.remote("--ledger", local, engine=HOST + ":1"), "cannot run the engine there"),
            (
                self.remote("--ledger", local, probaudit="/nonexistent/probaudit"),
                "cannot be run there",
            ),
            (self.remote("--ledger", local, study="remote/s.study.json"), "give it absolute"),
            (
                self.remote("--ledger", local, engine="http://probaudit-test"),
                "not an ssh:// address",
            ),
        ]
        for cmd, why in cases:
            r = subprocess.run(cmd, capture_output=True, text=True)
            self.assertEqual(r.returncode, 1, cmd)
            self.assertIn(why, r.stderr)
            self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
            self.assertFalse(local.exists())

    def test_hostile_remote_lines(self) -> None:
        """What the remote side prints is outside input: an event nested 300,000 deep (local
        lines have a nesting limit; remote ones crashed the CLI), an event named by a number,
        a snapshot without its size and an error message with terminal escapes and a line break
        end the run with exit 1, the message's control characters escaped."""
        deep = '{"event":"warning","x":' + "[" * 300000 + "]" * 300000 + "}"
        lines = [
            deep,
            '{"event":5}',
            '{"event":"snapshot","bytes":"many"}',
            json.dumps({"event": "error", "message": "\x1b[2Jboom\nledger verified"}),
        ]
        remote = self.dir / "hostile-probaudit"
        payload = self.dir / "hostile-lines.txt"
        payload.write_text("\n".join(lines) + "\n")
        remote.write_text(f"#!/bin/sh\ncat {payload}\nexit 1\n")
        remote.chmod(0o755)
        local = self.dir / "hostile.ledger"
        r = subprocess.run(
            self.remote("--ledger", local, probaudit=remote), capture_output=True, timeout=120
        )
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertNotIn(b"\x1b", r.stderr)
        self.assertIn(b"\\x1b[2Jboom\\x0aledger verified", r.stderr)
        self.assertFalse(any(line.startswith(b"ledger verified") for line in r.stderr.split(b"\n")))
        self.assertFalse(local.exists())

    def test_a_ledger_of_another_study_is_left_as_it_was(self) -> None:
        other = write_study(self.dir / "other", name="o")
        with open(other.parent / "data.jsonl", "a") as f:
            f.write(json.dumps({"id": "extra", "text": "one more", "label": 1}) + "\n")
        local = self.dir / "other.ledger"
        r = subprocess.run(
            [PROBAUDIT, "run", other, "--config", "ref", "--ledger", local],
            capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        before = digest(local)
        r = subprocess.run(
            self.remote("--ledger", local, "--remote-ledger", self.dir / "remote" / "third.ledger"),
            capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 1)
        self.assertIn("other items", r.stderr)
        self.assertEqual(digest(local), before)

    def test_runs_come_into_an_existing_ledger_labelled_with_their_host(self) -> None:
        local = self.dir / "mixed.ledger"
        r = subprocess.run(
            [PROBAUDIT, "run", self.study, "--config", "b8", "--ledger", local],
            capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run(
            self.remote(
                "--ledger", local, "--remote-ledger", self.dir / "remote" / "fourth.ledger"
            ),
            capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 0, r.stderr)
        with sqlite3.connect(local) as db:
            runs = db.execute("select config_name, label from runs order by id").fetchall()
        self.assertEqual(
            runs,
            [
                ("b8", ""),
                ("ref", "imported from ssh://probaudit-test"),
                ("b4", "imported from ssh://probaudit-test"),
                ("b8", "imported from ssh://probaudit-test"),
            ],
        )
        self.assertEqual(
            subprocess.run([PROBAUDIT, "verify", local], capture_output=True).returncode, 0
        )


if __name__ == "__main__":
    unittest.main(verbosity=2)
