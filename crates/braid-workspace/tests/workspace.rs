//! References and freshness on a real temporary workspace.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_workspace::freshness::{FileFreshness, Freshness};
use braid_workspace::refs::{mentions, resolve, Mention};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

fn ws() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("ws");
    std::fs::create_dir(&root).unwrap();
    let root = root.canonicalize().unwrap();
    std::fs::write(root.join("a.txt"), "one\ntwo\nthree\nfour\nfive\n").unwrap();
    (dir, root)
}

fn m(path: &str, range: Option<(u32, u32)>) -> Mention {
    Mention { path: path.into(), range }
}

#[test]
fn mentions_are_found_with_their_ranges_and_emails_are_not() {
    assert_eq!(
        mentions("look at @src/main.rs:12-40 and @README.md, then @lib.rs:7. Mail me at a@b.com (or @x/y.ts)"),
        [m("src/main.rs", Some((12, 40))), m("README.md", None), m("lib.rs", Some((7, 7))), m("x/y.ts", None)]
    );
    assert_eq!(mentions("@données/été.md:2"), [m("données/été.md", Some((2, 2)))]);
    assert!(mentions("no mention here, just @ alone").is_empty());
    assert_eq!(mentions("@docs:demo://resource/1 and @a.rs"), [m("a.rs", None)], "an MCP resource is not a file");
}

#[test]
fn ranges_resolve_and_bad_ones_are_clear_errors() {
    let (_d, root) = ws();
    let r = resolve(Some(&root), "a.txt", None).unwrap();
    assert_eq!((r.path.as_str(), r.range, r.total_lines), ("a.txt", (1, 5), 5));
    assert_eq!(r.content, "one\ntwo\nthree\nfour\nfive");
    assert_eq!(resolve(Some(&root), "a.txt", Some((2, 3))).unwrap().content, "two\nthree");
    assert_eq!(resolve(Some(&root), "a.txt", Some((4, 4))).unwrap().content, "four", "a single line");
    assert_eq!(resolve(Some(&root), "a.txt", Some((4, 99))).unwrap().range, (4, 5), "clamped to the end");
    assert!(resolve(Some(&root), "a.txt", Some((3, 2))).unwrap_err().contains("ends before it starts"));
    assert!(resolve(Some(&root), "a.txt", Some((9, 12))).unwrap_err().contains("only 5 lines"));
    assert!(resolve(Some(&root), "a.txt", Some((0, 2))).unwrap_err().contains("numbered from 1"));
    assert_eq!(resolve(Some(&root), "./sub/../a.txt", None).unwrap().path, "a.txt", "normalised");
}

#[test]
fn files_outside_missing_binary_huge_and_no_workspace_are_refused() {
    let (d, root) = ws();
    std::fs::write(d.path().join("secret.txt"), "secret").unwrap();
    std::os::unix::fs::symlink(d.path().join("secret.txt"), root.join("link.txt")).unwrap();
    let outside = d.path().join("secret.txt").display().to_string();
    for p in ["../secret.txt", "x/../../secret.txt", outside.as_str(), "link.txt", "/etc/passwd"] {
        let e = resolve(Some(&root), p, None).unwrap_err();
        assert!(e.contains("outside the workspace"), "{p}: {e}");
    }
    assert!(resolve(Some(&root), "nope.txt", None).unwrap_err().contains("no such file"));
    std::fs::write(root.join("b.bin"), [1u8, 0, 2]).unwrap();
    assert!(resolve(Some(&root), "b.bin", None).unwrap_err().contains("binary"));
    std::fs::write(root.join("big.txt"), "x".repeat(2 * 1024 * 1024)).unwrap();
    assert!(resolve(Some(&root), "big.txt", None).unwrap_err().contains("reference a line range"));
    std::fs::create_dir(root.join("dir")).unwrap();
    assert!(resolve(Some(&root), "dir", None).unwrap_err().contains("is a folder"));
    assert!(resolve(None, "a.txt", None).unwrap_err().contains("no workspace folder"));
    std::fs::write(root.join("ünï cødé.rs"), "fn main() {}\n").unwrap();
    assert_eq!(resolve(Some(&root), "ünï cødé.rs", None).unwrap().content, "fn main() {}");
    // A named pipe nobody writes to: refused at once, not waited on.
    assert!(std::process::Command::new("mkfifo").arg(root.join("pipe.txt")).status().unwrap().success());
    assert!(resolve(Some(&root), "pipe.txt", None).unwrap_err().contains("is a named pipe, not a file"));
}

fn later(s: u64) -> SystemTime {
    SystemTime::now() + Duration::from_secs(s)
}

fn set_mtime(path: &Path, t: SystemTime) {
    std::fs::File::options().write(true).open(path).unwrap().set_modified(t).unwrap();
}

#[test]
fn freshness_sees_real_changes_only() {
    let (_d, root) = ws();
    let a = root.join("a.txt");
    let mut f = FileFreshness::new();
    assert_eq!(f.check(&a), Freshness::Unknown, "never read");
    f.record_read(&a, SystemTime::now());
    assert_eq!(f.check(&a), Freshness::Fresh);
    // A touch (new mtime, same bytes) is not a change.
    set_mtime(&a, later(60));
    assert_eq!(f.check(&a), Freshness::Fresh);
    // New content is.
    std::fs::write(&a, "one\ntwo\nTHREE\nfour\nfive\nsix\n").unwrap();
    match f.check(&a) {
        Freshness::ModifiedExternally { size_before, size_now, modified_at, .. } => {
            assert_eq!((size_before, size_now), (24, 28));
            assert!(modified_at.is_some());
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(f.changed().len(), 1);
    // The agent's own write makes it fresh again.
    f.record_edit(&a, SystemTime::now());
    assert_eq!(f.check(&a), Freshness::Fresh);
    assert!(f.changed().is_empty());
    std::fs::remove_file(&a).unwrap();
    assert_eq!(f.check(&a), Freshness::Deleted);
}

#[test]
fn important_files_are_recent_first_without_build_folders_or_ignored_files() {
    let (_d, root) = ws();
    std::fs::write(root.join(".gitignore"), "*.log\n").unwrap();
    for p in ["src/lib.rs", "target/debug/x.rs", "node_modules/m/index.js", "run.log", "b.md"] {
        let full = root.join(p);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(&full, "x").unwrap();
    }
    let mut f = FileFreshness::new();
    let t0 = SystemTime::now();
    for (i, p) in
        ["b.md", "target/debug/x.rs", "src/lib.rs", "node_modules/m/index.js", "run.log", "a.txt"].iter().enumerate()
    {
        f.record_read(&root.join(p), t0 + Duration::from_secs(i as u64));
    }
    let files: Vec<String> =
        f.important_files(&root, 10).iter().map(|p| p.strip_prefix(&root).unwrap().display().to_string()).collect();
    assert_eq!(files, ["a.txt", "src/lib.rs", "b.md"]);
    assert_eq!(f.important_files(&root, 2).len(), 2);
}

#[test]
fn the_picker_finds_files_fuzzily_and_skips_ignored_ones() {
    use braid_workspace::files::{find, fuzzy_score};
    let (_d, root) = ws();
    for p in ["src/main.rs", "src/machine/step.rs", "docs/MAINTAINERS.md", "target/debug/main.rs", ".hidden/main.rs"] {
        let full = root.join(p);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(&full, "x").unwrap();
    }
    std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
    let found = find(&root, "main", 10);
    assert_eq!(found[0], "src/main.rs", "{found:?}");
    assert!(!found.iter().any(|p| p.starts_with("target/") || p.starts_with(".hidden/")), "{found:?}");
    assert_eq!(find(&root, "mstep", 10), ["src/machine/step.rs"]);
    assert!(find(&root, "zzz", 10).is_empty());
    assert_eq!(find(&root, "", 3).len(), 3, "an empty query lists files, capped");
    assert!(fuzzy_score("SRC", "src/main.rs").is_some(), "case-insensitive");
}
