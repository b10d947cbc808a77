"""`PYTHON -m probaudit_runner`: serves the runner protocol (docs/runner-protocol.md) on
stdin/stdout, one JSON object per line. Every failure of a request is one "error" line with the
request's id; the runner then serves the next request. What it cannot survive (torch or
transformers missing or too old) is one "error" line in place of "ready", and exit status 1."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, TextIO

from . import MIN_TORCH, MIN_TRANSFORMERS, PROTOCOL, VERSION

if TYPE_CHECKING:
    from .model import LoadedModel
    from .trace import RunTrace


def _version(text: str) -> tuple[int, ...]:
    out = []
    for part in text.split("+")[0].split(".")[:2]:
        digits = "".join(c for c in part if c.isdigit())
        out.append(int(digits or 0))
    return tuple(out)


def _requirements() -> str | None:
    """None when torch and transformers are here and new enough, else the sentence why not."""
    where = sys.executable
    for name, minimum in (("torch", MIN_TORCH), ("transformers", MIN_TRANSFORMERS)):
        try:
            mod = __import__(name)
        except ImportError:
            return f"{name} is not installed in {where} (the transformers runner needs it)"
        if _version(mod.__version__) < minimum:
            return (
                f"{name} {mod.__version__} in {where} is older than the transformers runner "
                f"supports ({'.'.join(map(str, minimum))} or newer)"
            )
    return None


class Server:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.model: LoadedModel | None = None
        self.model_key: str | None = None
        self.trace: RunTrace | None = None  # the running one, between trace_start and trace_stop

    def send(self, obj: dict[str, Any]) -> None:
        self.out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self.out.flush()

    def serve(self, lines: Iterable[str]) -> None:
        from .model import RunnerError

        for line in lines:
            if not line.strip():
                continue
            rid = None
            try:
                req = json.loads(line)
                if not isinstance(req, dict) or not isinstance(req.get("method"), str):
                    raise RunnerError("a request is a JSON object with a method")
                rid = req.get("id")
                params = req.get("params") or {}
                if not isinstance(params, dict):
                    raise RunnerError("params must be an object")
                method = req["method"]
                if method == "shutdown":
                    self.send({"id": rid, "event": "result", "result": {}})
                    return
                handler = getattr(self, "do_" + method, None)
                if handler is None:
                    raise RunnerError(f'unknown method "{method}"')
                self.send({"id": rid, "event": "result", "result": handler(params)})
            except RunnerError as e:
                self.send({"id": rid, "event": "error", "message": str(e)})
            except (ValueError, KeyError, TypeError) as e:
                self.send({"id": rid, "event": "error", "message": f"bad request: {e}"})

    def do_env(self, params: dict[str, Any]) -> dict[str, Any]:
        from probaudit_lock import fingerprint

        return fingerprint.collect()

    def do_load(self, p: dict[str, Any]) -> dict[str, Any]:
        import torch

        from .model import DTYPES, LoadedModel, RunnerError

        cfg = p["config"]
        device = cfg.get("device", "cpu")
        if device.startswith("cuda") and not torch.cuda.is_available():
            raise RunnerError(f"device {device}: torch in {sys.executable} sees no CUDA device")
        if cfg.get("dtype", "float32") not in DTYPES:
            raise RunnerError(f'dtype "{cfg.get("dtype")}" is not one the runner has')
        torch.set_num_threads(int(cfg.get("threads", 1)))
        torch.use_deterministic_algorithms(bool(cfg.get("deterministic", False)))
        torch.backends.cuda.matmul.allow_tf32 = bool(cfg.get("tf32", False))
        torch.backends.cudnn.allow_tf32 = bool(cfg.get("tf32", False))
        torch.backends.cudnn.benchmark = bool(cfg.get("cudnn_benchmark", False))
        key = json.dumps(
            [
                p["model"],
                p["head"],
                cfg.get("dtype", "float32"),
                device,
                cfg.get("attention", "math"),
            ],
            sort_keys=True,
        )
        if key != self.model_key:
            self.model = None
            self.model = LoadedModel(
                p["model"],
                p["head"],
                cfg.get("dtype", "float32"),
                device,
                cfg.get("attention", "math"),
            )
            self.model_key = key
        m = self.model
        return {
            "labels": m.labels,
            "model_type": m.model.config.model_type,
            "hidden_states": m.model.config.num_hidden_layers + 1,
            "hidden_size": m.model.config.hidden_size,
        }

    def _loaded(self) -> LoadedModel:
        from .model import RunnerError

        if self.model is None:
            raise RunnerError("no model is loaded (send load first)")
        return self.model

    def do_tokenize(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"items": self._loaded().tokenize(p["texts"], int(p.get("max_length", 0)))}

    def do_generate(self, p: dict[str, Any]) -> dict[str, Any]:
        from .model import Generation, RunnerError

        m = self._loaded()
        if m.kind != "generation":
            raise RunnerError("the loaded head is not a generation head")
        gen = Generation(
            m,
            int(p.get("max_new_tokens", 32)),
            list(p.get("stop", [])),
            bool(p.get("stop_at_eos", True)),
            int(p.get("top_logprobs", 0)),
        )
        return {"generations": gen.run(p["prompts"])}

    def do_forward(self, p: dict[str, Any]) -> dict[str, Any]:
        m = self._loaded()
        args = (
            p["rows"],
            p.get("padding_side", "right"),
            p.get("pad_to", "longest"),
            int(p.get("pad_to_n", 0)),
            p.get("capture", "hashes"),
        )
        if self.trace is None:
            return {"records": m.forward(*args)}
        return {"records": self.trace.forward(lambda: m.forward(*args))}

    def do_trace_start(self, p: dict[str, Any]) -> dict[str, Any]:
        """Starts the kernel trace of the forwards to come; one never stopped (its run ended in
        an error) is dropped."""
        from .trace import HARVEST, RunTrace

        if self.trace is not None:
            self.trace.result()
        self.trace = RunTrace(self._loaded().device, int(p.get("harvest", HARVEST)))
        return self._counted_by(self.trace)

    @staticmethod
    def _counted_by(trace: RunTrace) -> dict[str, Any]:
        out = {"ops_from": trace.ops_from}
        if trace.ops_from == "profiler":
            out["why"] = trace.why_profiler
        return out

    def do_trace_stop(self, p: dict[str, Any]) -> dict[str, Any]:
        from .model import RunnerError

        if self.trace is None:
            raise RunnerError("no kernel trace is running (send trace_start first)")
        trace, self.trace = self.trace, None
        return {"trace": trace.result(), **self._counted_by(trace)}


def read_ahead(stream: Iterable[str]) -> Iterator[str]:
    """The lines of `stream`, read by a thread of their own as they come: probaudit sends a
    run's next forward while this one computes, and a request or reply larger than a pipe holds
    must never leave both sides waiting to write."""
    import queue
    import threading

    lines = queue.SimpleQueue()

    def read() -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, name="probaudit-requests", daemon=True).start()
    while (line := lines.get()) is not None:
        yield line


def main() -> int:
    out = sys.stdout
    sys.stdout = sys.stderr  # whatever a library prints never reaches the protocol stream
    problem = _requirements()
    if problem:
        out.write(json.dumps({"event": "error", "message": problem}) + "\n")
        out.flush()
        return 1
    import torch
    import transformers

    from . import rowhash

    server = Server(out)
    server.send(
        {
            "event": "ready",
            "protocol": PROTOCOL,
            "runner": "transformers",
            "runner_version": VERSION,
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "python": sys.version.split()[0],
            "row_hash": "native" if rowhash.native() is not None else "numpy",
        }
    )
    server.serve(read_ahead(sys.stdin))
    return 0


if __name__ == "__main__":
    sys.exit(main())
