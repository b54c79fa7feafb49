#!/usr/bin/env python3
"""The prompt cache Braid's stable prefix lets a server keep.

A two-turn conversation goes through braid-server to the real llama.cpp
peer (tests/llm-peer.sh) through a recording proxy, so the exact bodies of
turn 1 and turn 2 are known; turn 2 must begin with every message of turn
1, byte for byte. Then, alternating N times, straight to the peer: turn 1's
prompt is read (the server keeps its cache), and turn 2 is timed to its
first token, either as Braid sent it or with one byte of the system prompt
changed (the cache is then of no use). Prints the medians and the ratio.
Only 127.0.0.1 is used.

    scripts/prefix-cache.py [--server-bin PATH] [--runs 10]

The peer must be up (tests/llm-peer.sh start). See docs/PERFORMANCE.md.
"""
import argparse
import http.client
import http.server
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttft  # noqa: E402 (the same proxy, peer probe and timing)

# A first question long enough that reading it again is what a cache saves.
FIRST = "Here are my notes on the migration; keep them in mind.\n" + "\n".join(
    f"Step {i}: move the billing table {i} to the new cluster, check the row counts, then switch reads over." for i in range(60)
) + "\nWhat is the first step?"
SECOND = "And the last step?"


class Recorder(ttft.Recorder):
    """The proxy, keeping every chat request's body in order."""

    bodies = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.path.endswith("/chat/completions"):
            Recorder.bodies.append(body)
        self.forward(body)


def command(port, payload):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    headers = {"Authorization": f"Bearer {ttft.TOKEN}", "Content-Type": "application/json"}
    conn.request("POST", "/api/command", body=json.dumps(payload), headers=headers)
    resp = conn.getresponse()
    data = resp.read()
    if resp.status >= 300:
        raise RuntimeError(f"{payload['type']}: HTTP {resp.status}: {data[:300]!r}")
    return json.loads(data or b"null")


def ask_and_wait(port, ctx, text):
    """Sends `text` and waits for the answer to be stored (the peer is
    real: minutes at most)."""
    message = {"body": {"type": "text", "role": "user", "parts": [{"kind": "text", "text": text}]}}
    command(port, {"type": "send_message", "context_id": ctx, "message": message})
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        state = command(port, {"type": "load_context", "context_id": ctx})["summary"]["status"]["state"]
        if state in ("idle", "failed"):
            return state
        time.sleep(0.2)
    raise RuntimeError("no answer in 10 minutes")


def one_byte_changed(body):
    """The same request with the system prompt's first letter changed."""
    b = json.loads(body)
    first = b["messages"][0]
    text = first["content"] if isinstance(first["content"], str) else first["content"][0]["text"]
    changed = ("X" if text[0] != "X" else "Y") + text[1:]
    if isinstance(first["content"], str):
        first["content"] = changed
    else:
        first["content"][0]["text"] = changed
    return json.dumps(b).encode()


def main():
    ap = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
    ap.add_argument("--server-bin", default=os.path.join(target, "release", "braid-server"))
    ap.add_argument("--runs", type=int, default=10)
    a = ap.parse_args()
    peer = subprocess.run([os.path.join(root, "tests", "llm-peer.sh"), "url"], capture_output=True, text=True, check=True).stdout.strip()
    pu = urllib.parse.urlparse(peer)

    # The parent class forwards to its own `upstream`.
    ttft.Recorder.upstream = f"{pu.scheme}://{pu.netloc}"
    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as d:
        p, port = ttft.start_braid(a.server_bin, f"http://127.0.0.1:{proxy.server_address[1]}{pu.path}", d)
        try:
            ctx = command(port, {"type": "create_context", "title": "prefix"})["id"]
            for text in (FIRST, SECOND):
                if ask_and_wait(port, ctx, text) != "idle":
                    sys.exit("a turn failed; is the peer up?")
        finally:
            p.terminate()
            p.wait()
    proxy.shutdown()
    if len(Recorder.bodies) < 2:
        sys.exit(f"braid-server sent {len(Recorder.bodies)} chat requests, not 2")
    turn1, turn2 = Recorder.bodies[0], Recorder.bodies[-1]
    m1, m2 = json.loads(turn1)["messages"], json.loads(turn2)["messages"]
    same = all(json.dumps(x, sort_keys=True) == json.dumps(y, sort_keys=True) for x, y in zip(m1, m2))
    if not same or len(m2) <= len(m1):
        sys.exit("turn 2 does not begin with turn 1's messages: the prefix changed")
    changed = one_byte_changed(turn2)

    stable, broken = [], []
    for _ in range(a.runs):
        for body, out in ((turn2, stable), (changed, broken)):
            ttft.settle(pu, turn1)  # the peer has just read turn 1
            conn = http.client.HTTPConnection(pu.hostname, pu.port, timeout=300)
            out.append(ttft.first_content(conn, "POST", f"{pu.path}/chat/completions", body, {"Content-Type": "application/json"}, ttft.peer_has_content))
    ms, mb = statistics.median(stable) * 1000, statistics.median(broken) * 1000
    print(f"runs: {a.runs} each, alternating; the llama.cpp peer; turn 1 {len(turn1)} bytes, turn 2 {len(turn2)} bytes")
    print(f"turn 2 as Braid sent it (prefix kept):  median {ms:.0f} ms (min {min(stable) * 1000:.0f}, max {max(stable) * 1000:.0f})")
    print(f"turn 2 with one byte changed up front:  median {mb:.0f} ms (min {min(broken) * 1000:.0f}, max {max(broken) * 1000:.0f})")
    print(f"ratio (kept / changed): {ms / mb:.2f}")


if __name__ == "__main__":
    main()
