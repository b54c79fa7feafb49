//! The codebase tools on small projects in Rust, Python, TypeScript/TSX,
//! JavaScript and Go (`fixtures::codebase`): definitions, references,
//! search widened to definitions and ranked, paging, path filters,
//! ignored files, staleness, and the index kept on disk across a restart.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_codebase::{Codebases, LiveIndex};
use braid_protocol::{CodebaseIndex, IndexState, ToolResultStatus};
use braid_tools::{Tool, ToolContext};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

struct Fixture {
    _dir: tempfile::TempDir,
    _store: tempfile::TempDir,
    root: PathBuf,
    tools: Vec<Arc<dyn Tool>>,
}

fn codebases(store: &Path) -> Arc<Codebases> {
    Arc::new(Codebases::new(store.to_owned(), Vec::new(), Arc::new(|_: &CodebaseIndex| {})))
}

fn fixture_from(dir: tempfile::TempDir) -> Fixture {
    let store = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let codebases = codebases(store.path());
    let tools = braid_codebase::tools::tools(codebases.clone());
    Fixture { _dir: dir, _store: store, root, tools }
}

fn fixture() -> Fixture {
    fixture_from(braid_testkit::fixtures::codebase())
}

impl Fixture {
    async fn call(&self, tool: &str, args: Value) -> String {
        let outcome = self.try_call(tool, args).await;
        assert_eq!(outcome.0, ToolResultStatus::Success, "{tool} failed: {}", outcome.1);
        outcome.1
    }

    async fn try_call(&self, tool: &str, args: Value) -> (ToolResultStatus, String) {
        let t = self.tools.iter().find(|t| t.name() == tool).unwrap();
        let out = t.run(args, &ToolContext::new(self.root.clone())).await;
        (out.status, out.error.unwrap_or(out.output))
    }
}

/// The `path:line` heads of an answer, in order.
fn heads(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| {
            l.split_once(':')
                .is_some_and(|(p, rest)| !p.contains(' ') && rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .map(|l| l.split(' ').next().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn definitions_are_found_in_all_five_languages() {
    let f = fixture();
    let rust = f.call("find_definition", json!({"symbol": "parse_config"})).await;
    assert!(rust.starts_with("1 definition of parse_config:"), "{rust}");
    assert!(rust.contains("rust/src/lib.rs:7 · method parse_config (in mod config › impl Loader)"), "{rust}");
    assert!(rust.contains("pub fn parse_config(&self, text: &str) -> Settings {"), "{rust}");
    // A qualified name prefers the definition inside the named scope.
    let python = f.call("find_definition", json!({"symbol": "Circle.area"})).await;
    assert_eq!(heads(&python), ["python/shapes.py:10", "python/shapes.py:2"], "{python}");
    let ts = f.call("find_definition", json!({"symbol": "TodoStore.addItem"})).await;
    assert_eq!(heads(&ts), ["ts/src/store.ts:9"], "{ts}");
    let tsx = f.call("find_definition", json!({"symbol": "App"})).await;
    assert_eq!(heads(&tsx), ["ts/src/App.tsx:3"], "{tsx}");
    let js = f.call("find_definition", json!({"symbol": "notFound"})).await;
    assert_eq!(heads(&js), ["js/lib/router.js:16"], "{js}");
    assert!(js.contains("function notFound(path) {"), "{js}");
    let go = f.call("find_definition", json!({"symbol": "NewCounter"})).await;
    assert_eq!(heads(&go), ["go/main.go:13"], "{go}");
    let method = f.call("find_definition", json!({"symbol": "Increment"})).await;
    assert!(method.contains("go/main.go:9 · method Increment"), "{method}");
}

#[tokio::test]
async fn a_missing_name_gets_the_closest_ones() {
    let f = fixture();
    let out = f.call("find_definition", json!({"symbol": "parse_confg"})).await;
    assert!(out.starts_with("No definition of parse_confg. The closest names:"), "{out}");
    assert_eq!(heads(&out)[0], "rust/src/lib.rs:7", "{out}");
    let none = f.call("find_definition", json!({"symbol": "zzqqxx"})).await;
    assert!(none.contains("no similar name"), "{none}");
    let (status, empty) = f.try_call("find_definition", json!({"symbol": "  "})).await;
    assert_eq!((status, empty.as_str()), (ToolResultStatus::Error, "give the name of a symbol"));
}

#[tokio::test]
async fn references_are_grouped_by_file_with_their_lines() {
    let f = fixture();
    let out = f.call("find_references", json!({"symbol": "Circle"})).await;
    // Counted by line: `Circle(1), Circle(2)` is one line.
    assert!(out.starts_with("3 uses of Circle in 2 files:"), "{out}");
    assert!(out.contains("python/main.py (2 uses)") && out.contains("python/shapes.py (1 uses)"), "{out}");
    assert!(out.contains("python/shapes.py:6 · definition"), "{out}");
    assert!(out.contains(">    3 | print(total_area([Circle(1), Circle(2)]))"), "{out}");
    // Whole words only: `Settings` is not counted inside `settings`.
    let settings = f.call("find_references", json!({"symbol": "Settings"})).await;
    assert!(settings.starts_with("5 uses of Settings in 1 files:"), "{settings}");
    let none = f.call("find_references", json!({"symbol": "nothing_like_this"})).await;
    assert!(none.contains("is not used anywhere"), "{none}");
}

#[tokio::test]
async fn a_match_is_widened_to_its_definition_with_a_breadcrumb() {
    let f = fixture();
    let out = f.call("codebase_search", json!({"query": "self.entries.push"})).await;
    assert!(out.starts_with("1 results for \"self.entries.push\""), "{out}");
    assert!(out.contains("rust/src/lib.rs:23 · mod config › impl Settings › fn apply\n"), "{out}");
    // The short definition is shown whole, the match marked.
    assert!(out.contains("   22 | ") && out.contains(">   23 | ") && out.contains("   24 | "), "{out}");
    let go = f.call("codebase_search", json!({"query": "c.n++"})).await;
    assert!(go.contains("go/main.go:10 · func Increment"), "{go}");
    let ts = f.call("codebase_search", json!({"query": "this.items.push"})).await;
    assert!(ts.contains("ts/src/store.ts:11 · class TodoStore › method addItem"), "{ts}");
}

#[tokio::test]
async fn definitions_rank_first_and_ignored_files_never_appear() {
    let f = fixture();
    let out = f.call("codebase_search", json!({"query": "parse_config"})).await;
    let found = heads(&out);
    assert_eq!(found, ["rust/src/lib.rs:7", "rust/src/lib.rs:30"], "{out}");
    assert!(out.contains("rust/src/lib.rs:7 · mod config › impl Loader › fn parse_config · definition"), "{out}");
    // build/generated.rs and debug.log match too, but .gitignore leaves them out.
    assert!(!out.contains("generated") && !out.contains("debug.log"), "{out}");
    let refs = f.call("find_references", json!({"symbol": "parse_config"})).await;
    assert!(!refs.contains("generated") && !refs.contains("debug.log"), "{refs}");
    // As a word, `area` is its two definitions first, then the use in
    // `total_area` (whose own name is not the word).
    let area = f.call("codebase_search", json!({"query": "area", "mode": "word"})).await;
    assert_eq!(heads(&area), ["python/shapes.py:2", "python/shapes.py:10", "python/shapes.py:15"], "{area}");
    let total = f.call("codebase_search", json!({"query": "total", "mode": "word"})).await;
    assert!(total.starts_with("No match for \"total\""), "{total}");
    // Literal: `total_area`'s definition first, then exact uses.
    let literal = f.call("codebase_search", json!({"query": "total_area"})).await;
    assert_eq!(heads(&literal)[0], "python/shapes.py:14", "{literal}");
}

#[tokio::test]
async fn regex_mode_and_a_path_filter() {
    let f = fixture();
    let out = f.call("codebase_search", json!({"query": "fn \\w+\\(", "mode": "regex", "path": "rust/**/*.rs"})).await;
    assert!(out.contains("rust/src/lib.rs:28 · fn load") && out.contains("rust/src/main.rs:1 · fn main"), "{out}");
    assert!(heads(&out).iter().all(|h| h.starts_with("rust/")), "{out}");
    let py = f.call("codebase_search", json!({"query": "area", "path": "*.py"})).await;
    assert!(heads(&py).iter().all(|h| h.starts_with("python/")), "{py}");
    let (status, bad) = f.try_call("codebase_search", json!({"query": "fn (", "mode": "regex"})).await;
    assert_eq!(status, ToolResultStatus::Error);
    assert!(bad.starts_with("the pattern is not a valid regular expression"), "{bad}");
    let (status, unknown) = f.try_call("codebase_search", json!({"query": "x", "mode": "fuzzy"})).await;
    assert_eq!(status, ToolResultStatus::Error);
    assert_eq!(unknown, "mode \"fuzzy\" is not one of literal, regex, word");
}

#[tokio::test]
async fn results_come_twenty_a_page_with_a_cursor() {
    let body: String = (1..=45).map(|i| format!("fn task_{i}() {{\n    needle();\n}}\n\n")).collect();
    let f = fixture_from(braid_testkit::fixtures::workspace(&[("src/tasks.rs", &body)]));
    let first = f.call("codebase_search", json!({"query": "needle"})).await;
    assert!(first.starts_with("45 results for \"needle\" in 1 files searched (page 1 of 3)"), "{first}");
    assert_eq!(heads(&first).len(), 20);
    assert_eq!(heads(&first)[0], "src/tasks.rs:2");
    let cursor = first.rsplit("\"cursor\": \"").next().unwrap().trim_end().trim_end_matches('"').to_owned();
    let second = f.call("codebase_search", json!({"query": "needle", "cursor": cursor})).await;
    assert!(second.contains("(page 2 of 3)") && heads(&second)[0] == "src/tasks.rs:82", "{second}");
    let cursor = second.rsplit("\"cursor\": \"").next().unwrap().trim_end().trim_end_matches('"').to_owned();
    let third = f.call("codebase_search", json!({"query": "needle", "cursor": cursor.clone()})).await;
    assert_eq!(heads(&third).len(), 5);
    assert!(!third.contains("More results"), "{third}");
    let (status, other) = f.try_call("codebase_search", json!({"query": "task", "cursor": cursor})).await;
    assert_eq!(status, ToolResultStatus::Error);
    assert!(other.contains("belongs to another search"), "{other}");
}

#[tokio::test]
async fn an_edit_is_seen_by_the_very_next_call() {
    let f = fixture();
    let before = f.call("find_definition", json!({"symbol": "apply"})).await;
    assert_eq!(heads(&before), ["rust/src/lib.rs:22"]);
    let path = f.root.join("rust/src/lib.rs");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, format!("// one\n// two\n// three\n{text}")).unwrap();
    // At once: no waiting for the watcher.
    let after = f.call("find_definition", json!({"symbol": "apply"})).await;
    assert_eq!(heads(&after), ["rust/src/lib.rs:25"], "{after}");
    let search = f.call("codebase_search", json!({"query": "self.entries.push"})).await;
    assert!(search.contains("rust/src/lib.rs:26 · mod config › impl Settings › fn apply"), "{search}");
    // A new file: found when the name is asked for.
    std::fs::write(f.root.join("go/extra.go"), "package main\n\nfunc Fresh() {}\n").unwrap();
    let fresh = f.call("find_definition", json!({"symbol": "Fresh"})).await;
    assert_eq!(heads(&fresh), ["go/extra.go:3"], "{fresh}");
    // A deleted file's definitions are gone.
    std::fs::remove_file(f.root.join("go/extra.go")).unwrap();
    let gone = f.call("find_definition", json!({"symbol": "Fresh"})).await;
    assert!(gone.starts_with("No definition of Fresh"), "{gone}");
}

#[tokio::test]
async fn the_overview_lists_languages_entry_points_dependencies_and_a_map() {
    let f = fixture();
    let out = f.call("get_project_overview", json!({})).await;
    for part in [
        "## Folders\n",
        "rust/ (3 files)",
        "Rust: 2 files, 35 lines",
        "Python: 2 files, 18 lines",
        "Go: 1 files, 21 lines",
        "rust/src/main.rs",
        "ts/src/App.tsx (main in ts/package.json)",
        "rust/Cargo.toml: serde, anyhow",
        "ts/package.json: react, typescript",
        "python/pyproject.toml: requests, rich",
        "go/go.mod: github.com/stretchr/testify",
        "## Map (most referenced definitions first, within 1024 tokens)",
    ] {
        assert!(out.contains(part), "{part:?} missing from:\n{out}");
    }
    assert!(!out.contains("build/") && !out.contains("debug.log"), "{out}");
    // Referenced definitions rank above ones nothing refers to.
    let map = out.split("## Map").nth(1).unwrap();
    let circle = map.find("class Circle(Shape):").unwrap();
    let counter = map.find("type Counter struct").unwrap();
    assert!(circle < counter, "{map}");
    // A small budget keeps the map small.
    let small = f.call("get_project_overview", json!({"budget_tokens": 128})).await;
    let small_map = small.split("## Map").nth(1).unwrap();
    assert!(braid_codebase::rank::estimate_tokens(small_map) <= 128 + 20, "{small_map}");
    assert!(small_map.len() < map.len());
    let (status, bad) = f.try_call("get_project_overview", json!({"budget_tokens": 5})).await;
    assert_eq!(status, ToolResultStatus::Error, "{bad}");
}

/// Waits for the build on a thread (the index is not async).
fn wait_ready(live: &LiveIndex) -> CodebaseIndex {
    drop(live.fresh(Duration::from_secs(30)));
    live.status()
}

#[tokio::test]
async fn a_restart_reads_the_stored_index_instead_of_building_again() {
    let dir = braid_testkit::fixtures::codebase();
    let store = tempfile::tempdir().unwrap();
    let first = wait_ready(&codebases(store.path()).open(dir.path()).unwrap());
    assert_eq!(first.state, IndexState::Ready);
    // 13 files: .gitignore is hidden, build/ and *.log are left out.
    assert_eq!((first.parsed, first.files), (13, 13), "{first:?}");
    assert!(first.symbols >= 25, "{first:?}");
    // Another process, later: the stored copy is caught up, nothing re-read.
    std::fs::write(dir.path().join("go/extra.go"), "package main\n\nfunc Later() {}\n").unwrap();
    let again = codebases(store.path()).open(dir.path()).unwrap();
    let second = wait_ready(&again);
    assert_eq!((second.state, second.parsed, second.files), (IndexState::Ready, 1, 14), "{second:?}");
}

#[tokio::test]
async fn a_cancelled_build_still_searches_and_says_why_symbols_wait() {
    // 600 files: the build reports progress at 200, and is stopped there.
    let files: Vec<(String, String)> =
        (0..600).map(|i| (format!("m{i}/f.rs"), format!("fn f{i}() {{ marker(); }}\n"))).collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = braid_testkit::fixtures::workspace(&refs);
    let store = tempfile::tempdir().unwrap();
    let handle: Arc<std::sync::Mutex<Option<Arc<LiveIndex>>>> = Default::default();
    let inside = handle.clone();
    let armed = std::sync::atomic::AtomicBool::new(true);
    let on_status = Arc::new(move |s: &CodebaseIndex| {
        if s.state == IndexState::Building && s.done > 0 && armed.swap(false, std::sync::atomic::Ordering::SeqCst) {
            loop {
                if let Some(live) = inside.lock().unwrap().as_ref() {
                    live.cancel();
                    break;
                }
                std::thread::yield_now();
            }
        }
    });
    let codebases = Arc::new(Codebases::new(store.path().to_owned(), Vec::new(), on_status));
    let live = codebases.open(dir.path()).unwrap();
    *handle.lock().unwrap() = Some(live.clone());
    assert_eq!(wait_ready(&live).state, IndexState::Cancelled);
    let tools = braid_codebase::tools::tools(codebases.clone());
    let ctx = ToolContext::new(std::fs::canonicalize(dir.path()).unwrap());
    let find = tools.iter().find(|t| t.name() == "find_definition").unwrap();
    let out = find.run(json!({"symbol": "f7"}), &ctx).await;
    assert!(out.error.unwrap().contains("stopped by the user"));
    // Search still works, from a walk of the files.
    let search = tools.iter().find(|t| t.name() == "codebase_search").unwrap();
    let out = search.run(json!({"query": "fn f599("}), &ctx).await;
    assert!(out.output.contains("m599/f.rs:1"), "{}", out.output);
    // Built again on the user's word (only the first build was stopped).
    live.start_build();
    let found = find.run(json!({"symbol": "f7"}), &ctx).await.output;
    assert!(found.contains("m7/f.rs:1"), "{found}");
}
