#!/usr/bin/env python3
"""A model download through Braid against curl, side by side.

The stand-in hub (the tests' `stand-in-hub` binary) serves a 1 GB GGUF
file on 127.0.0.1 (the starter model followed by zeros, so its header is
real). Contenders, alternating in one run:

  - Braid: braid-server started on an empty data folder with HF_ENDPOINT
    at the hub; `download_model` is asked and the downloads polled until
    the model is on the shelf (fetched with range requests, then checked
    against the repository's SHA-256 and renamed);
  - curl: `curl -o FILE URL` and then `sha256sum FILE`, what a user would
    run by hand for the same guarantee.

Prints the median seconds and MB/s of each. Only 127.0.0.1 is used.

    scripts/download-bench.py [--target DIR] [--runs 3] [--size-mb 1024]

DIR holds braid-server and stand-in-hub (cargo test --no-run builds both;
default: target/debug, or $CARGO_TARGET_DIR/debug). See
docs/PERFORMANCE.md.
"""
import argparse
import hashlib
import http.client
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

import braid_server

TOKEN = "download-bench-token-0123456789abcdef"
HEADERS = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
REPO = "braid-test/SmolLM2-copy-GGUF"
FILE = "SmolLM2-copy-Q4_1.gguf"


def call(port, body):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", "/api/command", body=json.dumps(body), headers=HEADERS)
    resp = conn.getresponse()
    data = resp.read()
    if resp.status >= 300:
        raise RuntimeError(f"HTTP {resp.status}: {data[:300]!r}")
    return json.loads(data)


def braid(server, hub_url, size):
    with tempfile.TemporaryDirectory() as data:
        p, port = braid_server.start(server, data, TOKEN, {"HF_ENDPOINT": hub_url})
        try:
            t0 = time.perf_counter()
            call(port, {"type": "download_model", "repo": REPO, "file": FILE, "use_when_done": False})
            while True:
                view = call(port, {"type": "list_downloads"})
                d = view["downloads"][0]
                if d["state"] == "done":
                    break
                if d["state"] == "failed":
                    raise RuntimeError(d["error"])
                time.sleep(0.02)
            seconds = time.perf_counter() - t0
            assert os.path.getsize(os.path.join(data, "models", FILE)) == size
            return seconds
        finally:
            p.terminate()
            p.wait()


def curl(hub_url, size, sha):
    with tempfile.TemporaryDirectory() as data:
        out = os.path.join(data, FILE)
        t0 = time.perf_counter()
        subprocess.run(["curl", "-sS", "-o", out, f"{hub_url}/{REPO}/resolve/main/{FILE}"], check=True)
        got = subprocess.run(["sha256sum", out], check=True, capture_output=True, text=True).stdout.split()[0]
        seconds = time.perf_counter() - t0
        assert got == sha and os.path.getsize(out) == size
        return seconds


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    target = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target")), "debug")
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", default=target)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--size-mb", type=int, default=1024)
    a = ap.parse_args()
    starter = subprocess.run([os.path.join(root, "scripts", "starter-model.sh"), tempfile.mkdtemp()],
                             check=True, capture_output=True, text=True).stdout.strip()
    work = tempfile.mkdtemp(prefix="braid-download-bench-")
    try:
        big = os.path.join(work, FILE)
        size = a.size_mb << 20
        with open(starter, "rb") as src, open(big, "wb") as dst:
            shutil.copyfileobj(src, dst)
            dst.truncate(size)
        h = hashlib.sha256()
        with open(big, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        sha = h.hexdigest()
        hub = subprocess.Popen([os.path.join(a.target, "stand-in-hub"), big], stdout=subprocess.PIPE, text=True)
        try:
            hub_url = hub.stdout.readline().strip()
            times = {"braid": [], "curl + sha256sum": []}
            for _ in range(a.runs):
                times["braid"].append(braid(os.path.join(a.target, "braid-server"), hub_url, size))
                times["curl + sha256sum"].append(curl(hub_url, size, sha))
            mb = size / 1e6
            for name, ts in times.items():
                m = statistics.median(ts)
                print(f"{name:18} median {m:6.2f} s  {mb / m:7.1f} MB/s  (runs: {', '.join(f'{t:.2f}' for t in ts)})")
            ratio = statistics.median(times["braid"]) / statistics.median(times["curl + sha256sum"])
            print(f"braid / curl: {ratio:.2f}")
        finally:
            hub.terminate()
            hub.wait()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
