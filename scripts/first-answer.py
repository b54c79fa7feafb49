#!/usr/bin/env python3
"""The built-in model's first answer, from a cold start of the app.

Each run starts braid-server afresh (a new data folder with the starter
model linked into it, no provider: the built-in model answers), opens a
conversation and asks one question, timing from the process's start to the
first streamed content and to the end of the answer. Contenders, side by
side in one run and alternating:

  - tools "as needed" (the default for a small local model: a plain
    question goes without tool definitions) against "always" (every tool
    definition with every message, as before);
  - an idle machine against a loaded one (--load busy processes, one per
    core by default, running beside the server for the measurement).

Prints the medians per contender: first token, whole answer, the prompt
tokens the model read, and tokens per second while it wrote. Only
127.0.0.1 is used.

    scripts/first-answer.py [--server-bin PATH] [--runs 3] [--load N] [--threads N] [--wait S]

The starter must be in its cache (scripts/starter-model.sh puts it there).
See docs/PERFORMANCE.md.
"""
import argparse
import collections
import http.client
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import tempfile
import time

import braid_server

TOKEN = "first-answer-token-0123456789abcdef"
QUESTION = "What is the capital of France?"
HEADERS = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}


def busy():
    while True:
        pass


def call(port, method, path, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    conn.request(method, path, body=None if body is None else json.dumps(body), headers=HEADERS)
    resp = conn.getresponse()
    data = resp.read()
    if resp.status >= 300:
        raise RuntimeError(f"{method} {path}: HTTP {resp.status}: {data[:300]!r}")
    return json.loads(data) if data else None


def one_run(binary, starter, tools, threads, limit, wait):
    """Seconds from spawning the server to the first token and to the end
    of the answer, with the answer's token usage."""
    with tempfile.TemporaryDirectory() as data:
        models = os.path.join(data, "models")
        os.makedirs(models)
        os.symlink(starter, os.path.join(models, os.path.basename(starter)))
        if threads:
            with open(os.path.join(models, "settings.json"), "w") as f:
                json.dump({"context": 4096, "threads": threads}, f)
        t0 = time.perf_counter()
        p, port = braid_server.start(binary, data, TOKEN)
        try:
            ready = time.perf_counter() - t0
            ctx = call(port, "POST", "/api/contexts", {"title": "first answer"})["id"]
            if wait:
                # The user types the question: the composer's first
                # character sends warm_up, and the model gets ready while
                # the rest is typed; times are then from the question.
                call(port, "POST", "/api/command", {"type": "warm_up", "context_id": ctx})
                time.sleep(wait)
                t0 = time.perf_counter()
            if tools == "always":
                call(port, "POST", "/api/command", {"type": "set_generation", "context_id": ctx, "settings": {"tool_use": "auto", "temperature": None, "max_output_tokens": None}})
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=limit)
            body = {"message": {"body": {"type": "text", "role": "user", "parts": [{"kind": "text", "text": QUESTION}]}}}
            conn.request("POST", f"/api/contexts/{ctx}/messages", body=json.dumps(body), headers=HEADERS)
            resp = conn.getresponse()
            first, outcome = None, "answered"
            while True:
                try:
                    line = resp.readline()
                except TimeoutError:
                    outcome = f"nothing for {limit} s"
                    break
                if not line:
                    break
                if first is None and line.strip() == b"event: content_delta":
                    first = time.perf_counter() - t0
                # Offered every tool, the small model may call one for any
                # question: its turn then waits for approval, not an answer.
                if b'"awaiting_tool_approval"' in line:
                    outcome = "called a tool"
                    break
            whole = time.perf_counter() - t0
            if first is None:
                first = whole
            resp.close()
            snap = call(port, "GET", f"/api/contexts/{ctx}")
            usage = next((m["meta"]["usage"] for m in reversed(snap["messages"]) if (m.get("meta") or {}).get("usage")), None)
            if usage is None:
                usage = {"prompt_tokens": float("nan"), "completion_tokens": 0}
            return first, whole, usage, outcome, ready
        finally:
            p.terminate()
            p.wait()


def main():
    ap = argparse.ArgumentParser()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
    ap.add_argument("--server-bin", default=os.path.join(target, "release", "braid-server"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--load", type=int, default=os.cpu_count(), help="busy processes for the loaded runs")
    ap.add_argument("--threads", type=int, default=0, help="the model's threads (0: Braid's default)")
    ap.add_argument("--wait", type=float, default=0, help="seconds between the app being ready and the question (times then from the question)")
    ap.add_argument("--limit", type=float, default=120, help="seconds without a streamed line before a run gives up")
    a = ap.parse_args()
    cache = os.environ.get("BRAID_MODEL_CACHE", os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "braid-models"))
    starter = os.path.join(cache, "SmolLM2-135M-Instruct.Q4_1.gguf")
    if not os.path.isfile(starter):
        subprocess.run([os.path.join(root, "scripts", "starter-model.sh"), tempfile.mkdtemp()], check=True, stdout=subprocess.DEVNULL)
    results = {}
    contenders = [(tools, load) for load in ("idle", "loaded") for tools in ("as needed", "always")]
    for _ in range(a.runs):
        for tools, load in contenders:
            burners = [multiprocessing.Process(target=busy, daemon=True) for _ in range(a.load if load == "loaded" else 0)]
            for b in burners:
                b.start()
            try:
                results.setdefault((tools, load), []).append(one_run(a.server_bin, starter, tools, a.threads, a.limit, a.wait))
            finally:
                for b in burners:
                    b.terminate()
                    b.join()
    print(f"runs: {a.runs} each, alternating; question {QUESTION!r}; loaded = {a.load} busy processes on {os.cpu_count()} cores; binary: {a.server_bin}")
    print(f"{'tools':<10} {'machine':<7} {'ready':>8} {'first token':>12} {'whole answer':>13} {'prompt':>7} {'tokens/s':>9}  outcomes")
    for (tools, load), rs in results.items():
        first = statistics.median(r[0] for r in rs)
        whole = statistics.median(r[1] for r in rs)
        prompt = statistics.median(r[2]["prompt_tokens"] for r in rs)
        answered = [r for r in rs if r[3] == "answered" and r[1] > r[0]]
        speed = statistics.median(r[2]["completion_tokens"] / (r[1] - r[0]) for r in answered) if answered else float("nan")
        outcomes = ", ".join(f"{n}× {o}" for o, n in sorted(collections.Counter(r[3] for r in rs).items()))
        ready = statistics.median(r[4] for r in rs)
        print(f"{tools:<10} {load:<7} {ready * 1000:>5.0f} ms {first * 1000:>10.0f} ms {whole * 1000:>10.0f} ms {prompt:>7.0f} {speed:>9.1f}  {outcomes}")


if __name__ == "__main__":
    main()
