use crate::support::Place;
use braid_checkpoint::{changes, conflicts, Limits, Manifest};
use braid_protocol::{FileKind, RestoreTarget};
use std::time::{Duration, SystemTime};

#[test]
fn a_scan_keeps_what_git_would_and_lists_what_is_too_large() {
    let p = Place::new();
    p.write(".gitignore", b"target/\n*.log\n");
    p.write("src/main.rs", b"fn main() {}\n");
    p.write("target/debug/app", b"binary");
    p.write("run.log", b"noise");
    p.write(".git/HEAD", b"ref: refs/heads/main\n");
    p.write(".env.example", b"KEY=\n");
    p.write("big.bin", &vec![7u8; 2048]);
    let limits = Limits { max_file_bytes: 1024, max_files: 1000, exclude: vec![p.root.join("private")] };
    p.write("private/db.sqlite", b"not the workspace's");
    let m = braid_checkpoint::scan(&p.root, &Manifest::default(), &p.objects, limits).unwrap();
    let kept: Vec<&str> = m.files.keys().map(String::as_str).collect();
    assert_eq!(kept, [".env.example", ".gitignore", "src/main.rs"]);
    assert_eq!(m.skipped.len(), 1);
    assert_eq!((m.skipped[0].path.as_str(), m.skipped[0].size), ("big.bin", 2048));
    assert!(m.skipped[0].reason.contains("larger than"), "{:?}", m.skipped[0]);
    let main = &m.files["src/main.rs"].version;
    assert_eq!(p.objects.get(&main.hash).unwrap(), b"fn main() {}\n");
}

#[test]
fn an_unchanged_stat_is_trusted_and_a_racy_one_is_read_again() {
    let p = Place::new();
    let path = p.root.join("a.txt");
    let past = SystemTime::now() - Duration::from_secs(3600);
    p.write("a.txt", b"one");
    std::fs::File::options().write(true).open(&path).unwrap().set_modified(past).unwrap();
    let first = p.scan(&Manifest::default());
    assert!(!first.files["a.txt"].racy);

    // Same size, same time, same inode: not read (the cache says "one").
    std::fs::write(&path, b"two").unwrap();
    std::fs::File::options().write(true).open(&path).unwrap().set_modified(past).unwrap();
    let second = p.scan(&first);
    assert_eq!(second.files["a.txt"].version.hash, first.files["a.txt"].version.hash);

    // A file changed just now is racy: read again next time whatever its stat.
    std::fs::write(&path, b"333").unwrap();
    let third = p.scan(&first);
    assert!(third.files["a.txt"].racy);
    std::fs::write(&path, b"444").unwrap();
    let fourth = p.scan(&third);
    assert_eq!(p.objects.get(&fourth.files["a.txt"].version.hash).unwrap(), b"444");
}

#[test]
fn a_restore_puts_back_contents_kinds_and_removals_and_says_what_was_changed_since() {
    use std::os::unix::fs::PermissionsExt;
    let p = Place::new();
    p.write("keep.txt", b"same");
    p.write("edit.txt", b"before");
    p.write("gone.txt", b"deleted by the model");
    p.write("run.sh", b"#!/bin/sh\necho hi\n");
    std::fs::set_permissions(p.root.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let before = p.scan(&Manifest::default());
    assert_eq!(before.files["run.sh"].version.kind, FileKind::Executable);

    p.write("edit.txt", b"after");
    std::fs::remove_file(p.root.join("gone.txt")).unwrap();
    std::fs::remove_file(p.root.join("run.sh")).unwrap();
    p.write("new/deep/file.txt", b"created");
    let after = p.scan(&before);
    let delta = changes(&before, &after);
    let paths: Vec<&str> = delta.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(paths, ["edit.txt", "gone.txt", "new/deep/file.txt", "run.sh"]);

    let targets: Vec<RestoreTarget> = delta
        .iter()
        .map(|d| RestoreTarget {
            path: d.path.clone(),
            to: d.before.clone(),
            expected: d.after.as_ref().map(|v| v.hash.clone()),
        })
        .collect();
    assert!(conflicts(&p.root, &targets).unwrap().is_empty());
    // Someone edits a file after the scan: it is named before anything is written.
    p.write("edit.txt", b"by hand");
    let found = conflicts(&p.root, &targets).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].path, "edit.txt");

    assert_eq!(p.journal.restore(&p.root, &p.objects, &targets).unwrap(), 4);
    let files = p.files();
    assert_eq!(files.keys().collect::<Vec<_>>(), ["edit.txt", "gone.txt", "keep.txt", "run.sh"]);
    assert_eq!(files["gone.txt"], b"deleted by the model");
    assert_eq!(files["edit.txt"], b"before");
    assert!(!p.root.join("new").exists(), "folders the restore emptied go too");
    let mode = std::fs::metadata(p.root.join("run.sh")).unwrap().permissions().mode();
    assert_eq!(mode & 0o111, 0o111, "still executable");
    assert_eq!(p.journal.recover(&p.objects, &|_, _| true).unwrap(), None, "nothing left journaled");
}

#[test]
fn a_restore_refuses_paths_that_leave_the_workspace_before_writing_anything() {
    let p = Place::new();
    p.write("a.txt", b"a");
    let m = p.scan(&Manifest::default());
    for bad in ["../outside.txt", "/etc/passwd", "a/../../x", ""] {
        let target = RestoreTarget { path: bad.into(), to: Some(m.files["a.txt"].version.clone()), expected: None };
        let err = p.journal.restore(&p.root, &p.objects, &[target]).unwrap_err();
        assert!(err.to_string().contains("not a path inside the workspace"), "{bad}: {err}");
    }
    assert_eq!(p.files().len(), 1);
}
