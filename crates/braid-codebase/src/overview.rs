//! `get_project_overview`: a trimmed folder tree, the languages with
//! their files and lines, the likely entry points, the dependencies the
//! manifests name, and the ranked repository map within a token budget.

use crate::index::Index;
use crate::lang::language_name;
use crate::rank::repo_map;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

const TREE_LINES: usize = 40;
const PER_FOLDER: usize = 8;
const ENTRY_POINTS: usize = 15;
const DEPENDENCIES: usize = 40;

/// File names that usually start a program or a library.
const ENTRY_NAMES: &[&str] = &[
    "main.rs",
    "lib.rs",
    "main.go",
    "main.py",
    "__main__.py",
    "app.py",
    "manage.py",
    "index.ts",
    "index.tsx",
    "index.js",
    "main.ts",
    "main.tsx",
    "main.js",
    "server.ts",
    "server.js",
    "cli.py",
    "cli.ts",
    "cli.js",
];

pub fn overview(index: &Index, budget: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", index.root.display());
    out.push_str("## Folders\n");
    out.push_str(&tree(index));
    out.push_str("\n## Languages\n");
    out.push_str(&languages(index));
    let entries = entry_points(index);
    if !entries.is_empty() {
        out.push_str("\n## Entry points\n");
        for e in entries {
            let _ = writeln!(out, "{e}");
        }
    }
    let deps = dependencies(index);
    if !deps.is_empty() {
        out.push_str("\n## Dependencies\n");
        out.push_str(&deps);
    }
    let _ = writeln!(out, "\n## Map (most referenced definitions first, within {budget} tokens)");
    out.push_str(&repo_map(index, budget));
    out
}

/// Top-level entries and the folders one level down, with file counts.
fn tree(index: &Index) -> String {
    let mut top: BTreeMap<&str, (usize, BTreeMap<&str, usize>)> = BTreeMap::new();
    for path in index.files.keys() {
        let mut parts = path.splitn(3, '/');
        let first = parts.next().unwrap_or("");
        let (second, deeper) = (parts.next(), parts.next());
        let entry = top.entry(first).or_default();
        entry.0 += 1;
        if let (Some(s), Some(_)) = (second, deeper) {
            *entry.1.entry(s).or_default() += 1;
        }
    }
    let mut out = String::new();
    let mut lines = 0;
    let (dirs, files): (Vec<_>, Vec<_>) =
        top.iter().partition(|(name, (n, _))| *n > 1 || index.files.keys().any(|p| p.starts_with(&format!("{name}/"))));
    for (name, (count, subs)) in &dirs {
        if lines >= TREE_LINES {
            break;
        }
        let _ = writeln!(out, "{name}/ ({count} files)");
        lines += 1;
        let mut subs: Vec<_> = subs.iter().collect();
        subs.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (sub, n) in subs.iter().take(PER_FOLDER) {
            let _ = writeln!(out, "  {name}/{sub}/ ({n} files)");
            lines += 1;
        }
        if subs.len() > PER_FOLDER {
            let _ = writeln!(out, "  … {} more folders", subs.len() - PER_FOLDER);
            lines += 1;
        }
    }
    for (name, _) in files.iter().take(TREE_LINES.saturating_sub(lines)) {
        let _ = writeln!(out, "{name}");
    }
    out
}

fn languages(index: &Index) -> String {
    let mut by: BTreeMap<&str, (usize, u64)> = BTreeMap::new();
    for (path, f) in &index.files {
        if let Some(lang) = language_name(Path::new(path)) {
            let e = by.entry(lang).or_default();
            e.0 += 1;
            e.1 += u64::from(f.lines);
        }
    }
    let mut rows: Vec<_> = by.into_iter().collect();
    rows.sort_by(|a, b| b.1 .1.cmp(&a.1 .1).then(a.0.cmp(b.0)));
    rows.iter().map(|(lang, (files, lines))| format!("{lang}: {files} files, {lines} lines\n")).collect()
}

fn entry_points(index: &Index) -> Vec<String> {
    let mut found: Vec<&String> = index
        .files
        .keys()
        .filter(|p| ENTRY_NAMES.contains(&p.rsplit('/').next().unwrap_or("")))
        .filter(|p| !p.contains("test") && !p.contains("fixture"))
        .collect();
    found.sort_by_key(|p| (p.matches('/').count(), p.as_str()));
    let mut out: Vec<String> = found.into_iter().take(ENTRY_POINTS).cloned().collect();
    for (path, _) in index.files.iter().filter(|(p, _)| p.ends_with("package.json") && p.matches('/').count() <= 1) {
        let Ok(text) = std::fs::read(index.root.join(path)) else { continue };
        let Ok(json) = serde_json::from_slice::<serde_json::Value>(&text) else { continue };
        if let Some(main) = json.get("main").and_then(|m| m.as_str()) {
            let dir = path.rsplit_once('/').map_or(String::new(), |(d, _)| format!("{d}/"));
            out.push(format!("{dir}{} (main in {path})", main.trim_start_matches("./")));
        }
    }
    out
}

/// Each manifest's dependency names.
fn dependencies(index: &Index) -> String {
    let mut out = String::new();
    for (path, _) in index.files.iter().filter(|(p, _)| p.matches('/').count() <= 2) {
        let name = path.rsplit('/').next().unwrap_or("");
        let read = || std::fs::read_to_string(index.root.join(path)).unwrap_or_default();
        let names = match name {
            "Cargo.toml" => cargo(&read()),
            "package.json" => npm(&read()),
            "pyproject.toml" => python(&read()),
            "go.mod" => go(&read()),
            _ => continue,
        };
        if names.is_empty() {
            continue;
        }
        let shown: Vec<&str> = names.iter().take(DEPENDENCIES).map(String::as_str).collect();
        let more = names.len().saturating_sub(DEPENDENCIES);
        let _ = writeln!(
            out,
            "{path}: {}{}",
            shown.join(", "),
            if more > 0 { format!(" … and {more} more") } else { String::new() }
        );
    }
    out
}

/// Keys of the dependency tables (`[dependencies]`, `[dev-dependencies]`,
/// `[workspace.dependencies]`, `[target.….dependencies]`).
fn cargo(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line.trim_matches(['[', ']']).ends_with("dependencies");
            continue;
        }
        if inside {
            if let Some((key, _)) = line.split_once('=') {
                let key = key.trim().trim_matches('"');
                if !key.is_empty() && !key.starts_with('#') && !out.iter().any(|k| k == key) {
                    out.push(key.to_owned());
                }
            }
        }
    }
    out
}

fn npm(text: &str) -> Vec<String> {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
    ["dependencies", "devDependencies", "peerDependencies"]
        .iter()
        .filter_map(|k| json.get(k).and_then(|d| d.as_object()))
        .flat_map(|d| d.keys().cloned())
        .collect()
}

/// `[project] dependencies = [...]` entries and Poetry's table keys.
fn python(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut in_list = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') && !in_list {
            section = line.trim_matches(['[', ']']).to_owned();
            continue;
        }
        if section == "project" && line.starts_with("dependencies") && line.contains('[') {
            in_list = true;
        }
        if in_list {
            for item in line.split('"').skip(1).step_by(2) {
                let name: String = item.chars().take_while(|c| c.is_alphanumeric() || "-_.".contains(*c)).collect();
                if !name.is_empty() {
                    out.push(name);
                }
            }
            if line.contains(']') {
                in_list = false;
            }
        } else if section == "tool.poetry.dependencies" {
            if let Some((key, _)) = line.split_once('=') {
                let key = key.trim();
                if key != "python" && !key.is_empty() {
                    out.push(key.to_owned());
                }
            }
        }
    }
    out
}

fn go(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut block = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("require (") {
            block = true;
        } else if block && line == ")" {
            block = false;
        } else if block || line.starts_with("require ") {
            let spec = line.trim_start_matches("require ").trim();
            if let Some(module) = spec.split_whitespace().next().filter(|m| !m.starts_with("//")) {
                out.push(module.to_owned());
            }
        }
    }
    out
}
