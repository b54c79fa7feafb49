//! The codebase index on a large real tree, beside ripgrep on the same
//! tree and queries: building the index, catching up from the stored copy
//! after a restart, warm search, and the time from an edit to an answer
//! that reflects it. The tree is a copy of the crate sources cargo
//! fetched (`$CARGO_HOME/registry/src/…`, or `BRAID_BENCH_TREE`), so the
//! edits touch nothing of cargo's. Run with `make bench-codebase`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a benchmark reports

use braid_codebase::index::Index;
use braid_codebase::search::{fill_snippets, search, Mode, Query};
use braid_codebase::tools::tools;
use braid_codebase::Codebases;
use braid_protocol::CodebaseIndex;
use braid_tools::ToolContext;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn source_tree() -> PathBuf {
    if let Some(t) = std::env::var_os("BRAID_BENCH_TREE") {
        return PathBuf::from(t);
    }
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo"));
    let src = home.join("registry/src");
    std::fs::read_dir(&src)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_dir())
        .expect("cargo has fetched crate sources")
}

fn copy(from: &Path, to: &Path) -> usize {
    std::fs::create_dir_all(to).unwrap();
    let mut n = 0;
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let t = e.file_type().unwrap();
        if t.is_dir() {
            n += copy(&e.path(), &to.join(e.file_name()));
        } else if t.is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            n += 1;
        }
    }
    n
}

/// ripgrep's time for the same query, output thrown away.
fn rg(root: &Path, args: &[&str]) -> Duration {
    let t = Instant::now();
    let status = Command::new("rg")
        .args(["-n", "--no-require-git"])
        .args(args)
        .arg(root)
        .stdout(Stdio::null())
        .status()
        .expect("rg is installed (make bench-codebase installs it)");
    assert!(status.code().is_some_and(|c| c <= 1), "rg failed");
    t.elapsed()
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("tree");
    let files = copy(&source_tree(), &root);
    let root = std::fs::canonicalize(&root).unwrap();
    println!("tree: {files} files copied to {}", root.display());

    // Building from nothing, three times.
    let mut builds = Vec::new();
    let mut index = Index::empty(root.clone());
    for _ in 0..3 {
        index = Index::empty(root.clone());
        let t = Instant::now();
        let stats = index.catch_up(&AtomicBool::new(false), &|_, _| {}).unwrap();
        builds.push(t.elapsed());
        println!("build: {stats:?} in {}", ms(*builds.last().unwrap()));
    }
    println!("index build (cold, median of 3): {}", ms(median(builds)));
    let rss = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    println!(
        "memory with the index loaded: {}",
        rss.lines().find(|l| l.starts_with("VmRSS")).unwrap_or("VmRSS unknown")
    );
    let stored = tmp.path().join("store.json");
    index.save(&stored).unwrap();
    println!("stored index: {} MB", std::fs::metadata(&stored).unwrap().len() / 1_000_000);
    let mut restarts = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        let mut again = Index::load(&stored, &root).unwrap();
        let stats = again.catch_up(&AtomicBool::new(false), &|_, _| {}).unwrap();
        restarts.push(t.elapsed());
        assert_eq!(stats.parsed, 0);
    }
    println!("restart: load the stored index and catch up (median of 3): {}", ms(median(restarts)));

    // Warm search, ours (all results ranked, the first page's snippets
    // read) against rg's, each run 10 times after one to warm the cache.
    let queries: [(&str, Mode, &[&str]); 3] = [
        ("fn parse", Mode::Literal, &["-F", "fn parse"]),
        ("Deserialize", Mode::Word, &["-w", "Deserialize"]),
        (r"impl\s+Drop\s+for", Mode::Regex, &[r"impl\s+Drop\s+for"]),
    ];
    for (pattern, mode, rg_args) in queries {
        let q = Query { pattern: pattern.to_owned(), mode, glob: None, case_sensitive: Some(true) };
        let ours = |i: &Index| {
            let t = Instant::now();
            let mut found = search(i, &q).unwrap();
            let end = found.hits.len().min(20);
            fill_snippets(i, &mut found.hits[..end]);
            (t.elapsed(), found.hits.len())
        };
        ours(&index);
        rg(&root, rg_args);
        let (mut a, mut b, mut hits) = (Vec::new(), Vec::new(), 0);
        for _ in 0..10 {
            let (d, n) = ours(&index);
            a.push(d);
            hits = n;
            b.push(rg(&root, rg_args));
        }
        let (a, b) = (median(a), median(b));
        println!(
            "search {pattern:?} ({mode:?}): braid {} ({hits} results), rg {}, ratio {:.2}",
            ms(a),
            ms(b),
            a.as_secs_f64() / b.as_secs_f64()
        );
    }

    // An edit, then at once the tool that must see it: the live index
    // with its watcher, as the app runs it.
    let store = tempfile::tempdir().unwrap();
    let codebases = Arc::new(Codebases::new(store.path().to_owned(), Vec::new(), Arc::new(|_: &CodebaseIndex| {})));
    let live = codebases.open(&root).unwrap();
    let t = Instant::now();
    drop(live.fresh(Duration::from_secs(600)));
    println!("live index ready (built with its watches) in {}", ms(t.elapsed()));
    let find = tools(codebases.clone()).into_iter().find(|t| t.name() == "find_definition").unwrap();
    let ctx = ToolContext::new(root.clone());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let target = index
        .files
        .iter()
        .find(|(p, f)| p.ends_with(".rs") && f.symbols.defs.len() > 3 && f.size < 20_000)
        .map(|(p, _)| root.join(p))
        .unwrap();
    let original = std::fs::read_to_string(&target).unwrap();
    let mut edits = Vec::new();
    for i in 0..10 {
        let name = format!("braid_bench_edit_{i}");
        let t = Instant::now();
        std::fs::write(&target, format!("{}\npub fn {name}() {{}}\n", "//\n".repeat(i + 1) + &original)).unwrap();
        let out = rt.block_on(find.run(json!({ "symbol": name }), &ctx));
        edits.push(t.elapsed());
        assert!(out.output.contains(&format!(":{} ", original.lines().count() + i + 3)), "{}", out.output);
    }
    std::fs::write(&target, original).unwrap();
    println!("edit → find_definition answers with it (median of 10): {}", ms(median(edits)));
}
