#!/usr/bin/env python3
"""Time to first token through Braid against straight to the same server.

Starts braid-server against the real llama.cpp peer (tests/llm-peer.sh),
or with --mock against an instant OpenAI-compatible server in this script
(the model's own time out of the way: what is left is Braid's),
captures once, through a small recording proxy, the exact request Braid
sends for a one-line question in a new conversation, then alternates N
times: that same body straight to the peer, and the question through
Braid's HTTP API (POST /api/contexts/{id}/messages, a new conversation each
time), timing the first streamed content of each. Prints the medians and
Braid's overhead. Only 127.0.0.1 is used.

    scripts/ttft.py [--server-bin PATH] [--runs 10] [--mock]

The peer must be up (tests/llm-peer.sh start) unless --mock. See
docs/PERFORMANCE.md.
"""
import argparse
import http.client
import http.server
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

TOKEN = "ttft-token-0123456789abcdef"
QUESTION = "Say hello in one short sentence."


def first_content(conn, method, path, body, headers, is_first):
    """Sends the request; returns seconds until is_first(line) holds."""
    t0 = time.perf_counter()
    conn.request(method, path, body=body, headers=headers)
    resp = conn.getresponse()
    if resp.status >= 300:
        raise RuntimeError(f"{path}: HTTP {resp.status}: {resp.read()[:300]!r}")
    while True:
        line = resp.fp.readline()
        if not line:
            raise RuntimeError(f"{path}: the stream ended before any content")
        if is_first(line.decode("utf-8", "replace").strip()):
            elapsed = time.perf_counter() - t0
            # Hanging up stops the generation: the next run finds the
            # model free.
            resp.close()
            conn.close()
            return elapsed


def settle(pu, body):
    """Waits until the peer has finished what it was writing. It serves one
    request at a time and goes on with an answer after the client hangs up
    (--interrupt_requests false), so a one-token request returns only once
    the previous answer is done: the next measurement finds the model free.
    The probe is the measured request cut to one token, so the model has
    just read the same prompt (as it would have in a conversation) and
    both sides start from the same cache."""
    conn = http.client.HTTPConnection(pu.hostname, pu.port, timeout=300)
    probe = dict(json.loads(body), max_tokens=1, stream=False)
    probe.pop("stream_options", None)
    probe = json.dumps(probe)
    conn.request("POST", f"{pu.path}/chat/completions", body=probe, headers={"Content-Type": "application/json"})
    conn.getresponse().read()
    conn.close()


def peer_has_content(line):
    if not line.startswith("data: ") or line == "data: [DONE]":
        return False
    delta = json.loads(line[6:])["choices"][0].get("delta", {})
    return bool(delta.get("content"))


def braid_has_content(line):
    return line == "event: content_delta"


class Recorder(http.server.BaseHTTPRequestHandler):
    """Forwards to the peer and keeps the last chat request's body."""

    upstream = None
    captured = None

    def do_GET(self):
        self.forward(None)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path.endswith("/chat/completions"):
            Recorder.captured = body
        self.forward(body)

    def forward(self, body):
        u = urllib.parse.urlparse(Recorder.upstream)
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
        conn.request(self.command, self.path, body=body, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        data = resp.read()
        self.send_response(resp.status)
        for k, v in resp.getheaders():
            if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class Instant(http.server.BaseHTTPRequestHandler):
    """An OpenAI-compatible server that answers at once: a role chunk,
    "Hello", [DONE]."""

    protocol_version = "HTTP/1.1"

    def setup(self):
        # Like real servers (uvicorn, llama.cpp): small writes leave at
        # once, not after the client's delayed ACK.
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def do_GET(self):
        body = json.dumps({"object": "list", "data": [{"id": "smollm2-135m", "object": "model"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        chunk = lambda delta, finish=None: "data: " + json.dumps({"id": "x", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}) + "\n\n"
        body = (chunk({"role": "assistant"}) + chunk({"content": "Hello"}) + chunk({}, "stop") + "data: [DONE]\n\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start_braid(binary, base_url, data):
    env = dict(os.environ, BRAID_SERVER_TOKEN=TOKEN, BRAID_NO_KEYCHAIN="1")
    args = [binary, "--bind", "127.0.0.1:0", "--db", os.path.join(data, "braid.db"), "--base-url", base_url, "--model", "smollm2-135m"]
    p = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=data)
    for line in p.stdout:
        if "running at" in line:
            u = urllib.parse.urlparse(line.split("running at", 1)[1].strip())
            return p, u.port
    raise RuntimeError("braid-server did not start")


def new_context(port):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    # Titled: an untitled conversation asks the model for a title after
    # its first answer, which would keep the peer busy for the next run.
    conn.request("POST", "/api/contexts", body='{"title": "ttft"}', headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    return json.loads(conn.getresponse().read())["id"]


def ask_braid(port, ctx):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    body = json.dumps({"message": {"body": {"type": "text", "role": "user", "parts": [{"kind": "text", "text": QUESTION}]}}})
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    took = first_content(conn, "POST", f"/api/contexts/{ctx}/messages", body, headers, braid_has_content)
    # The answer would go on in the background and keep the model busy
    # for the next measurement.
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request("POST", f"/api/contexts/{ctx}/cancel", headers=headers)
    conn.getresponse().read()
    return took


def main():
    ap = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
    ap.add_argument("--server-bin", default=os.path.join(target, "release", "braid-server"))
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--mock", action="store_true", help="an instant server in this script instead of the peer")
    a = ap.parse_args()
    if a.mock:
        instant = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Instant)
        threading.Thread(target=instant.serve_forever, daemon=True).start()
        peer = f"http://127.0.0.1:{instant.server_address[1]}/v1"
    else:
        peer = subprocess.run([os.path.join(root, "tests", "llm-peer.sh"), "url"], capture_output=True, text=True, check=True).stdout.strip()
    pu = urllib.parse.urlparse(peer)

    # 1. What Braid sends, recorded once through the proxy.
    Recorder.upstream = f"{pu.scheme}://{pu.netloc}"
    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as d:
        p, port = start_braid(a.server_bin, f"http://127.0.0.1:{proxy.server_address[1]}{pu.path}", d)
        try:
            ask_braid(port, new_context(port))
        finally:
            p.terminate()
            p.wait()
    proxy.shutdown()
    body = Recorder.captured
    if body is None:
        sys.exit("braid-server sent no chat request")

    # 2. Alternating: the same body straight to the peer, and through Braid.
    direct, braid = [], []
    with tempfile.TemporaryDirectory() as d:
        p, port = start_braid(a.server_bin, peer, d)
        try:
            ask_braid(port, new_context(port))  # warm: connection, tokenizer tables, model cache
            for _ in range(a.runs):
                if not a.mock:
                    settle(pu, body)
                conn = http.client.HTTPConnection(pu.hostname, pu.port, timeout=120)
                direct.append(first_content(conn, "POST", f"{pu.path}/chat/completions", body, {"Content-Type": "application/json"}, peer_has_content))
                if not a.mock:
                    settle(pu, body)
                braid.append(ask_braid(port, new_context(port)))
        finally:
            p.terminate()
            p.wait()
    md, mb = statistics.median(direct) * 1000, statistics.median(braid) * 1000
    print(f"runs: {a.runs} each, alternating; {'an instant mock server' if a.mock else 'the llama.cpp peer'}; request body {len(body)} bytes; binary: {a.server_bin}")
    print(f"straight to the server: median {md:.1f} ms (min {min(direct) * 1000:.1f}, max {max(direct) * 1000:.1f})")
    print(f"through Braid:          median {mb:.1f} ms (min {min(braid) * 1000:.1f}, max {max(braid) * 1000:.1f})")
    print(f"Braid adds:             {mb - md:.1f} ms (ratio {mb / md:.2f})")


if __name__ == "__main__":
    main()
