//! A text change cut into hunks (as `diff -U3` cuts it), counted in
//! lines, and taken back hunk by hunk: the file as the change left it,
//! with the chosen hunks as they were before. When the file changed
//! since, the taking back is merged three-way with what it holds now.

use braid_protocol::LineCount;
use similar::{DiffOp, TextDiff};

/// Lines of context around each hunk, as git shows them.
const CONTEXT: usize = 3;

/// Larger texts are not cut into hunks (a file that large is undone or
/// kept as a whole).
pub const TEXT_LIMIT: usize = 1024 * 1024;

/// A line diff that gives up looking for the shortest one after a second
/// (a huge rewrite still diffs, less tidily).
fn lines<'a>(before: &'a str, after: &'a str) -> TextDiff<'a, 'a, 'a, str> {
    TextDiff::configure().timeout(std::time::Duration::from_secs(1)).diff_lines(before, after)
}

/// `bytes` as text, when they are: UTF-8, no NUL, not beyond the limit.
pub fn text(bytes: &[u8]) -> Option<&str> {
    if bytes.len() > TEXT_LIMIT || bytes.contains(&0) {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// One hunk of a change: its unified diff (the `@@` line first) and the
/// lines it adds and removes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    pub diff: String,
    pub added: u32,
    pub removed: u32,
}

/// The hunks that turn `before` into `after`, in file order.
pub fn hunks(before: &str, after: &str) -> Vec<Hunk> {
    let diff = lines(before, after);
    let mut unified = diff.unified_diff();
    unified.context_radius(CONTEXT);
    unified
        .iter_hunks()
        .map(|h| {
            let count = count_ops(h.ops());
            Hunk { diff: h.to_string(), added: count.added, removed: count.removed }
        })
        .collect()
}

/// Lines added and removed from `before` to `after`.
pub fn count(before: &str, after: &str) -> LineCount {
    count_ops(lines(before, after).ops())
}

fn count_ops(ops: &[DiffOp]) -> LineCount {
    let mut n = LineCount { added: 0, removed: 0 };
    for op in ops.iter().filter(|o| !matches!(o, DiffOp::Equal { .. })) {
        n.added += op.new_range().len() as u32;
        n.removed += op.old_range().len() as u32;
    }
    n
}

/// `after` with the hunks numbered in `undo` (from 0, as [`hunks`]
/// numbers them) as they were in `before`; every other line as in `after`.
pub fn revert(before: &str, after: &str, undo: &[u32]) -> String {
    let diff = lines(before, after);
    let (old, new) = (diff.old_slices(), diff.new_slices());
    // Which hunk each change belongs to, by where it starts.
    let mut hunk_of = std::collections::HashMap::new();
    for (i, group) in diff.grouped_ops(CONTEXT).iter().enumerate() {
        for op in group.iter().filter(|o| !matches!(o, DiffOp::Equal { .. })) {
            hunk_of.insert((op.old_range().start, op.new_range().start), i as u32);
        }
    }
    let mut out = String::with_capacity(after.len());
    for op in diff.ops() {
        let undone = hunk_of.get(&(op.old_range().start, op.new_range().start)).is_some_and(|h| undo.contains(h));
        let lines =
            if undone && !matches!(op, DiffOp::Equal { .. }) { &old[op.old_range()] } else { &new[op.new_range()] };
        lines.iter().for_each(|l| out.push_str(l));
    }
    out
}

/// `theirs`' changes from `base` applied to `ours`; `None` when the two
/// changed the same lines differently.
pub fn merge(base: &str, ours: &str, theirs: &str) -> Option<String> {
    if ours == base {
        return Some(theirs.to_owned());
    }
    diffy::merge(base, ours, theirs).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n";

    fn edited() -> String {
        BEFORE.replace("b\n", "B\n").replace("m\n", "M\nM2\n")
    }

    #[test]
    fn far_apart_changes_are_two_hunks_counted_in_lines() {
        let h = hunks(BEFORE, &edited());
        assert_eq!(h.len(), 2);
        assert!(h[0].diff.starts_with("@@ -1,5 +1,5 @@"), "{}", h[0].diff);
        assert_eq!((h[0].added, h[0].removed), (1, 1));
        assert_eq!((h[1].added, h[1].removed), (2, 1));
        assert_eq!(count(BEFORE, &edited()), LineCount { added: 3, removed: 2 });
        assert_eq!(count("", "x\ny\n"), LineCount { added: 2, removed: 0 });
    }

    #[test]
    fn each_hunk_is_taken_back_alone_or_together() {
        let after = edited();
        assert_eq!(revert(BEFORE, &after, &[0]), BEFORE.replace("m\n", "M\nM2\n"));
        assert_eq!(revert(BEFORE, &after, &[1]), BEFORE.replace("b\n", "B\n"));
        assert_eq!(revert(BEFORE, &after, &[0, 1]), BEFORE);
        assert_eq!(revert(BEFORE, &after, &[]), after);
        assert_eq!(revert("", "new\n", &[0]), "");
    }

    #[test]
    fn a_taking_back_merges_with_later_changes_elsewhere_and_refuses_overlaps() {
        let after = edited();
        let later = after.replace("g\n", "G\n");
        let back = revert(BEFORE, &after, &[0]);
        assert_eq!(merge(&after, &later, &back).unwrap(), later.replace("B\n", "b\n"));
        let clash = after.replace("B\n", "BB\n");
        assert_eq!(merge(&after, &clash, &back), None);
        assert_eq!(text(b"a\0b"), None);
        assert_eq!(text("é".as_bytes()), Some("é"));
    }
}
