//! A record on disk of the process groups `run_command` started, so the
//! next start can stop any that outlived Braid (the leader's death signal
//! covers a crash; a group whose leader was killed first, or a machine
//! without `setpriv`, is covered here). One file per group, named by its
//! id, written when the group starts and removed when it ends.
//!
//! A group id is only trusted in the boot it was recorded in, and only if
//! its leader is gone or is the very process recorded (same start time):
//! ids are reused, and an unrelated group is never killed.

use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct ProcessLedger {
    dir: PathBuf,
}

/// Removes its group's record when dropped (after the group was killed).
#[derive(Debug)]
pub struct Recorded(Option<PathBuf>);

impl Drop for Recorded {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl ProcessLedger {
    pub fn new(dir: PathBuf) -> ProcessLedger {
        ProcessLedger { dir }
    }

    /// Records the group led by `pgid`. Failing to record is logged, never
    /// fatal: the command still runs.
    pub fn record(&self, pgid: i32) -> Recorded {
        let line = match (boot_id(), start_time(pgid)) {
            (Some(boot), Some(start)) => format!("{boot} {start}\n"),
            _ => return Recorded(None),
        };
        let path = self.dir.join(pgid.to_string());
        let written = std::fs::create_dir_all(&self.dir).and_then(|()| std::fs::write(&path, line));
        match written {
            Ok(()) => Recorded(Some(path)),
            Err(e) => {
                tracing::warn!(pgid, error = %e, "could not record a command's process group");
                Recorded(None)
            }
        }
    }

    /// Kills every recorded group still alive from this boot and forgets
    /// them all; returns the ids of the groups killed.
    pub fn reap(&self) -> Vec<i32> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        let boot = boot_id();
        let mut killed = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            let pgid = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.parse::<i32>().ok());
            let record = std::fs::read_to_string(&path).unwrap_or_default();
            if let Some(pgid) = pgid.filter(|&p| p > 1 && still_ours(p, &record, boot.as_deref())) {
                if let Some(pid) = rustix::process::Pid::from_raw(pgid) {
                    if rustix::process::kill_process_group(pid, rustix::process::Signal::KILL).is_ok() {
                        tracing::warn!(pgid, "stopped a command's processes left running by the last session");
                        killed.push(pgid);
                    }
                }
            }
            let _ = std::fs::remove_file(&path);
        }
        killed
    }
}

fn still_ours(pgid: i32, record: &str, boot: Option<&str>) -> bool {
    let mut fields = record.split_whitespace();
    let (Some(rec_boot), Some(rec_start)) = (fields.next(), fields.next()) else { return false };
    if Some(rec_boot) != boot {
        return false;
    }
    match start_time(pgid) {
        // The leader lives: only the very process recorded.
        Some(now) => now.to_string() == rec_start,
        // The leader is gone: its group lives on while any member does.
        None => !members(pgid).is_empty(),
    }
}

fn boot_id() -> Option<String> {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok().map(|s| s.trim().to_owned())
}

/// `/proc/<pid>/stat` after the command name (which may hold spaces).
fn stat_fields(pid: i32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(Path::new("/proc").join(pid.to_string()).join("stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

/// Field 22 of stat: clock ticks after boot when the process started.
fn start_time(pid: i32) -> Option<u64> {
    stat_fields(pid)?.get(19)?.parse().ok()
}

/// The running processes whose group (stat field 5) is `pgid`; zombies
/// (state Z, dead and waiting to be reaped) do not count.
fn members(pgid: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| {
            stat_fields(pid).is_some_and(|f| {
                f.first().is_some_and(|s| s != "Z") && f.get(2).and_then(|g| g.parse().ok()) == Some(pgid)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // a panic is how a test reports
    use super::*;
    use std::os::unix::process::CommandExt;

    fn group() -> std::process::Child {
        std::process::Command::new("sh").args(["-c", "sleep 300 & sleep 300"]).process_group(0).spawn().unwrap()
    }

    fn alive(pgid: i32) -> bool {
        !members(pgid).is_empty()
    }

    #[test]
    fn a_recorded_group_still_running_is_killed_and_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = ProcessLedger::new(dir.path().to_owned());
        let mut child = group();
        let pgid = child.id() as i32;
        std::mem::forget(ledger.record(pgid)); // as if Braid died here
        assert!(alive(pgid));
        assert_eq!(ledger.reap(), [pgid]);
        let _ = child.wait();
        // The background sleep goes with the leader.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while alive(pgid) {
            assert!(std::time::Instant::now() < deadline, "the group survived");
            std::thread::yield_now();
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "forgotten");
    }

    #[test]
    fn a_group_id_now_used_by_another_process_or_boot_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = ProcessLedger::new(dir.path().to_owned());
        let mut child = group();
        let pgid = child.id() as i32;
        let boot = boot_id().unwrap();
        // Another start time: the id was reused by this process.
        std::fs::write(dir.path().join(pgid.to_string()), format!("{boot} 1\n")).unwrap();
        assert!(ledger.reap().is_empty());
        // Another boot.
        let start = start_time(pgid).unwrap();
        std::fs::write(dir.path().join(pgid.to_string()), format!("not-this-boot {start}\n")).unwrap();
        assert!(ledger.reap().is_empty());
        assert!(alive(pgid), "never killed");
        let _ = rustix::process::kill_process_group(
            rustix::process::Pid::from_raw(pgid).unwrap(),
            rustix::process::Signal::KILL,
        );
        let _ = child.wait();
    }

    #[test]
    fn a_finished_call_leaves_no_record() {
        let dir = tempfile::tempdir().unwrap();
        let ledger = ProcessLedger::new(dir.path().to_owned());
        let mut child = group();
        let recorded = ledger.record(child.id() as i32);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        drop(recorded);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let _ = child.kill();
        let _ = rustix::process::kill_process_group(
            rustix::process::Pid::from_raw(child.id() as i32).unwrap(),
            rustix::process::Signal::KILL,
        );
        let _ = child.wait();
    }
}
