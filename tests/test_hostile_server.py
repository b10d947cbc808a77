#!/usr/bin/env python3
"""A hostile model server against `probaudit run` at concurrency 64 (issue #53's bar): a reply of
any shape is handled within the study's timeout plus 5 s, and probaudit stays within 512 MiB of
resident memory (its peak, as the kernel counts it for the child: libtorch's code included).

    test_hostile_server.py PROBAUDIT [--report]

The server (here, on 127.0.0.1, stopped when the test ends) answers GET /v1/models as a real
one would and every POST with one shape:
    values    60 MiB of a valid reply made of empty objects (a tree of gigabytes if read)
    endless   a chunked body of spaces that never ends, as fast as the socket takes it
    drip      a chunked body of one byte every half second, forever
    deep      60 MiB of "[": nesting far past any limit
    text      a valid completion whose text is 40 MiB
    manytop   a valid completion whose one token has 10^6 alternatives where 5 were asked
    values-small, manytop-small  the same at 390 KB and 10^4 alternatives: all 64 replies are
              read and parsed at once (the second is a good reply: the run finishes)
With --report it prints one line per shape (wall time, peak memory, the slowest attempt): the
figures of the note on the issue.
"""

import http.server
import json
import pathlib
import socketserver
import sqlite3
import sys
import tempfile
import threading
import time
import unittest
from typing import Any

from peak_memory import run_measured

PROBAUDIT = ""
REPORT = False
CONCURRENCY = 64
TIMEOUT = 4  # the study's timeout of one attempt, seconds
RETRIES = 1
LIMIT_BYTES = 512 << 20
MIB = 1 << 20


def completion(text: str, logprobs: Any = None) -> bytes:
    choice = {"index": 0, "text": text, "finish_reason": "length", "logprobs": logprobs}
    return json.dumps({"model": "m", "choices": [choice]}).encode()


def many_top(n: int) -> bytes:
    top = {f"t{i}": -1.0 - i * 1e-7 for i in range(n)}
    lp = {"tokens": ["a"], "token_logprobs": [-0.1], "top_logprobs": [top], "text_offset": [0]}
    return completion("a", lp)


BODIES = {
    "values": b'{"choices": [' + b"{}," * (20 * MIB) + b"{}]}",
    # Small enough that all 64 are read and parsed together (64 x 390 KB):
    "values-small": b'{"choices": [' + b"{}," * 130_000 + b"{}]}",
    "manytop-small": many_top(10_000),
    "deep": b"[" * (60 * MIB),
    "text": completion("x" * (40 * MIB)),
    "manytop": many_top(1_000_000),
}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    shape = ""
    posts = 0  # the first POST is the preflight's probe: a good reply, so the run starts
    lock = threading.Lock()

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        body = json.dumps({"object": "list", "data": [{"id": "m", "object": "model"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with Handler.lock:
            Handler.posts += 1
            first = Handler.posts == 1
        try:
            if first or self.shape in BODIES:
                body = completion("a") if first else BODIES[self.shape]
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk, pause = (b" " * 65536, 0.0) if self.shape == "endless" else (b" ", 0.5)
            while True:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
                if pause:
                    time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            pass  # probaudit hung up: what it should do


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    request_queue_size = 256


def write_study(d: pathlib.Path, port: int) -> pathlib.Path:
    data = d / "items.jsonl"
    with data.open("w") as f:
        for i in range(CONCURRENCY):
            f.write(json.dumps({"id": f"i{i}", "text": f"item {i}", "label": "a"}) + "\n")
    study = {
        "name": "hostile",
        "model": {
            "endpoint": f"http://127.0.0.1:{port}/v1",
            "name": "m",
            "api": "completions",
            "timeout": TIMEOUT,
            "max_retries": RETRIES,
            "top_logprobs": 5,
        },
        "heads": {
            "g": {
                "kind": "generation",
                "template": "{text}",
                "max_new_tokens": 1,
                "records": {"mode": "lines", "reduction": "most_frequent"},
            }
        },
        "dataset": {"path": str(data), "labels": ["a", "b"]},
        "configs": {"c64": {"concurrency": CONCURRENCY}},
        "reference": "c64",
    }
    path = d / "hostile.study.json"
    path.write_text(json.dumps(study))
    return path


def slowest_attempt(ledger: pathlib.Path) -> float:
    """The longest attempt the ledger recorded (done - sent), seconds; 0 when none."""
    if not ledger.exists():
        return 0.0
    worst = 0.0
    with sqlite3.connect(f"file:{ledger}?mode=ro", uri=True) as db:
        for (text,) in db.execute("select json from requests"):
            for a in json.loads(text).get("attempts", []):
                worst = max(worst, float(a.get("done", 0)) - float(a.get("sent", 0)))
    return worst


class TestHostileServer(unittest.TestCase):
    def run_against(self, shape: str) -> None:
        Handler.shape = shape
        Handler.posts = 0
        server = Server(("127.0.0.1", 0), Handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            with tempfile.TemporaryDirectory() as tmp:
                d = pathlib.Path(tmp)
                study = write_study(d, server.server_address[1])
                start = time.monotonic()
                child, peak = run_measured([PROBAUDIT, "run", str(study), "--all"])
                err = child.stderr
                wall = time.monotonic() - start
                slowest = slowest_attempt(d / "hostile.ledger")
        finally:
            server.shutdown()
            server.server_close()
        if REPORT:
            print(
                f"{shape:13s} exit {child.returncode}  wall {wall:4.1f} s  "
                f"peak {peak / MIB:5.1f} MiB  slowest attempt {slowest:3.1f} s: "
                f"{err.strip().splitlines()[-1][:120] if err.strip() else ''}",
                file=sys.stderr,
            )
        self.assertGreaterEqual(child.returncode, 0, err)  # no crash
        self.assertLessEqual(peak, LIMIT_BYTES, f"{shape}: {peak / MIB:.0f} MiB")
        self.assertLessEqual(slowest, TIMEOUT + 5, shape)
        # Every attempt within the timeout plus 5 s, the retry's backoff and the start between.
        self.assertLessEqual(wall, (RETRIES + 1) * (TIMEOUT + 5) + 10, shape)
        self.assertNotIn("terminate called", err)

    def test_every_shape_is_bounded(self) -> None:
        for shape in (*BODIES, "endless", "drip"):
            with self.subTest(shape):
                self.run_against(shape)


if __name__ == "__main__":
    PROBAUDIT = sys.argv[1]
    REPORT = "--report" in sys.argv
    unittest.main(argv=[sys.argv[0]] + [a for a in sys.argv[2:] if a != "--report"], verbosity=2)
