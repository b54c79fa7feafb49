//! Finding files for the `@` picker: the workspace walked once per query
//! (hidden files and what `.gitignore` ignores are skipped; the walk is
//! capped), ranked by a fuzzy subsequence match on the relative path.

use std::path::Path;

/// The walk stops after this many files (a home directory as workspace
/// must not stall the picker).
const MAX_WALK: usize = 20_000;

/// Score of `query` as a subsequence of `path` (case-insensitive): `None`
/// when it is not one; higher is better — matches in the file name, at
/// word starts and in runs count more; shorter paths win ties.
pub fn fuzzy_score(query: &str, path: &str) -> Option<i64> {
    if query.is_empty() {
        return Some(-(path.len() as i64));
    }
    let p: Vec<char> = path.chars().flat_map(char::to_lowercase).collect();
    let name_start = path.rfind('/').map_or(0, |i| path[..=i].chars().count());
    let mut score = 0i64;
    let mut at = 0usize;
    let mut last: Option<usize> = None;
    for q in query.chars().flat_map(char::to_lowercase) {
        let found = (at..p.len()).find(|&i| p[i] == q)?;
        score += 1;
        if found >= name_start {
            score += 2;
        }
        if found == 0 || matches!(p[found - 1], '/' | '_' | '-' | '.' | ' ') {
            score += 3;
        }
        if last == Some(found.wrapping_sub(1)) {
            score += 4;
        }
        last = Some(found);
        at = found + 1;
    }
    Some(score * 1_000 - p.len() as i64)
}

/// Relative paths of the workspace's files matching `query`, best first.
pub fn find(workspace: &Path, query: &str, limit: usize) -> Vec<String> {
    let walk = ignore::WalkBuilder::new(workspace).require_git(false).follow_links(false).build();
    let mut scored: Vec<(i64, String)> = walk
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .take(MAX_WALK)
        .filter_map(|e| {
            let rel = e.path().strip_prefix(workspace).ok()?.to_string_lossy().into_owned();
            fuzzy_score(query.trim(), &rel).map(|s| (s, rel))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    scored.into_iter().take(limit).map(|(_, p)| p).collect()
}
