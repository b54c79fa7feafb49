//! Two lines of work's files merged three-way against where they parted:
//! what one side changed and the other did not comes along; text both
//! changed is merged line by line (diffy), and what cannot be merged —
//! overlapping lines, a file deleted on one side and edited on the other,
//! a binary file both changed, a file both added differently — is a
//! conflict, with each side's content, for the user to choose.

use crate::hunks::text;
use std::collections::{BTreeMap, BTreeSet};

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
    match diffy::merge(base, a, b) {
        Ok(merged) => Merged::Clean(Some(merged.into_bytes())),
        Err(marked) => Merged::Conflict(Conflict::Lines { marked }),
    }
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
