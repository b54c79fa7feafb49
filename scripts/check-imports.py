#!/usr/bin/env python3
"""No import circle between the modules of a crate (issue #39).

Reads every `crate::…`, `super::…` and `self::…` path in the crate's
source (test modules left out, names the crate root re-exports followed
to their module), maps each to the top-level module it names, and fails
when top-level modules reach each other in a circle. A top-level module
and its submodules are one unit (`actor/*.rs` is the actor): anything
one of them uses from outside is that unit's dependency.

    scripts/check-imports.py crates/braid-runtime/src
"""
import os
import re
import sys


def modules(src):
    found = {}
    for root, _, files in os.walk(src):
        for f in files:
            if f.endswith(".rs"):
                rel = os.path.relpath(os.path.join(root, f), src)[:-3]
                name = "crate" if rel in ("lib", "main") else "crate::" + rel.replace(os.sep, "::")
                found[name] = os.path.join(root, f)
    return found


def root_names(mods):
    """Names the crate root re-exports (`use shared::Shared;`, `pub use
    error::RuntimeError;`): `crate::Shared` means the `shared` module."""
    text = open(mods["crate"], encoding="utf-8").read()
    names = {}
    for m in re.finditer(r"^(?:pub(?:\(crate\))? )?use (\w+)::(\{[^}]*\}|\w+(?: as \w+)?);", text, re.M):
        module = "crate::" + m.group(1)
        if module not in mods:
            continue
        items = m.group(2).strip("{}").split(",")
        for item in items:
            words = item.split()
            if words:
                names[words[-1]] = module
    return names


ROOT = {}


def resolve(mods, current, path):
    parts = path.split("::")
    if parts[0] == "crate" and len(parts) > 1 and parts[1] in ROOT:
        parts = ROOT[parts[1]].split("::") + parts[2:]
    if parts[0] == "super":
        parts = current.split("::")[:-1] + parts[1:]
    elif parts[0] == "self":
        parts = current.split("::") + parts[1:]
    for i in range(len(parts), 0, -1):
        name = "::".join(parts[:i])
        if name in mods:
            return name
    return None


def unit(name):
    """`crate::actor::merge` belongs to `crate::actor`."""
    return "::".join(name.split("::")[:2])


def edges(mods):
    out = {}
    for name, path in mods.items():
        text = open(path, encoding="utf-8").read()
        text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
        text = re.sub(r"//[^\n]*", "", text)
        paths = [m.group(1) for m in re.finditer(r"\b((?:crate|super|self)(?:::\w+)+)", text)]
        for m in re.finditer(r"\b(crate|super|self)::\{([^}]*)\}", text):
            paths += [f"{m.group(1)}::{item.strip().split()[0]}" for item in m.group(2).split(",") if item.strip()]
        source = unit(name)
        out.setdefault(source, {})
        for p in paths:
            target = resolve(mods, name, p)
            if target and target != "crate" and unit(target) != source:
                out[source].setdefault(unit(target), f"{p} (in {mods[name]})")
    return out


def circles(graph):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def main():
    src = sys.argv[1]
    mods = modules(src)
    ROOT.update(root_names(mods))
    graph = edges(mods)
    bad = circles(graph)
    for group in bad:
        print(f"{src}: an import circle between {', '.join(group)}:", file=sys.stderr)
        for a in group:
            for b, p in graph[a].items():
                if b in group:
                    print(f"  {a} uses {p}", file=sys.stderr)
    if bad:
        sys.exit(1)
    print(f"{src}: {len(graph)} top-level modules ({len(mods)} files), no import circle")


main()
