//! A restore of 500 files killed (SIGKILL) at a random point, ten times:
//! after the next start's recovery every file is new — or, killed before
//! the journal was written, every file is old. Never a mix.

use crate::support::Place;
use braid_checkpoint::{changes, Manifest};
use braid_protocol::RestoreTarget;
use std::time::{Duration, Instant};

const CHILD: &str = "BRAID_CHECKPOINT_RESTORE_CHILD";
const FILES: usize = 500;

#[test]
fn a_restore_killed_part_way_is_completed_on_the_next_start() {
    if let Ok(base) = std::env::var(CHILD) {
        let place = Place::open(std::path::Path::new(&base));
        let targets: Vec<RestoreTarget> =
            serde_json::from_slice(&std::fs::read(place.base.join("targets.json")).unwrap()).unwrap();
        place.journal.restore(&place.root, &place.objects, &targets).unwrap();
        return;
    }
    let mut completed_by_recovery = 0;
    for round in 0..10u64 {
        let p = Place::new();
        for i in 0..FILES {
            p.write(&format!("d{}/f{i}.txt", i % 10), format!("old {i}\n").repeat(20).as_bytes());
        }
        let old = p.scan(&Manifest::default());
        for i in 0..FILES {
            p.write(&format!("d{}/f{i}.txt", i % 10), format!("new {i}\n").repeat(20).as_bytes());
        }
        let new = p.scan(&old);
        // Back to the old contents, as a rewind would.
        let targets: Vec<RestoreTarget> = changes(&new, &old)
            .into_iter()
            .map(|d| RestoreTarget { path: d.path, to: d.after, expected: d.before.map(|v| v.hash) })
            .collect();
        assert_eq!(targets.len(), FILES);
        std::fs::write(p.base.join("targets.json"), serde_json::to_vec(&targets).unwrap()).unwrap();

        let mut child = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["killed::a_restore_killed_part_way_is_completed_on_the_next_start", "--exact", "--quiet"])
            .env(CHILD, &p.base)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Kill once the journal is there (the restore under way), a little
        // later each round; a child that finished first is fine too.
        let journal = p.base.join("data/restore.json");
        let deadline = Instant::now() + Duration::from_secs(60);
        while !journal.exists() && child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_micros(200));
        }
        std::thread::sleep(Duration::from_micros(round * 700));
        let _ = child.kill();
        child.wait().unwrap();

        let recovered = p.journal.recover(&p.objects, &|_, _| true).unwrap();
        let files = p.files();
        assert_eq!(files.len(), FILES, "round {round}: no half-written file left beside them");
        let new_ones = (0..FILES).filter(|i| files[&format!("d{}/f{i}.txt", i % 10)].starts_with(b"new")).count();
        let old_ones = (0..FILES).filter(|i| files[&format!("d{}/f{i}.txt", i % 10)].starts_with(b"old")).count();
        assert!(new_ones == FILES || old_ones == FILES, "round {round}: a mix ({old_ones} old, {new_ones} new)");
        if let Some(r) = recovered {
            assert_eq!((r.files, old_ones), (FILES, FILES), "round {round}: recovery completes the restore");
            completed_by_recovery += 1;
        }
    }
    assert!(completed_by_recovery > 0, "no round was killed part way: the test proved nothing");
}
