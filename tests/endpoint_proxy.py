#!/usr/bin/env python3
"""Fault injection in front of a real model server (tests only): an HTTP proxy on 127.0.0.1
that forwards every request to UPSTREAM unchanged, except the ones a fault plan names.

    endpoint_proxy.py UPSTREAM_PORT PLAN_JSON [PORT]

(PORT: listen there, as a server restarted where it was; default: a free port.)

PLAN_JSON maps the 1-based number of a POST request, in the order the proxy receives them,
to one fault:
    "503"       reply 503 with Retry-After: 0 (the request does not reach the server)
    "429"       reply 429 with Retry-After: 0
    "503:S"     reply 503 with Retry-After: S (a server asking for a long wait)
    "reset"     close the connection without a reply
    "truncate"  forward, then send only the first half of the server's reply body
    "garbage"   reply 200 with a body that is not JSON
    "delay:S"   forward after S seconds
    "model:X"   forward, then rewrite the reply's "model" to X
    "401"       reply 401 (a server that refuses the key; GET requests too when it is the default)
    "nologprobs" forward, then remove the log-probabilities from the reply (a server that
                returns none)
    "badserver" forward, with a Server header that is not UTF-8 (GET requests: the default only)
    "swap:A,B"  forward, then swap the log-probabilities of tokens A and B among every token's
                alternatives and in the tokens chosen (a server whose model decides the other way)
    "manytop"   forward, then give every token 100,000 more alternatives than the server did
    "echo"      forward, then echo the request's Authorization header in everything the reply
                carries: its text, its model's system_fingerprint, its Server header (GET
                requests too when it is the default)
    "pad:N"     reply 200 without forwarding: a completion after N MiB of JSON whitespace, sent in
                two halves one second apart (replies that are in flight together)
The key "*" names the fault of every request the plan does not number.
It prints "port N" on its first line once it listens. Standard library only.
"""

import http.client
import http.server
import json
import socketserver
import sys
import threading
import time

UPSTREAM = int(sys.argv[1])
RAW = json.loads(sys.argv[2])
DEFAULT = RAW.pop("*", "")
PLAN = {int(k): v for k, v in RAW.items()}
COUNT = [0]
LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    server_header: str | None = None  # the Server header to send instead of http.server's

    def log_message(self, *args: object) -> None:
        pass

    def version_string(self) -> str:
        return self.server_header if self.server_header is not None else super().version_string()

    def forward(self, method: str, body: bytes | None) -> tuple[int, list[tuple[str, str]], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", UPSTREAM, timeout=600)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        conn.request(method, self.path, body=body, headers=headers)
        r = conn.getresponse()
        data = r.read()
        out = [
            (k, v)
            for k, v in r.getheaders()
            if k.lower() not in ("content-length", "transfer-encoding", "connection")
        ]
        conn.close()
        return r.status, out, data

    def reply(
        self, status: int, headers: list[tuple[str, str]], data: bytes, length: int | None = None
    ) -> None:
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data) if length is None else length))
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def echoed(
        self, headers: list[tuple[str, str]], data: bytes
    ) -> tuple[list[tuple[str, str]], bytes]:
        """The reply with the request's Authorization header in every text it carries."""
        auth = self.headers.get("Authorization", "")
        j = json.loads(data)
        j["system_fingerprint"] = auth
        for choice in j.get("choices", []):
            if "text" in choice:
                choice["text"] += auth
            if isinstance(choice.get("message"), dict):
                choice["message"]["content"] = (choice["message"].get("content") or "") + auth
        for model in j.get("data", []):
            model["owned_by"] = auth
        self.server_header = auth
        return [(k, v) for k, v in headers if k.lower() != "server"], json.dumps(j).encode()

    def do_GET(self) -> None:
        if DEFAULT == "401":
            self.reply(
                401,
                [("Content-Type", "application/json")],
                b'{"error": {"message": "Invalid API key"}}',
            )
            return
        status, headers, data = self.forward("GET", None)
        if DEFAULT == "echo":
            headers, data = self.echoed(headers, data)
        if DEFAULT == "badserver":
            headers = [(k, v) for k, v in headers if k.lower() != "server"]
            self.server_header = "caf\xe9-\xff\xfe"  # sent as Latin-1 bytes: not UTF-8
        self.reply(status, headers, data)

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with LOCK:
            COUNT[0] += 1
            fault = PLAN.get(COUNT[0], DEFAULT)
        if fault in ("503", "429") or fault.startswith("503:"):
            # and closes the connection, as busy servers do: the next try opens a new one
            self.close_connection = True
            self.reply(
                int(fault.split(":")[0]),
                [
                    ("Retry-After", fault.split(":")[1] if ":" in fault else "0"),
                    ("Content-Type", "application/json"),
                    ("Connection", "close"),
                ],
                b'{"error": {"message": "busy"}}',
            )
            return
        if fault.startswith("pad:"):
            data = (
                b" " * (int(float(fault[4:]) * (1 << 20)))
                + json.dumps(
                    {"model": "m", "choices": [{"text": "ok", "finish_reason": "length"}]}
                ).encode()
            )
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            time.sleep(1)
            self.wfile.write(data[len(data) // 2 :])
            self.wfile.flush()
            return
        if fault == "reset":
            self.close_connection = True
            self.connection.close()
            return
        if fault == "401":
            self.reply(
                401,
                [("Content-Type", "application/json")],
                b'{"error": {"message": "Invalid API key"}}',
            )
            return
        if fault == "garbage":
            self.reply(200, [("Content-Type", "application/json")], b"<html>oops</html>")
            return
        if fault.startswith("delay:"):
            time.sleep(float(fault[6:]))
        status, headers, data = self.forward("POST", body)
        if fault == "truncate":
            # Announces the whole length, sends half, closes: a reply cut off in transit.
            self.reply(status, headers, data[: len(data) // 2], length=len(data))
            self.close_connection = True
            self.connection.close()
            return
        if fault.startswith("model:"):
            j = json.loads(data)
            j["model"] = fault[6:]
            data = json.dumps(j).encode()
        if fault == "echo":
            headers, data = self.echoed(headers, data)
        if fault == "manytop":
            j = json.loads(data)
            for choice in j.get("choices", []):
                for top in (choice.get("logprobs") or {}).get("top_logprobs") or []:
                    top.update({f"x{i}": -30.0 - i * 1e-6 for i in range(100000)})
            data = json.dumps(j).encode()
        if fault.startswith("swap:"):
            data = swapped(data, *fault[5:].split(",", 1))
        if fault == "nologprobs":
            j = json.loads(data)
            for choice in j.get("choices", []):
                choice["logprobs"] = None
            data = json.dumps(j).encode()
        self.reply(status, headers, data)


def swapped(data: bytes, a: str, b: str) -> bytes:
    """A completion whose tokens A and B trade their log-probabilities."""
    j = json.loads(data)
    for choice in j.get("choices", []):
        logprobs = choice.get("logprobs") or {}
        for top in logprobs.get("top_logprobs") or []:
            if a in top and b in top:
                top[a], top[b] = top[b], top[a]
        logprobs["tokens"] = [{a: b, b: a}.get(t, t) for t in logprobs.get("tokens") or []]
    return json.dumps(j).encode()


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


Server.allow_reuse_address = True
server = Server(("127.0.0.1", int(sys.argv[3]) if len(sys.argv) > 3 else 0), Handler)
print("port", server.server_address[1], flush=True)
server.serve_forever()
