#!/usr/bin/env python3
"""The transformers runner with a fault injected in front of it, for the tests, as
tests/fault_engine.cpp is for probaudit: the runner package carries no test hooks. It imports
the real runner (runners/python/probaudit_runner, found on PYTHONPATH as probaudit sets it) and
serves the protocol with it, unchanged, except:

  PROBAUDIT_RUNNER_FAULT=exit-after-forward:N
      the process ends (os._exit, status 3: no reply, no clean-up, as a crash would) when the
      request for forward or generate number N + 1 arrives, before the runner computes it
      (requests the runner refuses, for want of a model or of a generation head, do not count).

  PROBAUDIT_RUNNER_FAULT=forward-logits:JSON
      every record of every forward reply carries JSON (any JSON value) as its "logits", as a
      runner with a bug or a hostile one would send them.

  PROBAUDIT_RUNNER_FAULT=forward-line:SHAPE
      the answer to every forward is a line of that shape written to the protocol stream, and
      then nothing: "endless" (characters without a newline, forever), "values" (a reply of
      50 million empty objects, 150 MB), "deep" (100 million "["). With PROBAUDIT_FAULT_STAMP
      set, the time the line starts (time.time()) is written to that file first.

  PROBAUDIT_RUNNER_FAULT=env-result:JSON
      the answer to "env" (the environment fingerprint) is JSON (any JSON value).

  PROBAUDIT_RUNNER_FAULT=ready-fields:JSON-OBJECT
      the runner's "ready" line carries the object's fields in place of its own (a runner that
      says row_hash 5, say).

Without the variable it is the plain runner. A test points a study's environment at it through
a shell script named as the environment's "python" that runs this file with that environment's
interpreter (probaudit starts it as `PYTHON -m probaudit_runner`; the arguments are ignored):

    #!/bin/sh
    exec /path/to/.venv/bin/python /path/to/tests/faulty_runner.py
"""

import json
import os
import pathlib
import sys
import time
from collections.abc import Callable
from typing import Any

# The runner sees the path probaudit gives it (its package, then the environment's own), not
# this tests folder, which Python puts first for a script.
if sys.path and pathlib.Path(sys.path[0]).resolve() == pathlib.Path(__file__).resolve().parent:
    del sys.path[0]

from probaudit_runner import __main__ as runner  # noqa: E402

Handler = Callable[[runner.Server, dict[str, Any]], dict[str, Any]]


def exit_after_forwards(n: int) -> None:
    """Ends the process at the (n + 1)-th forward or generate request (the two count together)
    that the runner would compute."""
    seen = 0

    def counted(handler: Handler, head_kind: str | None = None) -> Handler:
        def wrapper(server: runner.Server, params: dict[str, Any]) -> dict[str, Any]:
            nonlocal seen
            model = server.model
            if model is not None and head_kind in (None, model.kind):
                if seen == n:
                    os._exit(3)
                seen += 1
            return handler(server, params)  # refuses the others itself

        return wrapper

    runner.Server.do_forward = counted(runner.Server.do_forward)
    runner.Server.do_generate = counted(runner.Server.do_generate, "generation")


def forward_logits(value: Any) -> None:
    """Replaces every forward reply's records' logits by `value`."""
    real = runner.Server.do_forward

    def replaced(server: runner.Server, params: dict[str, Any]) -> dict[str, Any]:
        reply = real(server, params)
        for record in reply.get("records", []):
            record["logits"] = value
        return reply

    runner.Server.do_forward = replaced


def forward_line(shape: str) -> None:
    """Answers every forward with a hostile line, then waits to be stopped."""

    def hostile(server: runner.Server, params: dict[str, Any]) -> dict[str, Any]:
        out = server.out.buffer if hasattr(server.out, "buffer") else server.out
        stamp = os.environ.get("PROBAUDIT_FAULT_STAMP")
        if stamp:
            pathlib.Path(stamp).write_text(repr(time.time()))
        if shape == "endless":
            while True:
                out.write(b"x" * (1 << 20))
        elif shape == "values":
            out.write(b'{"id": 1, "result": {"records": [' + b"{}," * 50_000_000 + b"{}]}}\n")
        elif shape == "deep":
            out.write(b"[" * 100_000_000 + b"\n")
        out.flush()
        time.sleep(3600)
        return {}

    runner.Server.do_forward = hostile


def env_result(value: Any) -> None:
    """Answers "env" with `value`."""
    runner.Server.do_env = lambda server, params: value


def ready_fields(fields: dict[str, Any]) -> None:
    """Overrides fields of the runner's "ready" line."""
    real = runner.Server.send

    def replaced(server: runner.Server, message: dict[str, Any]) -> None:
        if message.get("event") == "ready":
            message = {**message, **fields}
        real(server, message)

    runner.Server.send = replaced


def main() -> int:
    fault = os.environ.get("PROBAUDIT_RUNNER_FAULT", "")
    if fault.startswith("exit-after-forward:"):
        exit_after_forwards(int(fault.split(":", 1)[1]))
    elif fault.startswith("forward-logits:"):
        forward_logits(json.loads(fault.split(":", 1)[1]))
    elif fault.startswith("forward-line:"):
        forward_line(fault.split(":", 1)[1])
    elif fault.startswith("env-result:"):
        env_result(json.loads(fault.split(":", 1)[1]))
    elif fault.startswith("ready-fields:"):
        ready_fields(json.loads(fault.split(":", 1)[1]))
    elif fault:
        print(f"faulty_runner: unknown PROBAUDIT_RUNNER_FAULT {fault!r}", file=sys.stderr)
        return 2
    return runner.main()


if __name__ == "__main__":
    sys.exit(main())
