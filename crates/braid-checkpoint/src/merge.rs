//! Two lines of work's files merged three-way against where they parted:
//! what one side changed and the other did not comes along; text both
//! changed is merged line by line (diffy), and what cannot be merged —
//! overlapping lines, a file deleted on one side and edited on the other,
//! a binary file both changed, a file both added differently — is a
//! conflict, with each side's content, for the user to choose.

use crate::hunks::text;
use braid_protocol::FileTake;
use diffy::{ConflictStyle, MergeOptions};
use std::collections::{BTreeMap, BTreeSet};

/// Markers long enough that no file holds one: settling a conflict
/// splits the merged text on them.
const MARK: usize = 32;

/// Why a file could not be merged by itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflict {
    /// Both changed the same lines: the text with both sides marked.
    Lines { marked: String },
    /// One side deleted the file, the other changed it.
    DeletedAndChanged,
    /// Both changed or added a file that is not text.
    Binary,
}

/// One file's merge: the content it gets (`None`: absent), or a conflict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Merged {
    Clean(Option<Vec<u8>>),
    Conflict(Conflict),
}

/// Merges one file: `base` where the sides parted, `ours` and `theirs`
/// now (`None`: absent).
pub fn merge_file(base: Option<&[u8]>, ours: Option<&[u8]>, theirs: Option<&[u8]>) -> Merged {
    if ours == theirs || theirs == base {
        return Merged::Clean(ours.map(<[u8]>::to_vec));
    }
    if ours == base {
        return Merged::Clean(theirs.map(<[u8]>::to_vec));
    }
    let (Some(ours), Some(theirs)) = (ours, theirs) else {
        return Merged::Conflict(Conflict::DeletedAndChanged);
    };
    let (Some(base), Some(a), Some(b)) = (text(base.unwrap_or_default()), text(ours), text(theirs)) else {
        return Merged::Conflict(Conflict::Binary);
    };
    match MergeOptions::new().set_conflict_style(ConflictStyle::Merge).merge(base, a, b) {
        Ok(merged) => Merged::Clean(Some(merged.into_bytes())),
        Err(marked) => Merged::Conflict(Conflict::Lines { marked }),
    }
}

/// A file that could not be merged by itself, settled as the user chose:
/// the content it gets (`None`: absent), or why that choice does not fit.
/// Ours and theirs take one side of each conflicting part (what merged
/// cleanly around it stays); both takes ours then theirs.
pub fn settle(
    base: Option<&[u8]>,
    ours: Option<&[u8]>,
    theirs: Option<&[u8]>,
    take: &FileTake,
) -> Result<Option<Vec<u8>>, String> {
    let conflict = match merge_file(base, ours, theirs) {
        Merged::Clean(content) => return Ok(content),
        Merged::Conflict(c) => c,
    };
    let whole = |side: Option<&[u8]>| Ok(side.map(<[u8]>::to_vec));
    match (take, conflict) {
        (FileTake::Edited { text }, _) => Ok(Some(text.clone().into_bytes())),
        (FileTake::Ours, Conflict::DeletedAndChanged | Conflict::Binary) => whole(ours),
        (FileTake::Theirs, Conflict::DeletedAndChanged | Conflict::Binary) => whole(theirs),
        // The side that still has the file: nothing of either is lost.
        (FileTake::Both, Conflict::DeletedAndChanged) => whole(ours.or(theirs)),
        (FileTake::Both, Conflict::Binary) => {
            Err("a file that is not text cannot hold both sides: take ours or theirs".to_owned())
        }
        (take, Conflict::Lines { .. }) => {
            let [base, ours, theirs] = [base, ours, theirs].map(|b| text(b.unwrap_or_default()).unwrap_or_default());
            let marked = MergeOptions::new()
                .set_conflict_style(ConflictStyle::Merge)
                .set_conflict_marker_length(MARK)
                .merge(base, ours, theirs)
                .unwrap_or_else(|marked| marked);
            Ok(Some(pick(&marked, take).into_bytes()))
        }
    }
}

/// Each conflicting part of `marked` (markers [`MARK`] long) as `take`
/// says.
fn pick(marked: &str, take: &FileTake) -> String {
    let open = format!("{} ours\n", "<".repeat(MARK));
    let middle = format!("{}\n", "=".repeat(MARK));
    let close = format!("{} theirs\n", ">".repeat(MARK));
    let mut out = String::with_capacity(marked.len());
    let mut rest = marked;
    while let Some(start) = rest.find(&open) {
        out.push_str(&rest[..start]);
        let part = &rest[start + open.len()..];
        let (Some(mid), Some(end)) = (part.find(&middle), part.find(&close)) else { break };
        let (ours, theirs) = (&part[..mid], &part[mid + middle.len()..end]);
        match take {
            FileTake::Ours => out.push_str(ours),
            FileTake::Theirs => out.push_str(theirs),
            _ => {
                out.push_str(ours);
                out.push_str(theirs);
            }
        }
        rest = &part[end + close.len()..];
    }
    out.push_str(rest);
    out
}

/// Merges every file of two workspaces by path, against their base.
pub fn merge_files(
    base: &BTreeMap<String, Vec<u8>>,
    ours: &BTreeMap<String, Vec<u8>>,
    theirs: &BTreeMap<String, Vec<u8>>,
) -> BTreeMap<String, Merged> {
    let paths: BTreeSet<&String> = base.keys().chain(ours.keys()).chain(theirs.keys()).collect();
    paths
        .into_iter()
        .map(|p| {
            let (b, o, t) = (base.get(p), ours.get(p), theirs.get(p));
            (p.clone(), merge_file(b.map(Vec::as_slice), o.map(Vec::as_slice), t.map(Vec::as_slice)))
        })
        .filter(|(p, m)| *m != Merged::Clean(base.get(p).cloned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LINES: usize = 24;
    /// Ten lines apart: changes in different slots never touch.
    const SLOTS: [usize; 3] = [1, 11, 21];

    fn base() -> String {
        (0..LINES).map(|l| format!("line {l}\n")).collect()
    }

    /// `base` with the given slots' lines set.
    fn edited(edits: &[(usize, &str)]) -> String {
        let mut lines: Vec<String> = base().lines().map(|l| format!("{l}\n")).collect();
        for (slot, text) in edits {
            lines[SLOTS[*slot]] = format!("{text}\n");
        }
        lines.concat()
    }

    fn clean(m: Merged) -> String {
        match m {
            Merged::Clean(Some(bytes)) => String::from_utf8(bytes).unwrap(),
            other => panic!("not clean: {other:?}"),
        }
    }

    proptest! {
        // Each side edits some slots; where both edit one slot they
        // conflict unless they wrote the same; otherwise the merge holds
        // every edit of both.
        #[test]
        fn edits_in_different_places_merge_and_the_same_place_conflicts(
            ours in prop::collection::btree_map(0..3usize, 0..3u8, 0..3),
            theirs in prop::collection::btree_map(0..3usize, 0..3u8, 0..3),
        ) {
            let say = |side: &str, v: u8| format!("{side} {v}");
            let a: Vec<(usize, String)> = ours.iter().map(|(s, v)| (*s, say("edit", *v))).collect();
            let b: Vec<(usize, String)> = theirs.iter().map(|(s, v)| (*s, say("edit", *v))).collect();
            let text = |e: &[(usize, String)]| edited(&e.iter().map(|(s, t)| (*s, t.as_str())).collect::<Vec<_>>());
            let merged = merge_file(Some(base().as_bytes()), Some(text(&a).as_bytes()), Some(text(&b).as_bytes()));
            let clash = a.iter().any(|(s, t)| b.iter().any(|(s2, t2)| s == s2 && t != t2));
            if clash {
                prop_assert!(matches!(merged, Merged::Conflict(Conflict::Lines { .. })), "{:?}", merged);
            } else {
                let mut both = a.clone();
                both.extend(b.iter().cloned());
                prop_assert_eq!(clean(merged), text(&both));
            }
        }
    }

    #[test]
    fn a_conflict_is_settled_by_side_around_what_merged_cleanly() {
        let b = base();
        let ours = edited(&[(0, "ours clean"), (1, "ours")]);
        let theirs = edited(&[(1, "theirs"), (2, "theirs clean")]);
        let pick = |take| settle(Some(b.as_bytes()), Some(ours.as_bytes()), Some(theirs.as_bytes()), &take);
        let with = |middle: &[&str]| {
            let mut lines: Vec<String> = base().lines().map(|l| format!("{l}\n")).collect();
            lines[SLOTS[0]] = "ours clean\n".into();
            lines[SLOTS[2]] = "theirs clean\n".into();
            lines.splice(SLOTS[1]..=SLOTS[1], middle.iter().map(|l| format!("{l}\n")));
            lines.concat().into_bytes()
        };
        assert_eq!(pick(FileTake::Ours).unwrap(), Some(with(&["ours"])));
        assert_eq!(pick(FileTake::Theirs).unwrap(), Some(with(&["theirs"])));
        assert_eq!(pick(FileTake::Both).unwrap(), Some(with(&["ours", "theirs"])));
        let text = "by hand\n".to_owned();
        assert_eq!(pick(FileTake::Edited { text: text.clone() }).unwrap(), Some(text.into_bytes()));

        let changed = edited(&[(0, "changed")]);
        let gone = |take| settle(Some(b.as_bytes()), None, Some(changed.as_bytes()), &take);
        assert_eq!(gone(FileTake::Ours).unwrap(), None, "ours deleted it");
        assert_eq!(gone(FileTake::Both).unwrap(), Some(changed.clone().into_bytes()), "both keeps the changed file");
        let binary = settle(Some(b"\0a"), Some(b"\0b"), Some(b"\0c"), &FileTake::Both);
        assert!(binary.unwrap_err().contains("cannot hold both"));
        assert_eq!(settle(Some(b"\0a"), Some(b"\0b"), Some(b"\0c"), &FileTake::Theirs).unwrap(), Some(b"\0c".to_vec()));
    }

    #[test]
    fn files_added_deleted_and_binary_are_merged_or_said() {
        let b = base();
        let changed = edited(&[(0, "ours")]);
        assert_eq!(merge_file(Some(b.as_bytes()), None, Some(b.as_bytes())), Merged::Clean(None));
        assert_eq!(
            merge_file(Some(b.as_bytes()), None, Some(changed.as_bytes())),
            Merged::Conflict(Conflict::DeletedAndChanged)
        );
        assert_eq!(merge_file(None, Some(b"new\n"), None), Merged::Clean(Some(b"new\n".to_vec())));
        assert_eq!(merge_file(None, Some(b"same\n"), Some(b"same\n")), Merged::Clean(Some(b"same\n".to_vec())));
        assert!(matches!(merge_file(None, Some(b"one\n"), Some(b"two\n")), Merged::Conflict(Conflict::Lines { .. })));
        assert_eq!(merge_file(Some(b"\0a"), Some(b"\0b"), Some(b"\0c")), Merged::Conflict(Conflict::Binary));

        let mut base_files = BTreeMap::new();
        base_files.insert("kept.txt".to_owned(), b.clone().into_bytes());
        base_files.insert("gone.txt".to_owned(), b"x\n".to_vec());
        let mut ours = base_files.clone();
        ours.remove("gone.txt");
        ours.insert("kept.txt".into(), changed.clone().into_bytes());
        let mut theirs = base_files.clone();
        theirs.insert("new.txt".into(), b"theirs\n".to_vec());
        let merged = merge_files(&base_files, &ours, &theirs);
        let got: Vec<(&str, &Merged)> = merged.iter().map(|(p, m)| (p.as_str(), m)).collect();
        assert_eq!(
            got,
            [
                ("gone.txt", &Merged::Clean(None)),
                ("kept.txt", &Merged::Clean(Some(changed.into_bytes()))),
                ("new.txt", &Merged::Clean(Some(b"theirs\n".to_vec()))),
            ],
            "only what differs from the base is listed"
        );
    }
}
