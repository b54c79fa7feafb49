//! Checkpoints against git on the same tree, in one run (`make
//! bench-checkpoint`; figures in docs/PERFORMANCE.md):
//!
//! 1. a checkpoint of a 10,000-file workspace where 10 files changed:
//!    Braid's scan (stat cache, the 10 read and kept) against
//!    `git stash create` (index refresh, blobs and trees written) —
//!    alternating, each run with 10 newly changed files;
//! 2. a restore of 100 files (journaled, one rename each);
//! 3. the space 100 turns add on a 50 MB workspace (three files edited a
//!    little per turn): Braid's store against the changed bytes, raw and
//!    deflated, and git's loose objects for the same turns as commits;
//! 4. a merge preview of two branches that changed 100 files each (10 of
//!    them on both sides, far apart) in a 1,000-file workspace: Braid's
//!    three-way merge of the changed files from its store against
//!    `git merge-tree --write-tree` on the same trees as commits;
//! 5. an isolated copy of the 10,000-file workspace (a line of work of its
//!    own): Braid's copy of the working files against `git worktree add`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a bench reports by panicking

use braid_checkpoint::{changes, Journal, Limits, Manifest, Objects};
use braid_protocol::RestoreTarget;
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant, SystemTime};

const RUNS: usize = 15;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=bench", "-c", "user.email=bench@localhost", "-c", "gc.auto=0"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn text(i: usize, salt: usize, bytes: usize) -> Vec<u8> {
    let line = format!("fn item_{i}_{salt}() -> usize {{ {i} * {salt} }} // some code here\n");
    line.repeat(bytes / line.len() + 1).into_bytes()[..bytes].to_vec()
}

fn old(path: &Path) {
    let past = SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options().write(true).open(path).unwrap().set_modified(past).unwrap();
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn dir_size(dir: &Path) -> u64 {
    let mut total = 0;
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let meta = e.metadata().unwrap();
        total += if meta.is_dir() { dir_size(&e.path()) } else { meta.len() };
    }
    total
}

fn deflated(bytes: &[u8]) -> u64 {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap().len() as u64
}

fn main() {
    let base = tempfile::tempdir().unwrap();
    checkpoint_and_restore(base.path());
    isolated_copy(base.path());
    space(base.path());
    merge_preview(base.path());
}

/// `lines` lines of a file, line `at` (if any) set to `to`.
fn lines_with(i: usize, at: Option<(usize, &str)>) -> Vec<u8> {
    let mut out: Vec<String> = (0..60).map(|l| format!("fn item_{i}_{l}() -> usize {{ {l} }}\n")).collect();
    if let Some((l, to)) = at {
        out[l] = format!("{to}\n");
    }
    out.concat().into_bytes()
}

fn merge_preview(base: &Path) {
    let root = base.join("merge");
    let write = |i: usize, at: Option<(usize, &str)>| {
        let path = root.join(format!("m{}/f{i}.rs", i % 20));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, lines_with(i, at)).unwrap();
    };
    (0..1_000).for_each(|i| write(i, None));
    git(&root, &["init", "-q", "-b", "main"]);
    let commit = |name: &str| {
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-q", "-m", name]);
        git(&root, &["rev-parse", "HEAD"]).trim().to_owned()
    };
    let objects = Objects::new(base.join("merge-objects"));
    let scan = |last: &Manifest| braid_checkpoint::scan(&root, last, &objects, Limits::default()).unwrap();
    let parted = scan(&Manifest::default());
    let base_commit = commit("base");
    // Ours: files 0..100, line 5. Theirs: files 90..190, line 50.
    (0..100).for_each(|i| write(i, Some((5, "// ours"))));
    let ours = scan(&parted);
    let ours_commit = commit("ours");
    git(&root, &["checkout", "-q", &base_commit]);
    (0..1_000).for_each(|i| write(i, None));
    (90..190).for_each(|i| write(i, Some((50, "// theirs"))));
    let theirs = scan(&ours);
    let theirs_commit = commit("theirs");

    let read = |m: &Manifest, p: &str| m.files.get(p).map(|f| objects.get(&f.version.hash).unwrap());
    let (mut braid, mut gits) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        let t = Instant::now();
        let mut paths: Vec<String> = changes(&parted, &ours).into_iter().map(|d| d.path).collect();
        paths.extend(changes(&parted, &theirs).into_iter().map(|d| d.path));
        paths.sort();
        paths.dedup();
        let mut clean = 0;
        for p in &paths {
            let (b, o, th) = (read(&parted, p), read(&ours, p), read(&theirs, p));
            if let braid_checkpoint::merge::Merged::Clean(_) =
                braid_checkpoint::merge::merge_file(b.as_deref(), o.as_deref(), th.as_deref())
            {
                clean += 1;
            }
        }
        braid.push(ms(t.elapsed()));
        assert_eq!((paths.len(), clean), (190, 190));
        let t = Instant::now();
        let tree = git(&root, &["merge-tree", "--write-tree", &ours_commit, &theirs_commit]);
        gits.push(ms(t.elapsed()));
        assert!(!tree.trim().is_empty());
    }
    let (b, g) = (median(braid), median(gits));
    println!(
        "merge preview, 1,000 files, 100 changed on each side (10 on both): Braid {b:.1} ms, git merge-tree {g:.1} ms (Braid {:.2}x git's time)",
        b / g
    );
}

/// The 10,000-file workspace of the first part (a repository, 100
/// files changed and not committed), copied for a line of work of its
/// own three ways, alternating: the working files copied; what Braid
/// makes in a repository (a worktree, the working changes carried over);
/// `git worktree add` alone.
fn isolated_copy(base: &Path) {
    let root = base.join("ten-thousand");
    for i in 0..100 {
        std::fs::write(root.join(format!("m{i}/f{i}.rs")), text(i, 7, 2048)).unwrap();
    }
    let (mut copies, mut braid, mut gits) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..5 {
        let to = base.join(format!("isolated-{run}"));
        let t = Instant::now();
        let copied = braid_checkpoint::isolate::isolate(&root, &to, &[]).unwrap();
        copies.push(ms(t.elapsed()));
        assert!(copied.files >= 10_000, "{copied:?}");
        let made = base.join(format!("braid-{run}"));
        let t = Instant::now();
        let kind = braid_checkpoint::isolate::workspace_copy(&root, &made, &[]).unwrap();
        braid.push(ms(t.elapsed()));
        assert_eq!(kind, braid_protocol::IsolationKind::GitWorktree);
        let tree = base.join(format!("worktree-{run}"));
        let t = Instant::now();
        git(&root, &["worktree", "add", "-q", "--detach", tree.to_str().unwrap()]);
        gits.push(ms(t.elapsed()));
        std::fs::remove_dir_all(&to).unwrap();
        std::fs::remove_dir_all(&made).unwrap();
        std::fs::remove_dir_all(&tree).unwrap();
        git(&root, &["worktree", "prune"]);
    }
    let (c, b, g) = (median(copies), median(braid), median(gits));
    println!(
        "isolated copy of a 10,000-file workspace: files copied {c:.0} ms ({:.2}x git's time); Braid's worktree with 100 working changes {b:.0} ms ({:.2}x); git worktree add {g:.0} ms",
        c / g,
        b / g
    );
}

fn checkpoint_and_restore(base: &Path) {
    let root = base.join("ten-thousand");
    for i in 0..10_000 {
        let path = root.join(format!("m{}/f{i}.rs", i % 100));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text(i, 0, 2048)).unwrap();
        old(&path);
    }
    git(&root, &["init", "-q"]);
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "base"]);
    let objects = Objects::new(base.join("objects"));
    let baseline = braid_checkpoint::scan(&root, &Manifest::default(), &objects, Limits::default()).unwrap();
    git(&root, &["status", "--porcelain"]); // the index's stat cache, fresh

    let (mut braid, mut gits) = (Vec::new(), Vec::new());
    for run in 1..=RUNS {
        for i in 0..10 {
            let path = root.join(format!("m{}/f{}.rs", i % 100, i * 37));
            std::fs::write(&path, text(i, run, 2048)).unwrap();
        }
        let t = Instant::now();
        let scanned = braid_checkpoint::scan(&root, &baseline, &objects, Limits::default()).unwrap();
        braid.push(ms(t.elapsed()));
        assert_eq!(changes(&baseline, &scanned).len(), 10);
        let t = Instant::now();
        let stash = git(&root, &["stash", "create"]);
        gits.push(ms(t.elapsed()));
        assert!(!stash.trim().is_empty());
    }
    let (b, g) = (median(braid), median(gits));
    println!(
        "checkpoint, 10,000 files, 10 changed: Braid {b:.1} ms, git stash create {g:.1} ms (Braid {:.2}x git's time)",
        b / g
    );

    // 100 files back and forth between two versions.
    let journal = Journal::new(base.join("restore.json"));
    let paths: Vec<String> = (0..100).map(|i| format!("m{}/f{}.rs", i % 100, 5000 + i)).collect();
    let versions: Vec<Manifest> = (0..2)
        .map(|v| {
            for (i, p) in paths.iter().enumerate() {
                std::fs::write(root.join(p), text(i, 100 + v, 2048)).unwrap();
            }
            braid_checkpoint::scan(&root, &baseline, &objects, Limits::default()).unwrap()
        })
        .collect();
    let mut times = Vec::new();
    for run in 0..RUNS {
        let (from, to) = (&versions[(run + 1) % 2], &versions[run % 2]);
        let targets: Vec<RestoreTarget> = changes(from, to)
            .into_iter()
            .filter(|d| paths.contains(&d.path))
            .map(|d| RestoreTarget { path: d.path, to: d.after, expected: d.before.map(|v| v.hash) })
            .collect();
        let t = Instant::now();
        let written = journal.restore(&root, &objects, &targets).unwrap();
        times.push(ms(t.elapsed()));
        assert_eq!(written, 100);
    }
    println!("restore of 100 files: Braid {:.1} ms", median(times));
}

fn space(base: &Path) {
    let root = base.join("fifty-mb");
    for i in 0..5_000 {
        let path = root.join(format!("d{}/f{i}.txt", i % 50));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text(i, 0, 10 * 1024)).unwrap();
    }
    git(&root, &["init", "-q"]);
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "base"]);
    let objects = Objects::new(base.join("space-objects"));
    let mut last = braid_checkpoint::scan(&root, &Manifest::default(), &objects, Limits::default()).unwrap();
    let (braid_before, git_before) = (dir_size(&base.join("space-objects")), dir_size(&root.join(".git/objects")));
    let (mut raw, mut packed) = (0u64, 0u64);
    for turn in 0..100 {
        for k in 0..3 {
            let i = (turn * 7 + k * 1013) % 5_000;
            let path = root.join(format!("d{}/f{i}.txt", i % 50));
            let mut bytes = std::fs::read(&path).unwrap();
            bytes.extend(format!("// turn {turn}: a line the model added\n").bytes());
            std::fs::write(&path, &bytes).unwrap();
            raw += bytes.len() as u64;
            packed += deflated(&bytes);
        }
        last = braid_checkpoint::scan(&root, &last, &objects, Limits::default()).unwrap();
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-q", "-m", "turn"]);
    }
    let braid = dir_size(&base.join("space-objects")) - braid_before;
    let gits = dir_size(&root.join(".git/objects")) - git_before;
    let mb = |b: u64| b as f64 / 1e6;
    println!(
        "100 turns on a 50 MB workspace: Braid adds {:.2} MB; the changed files are {:.2} MB raw, {:.2} MB deflated; git's loose objects add {:.2} MB",
        mb(braid),
        mb(raw),
        mb(packed),
        mb(gits)
    );
}
