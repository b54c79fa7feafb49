//! `codebase_search`: ripgrep's matcher and searcher over the indexed
//! files on every core; each match widened to the definition around it
//! with a breadcrumb (`mod a › impl B › fn c`, as Zed's grep does), the
//! matches of one definition kept together, and the results ranked:
//! definitions first, then exact matches, then path relevance, then the
//! most recently changed.

use crate::index::{Index, MAX_PARSED_BYTES};
use crate::symbols::{Def, FileSymbols};
use grep_matcher::Matcher;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{sinks::Lossy, BinaryDetection, SearcherBuilder};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A definition up to this long is shown whole; a longer one by its
/// signature and the lines around each match.
const WHOLE_DEF_LINES: u32 = 30;
const CONTEXT: u32 = 2;
/// Matches kept per file and in all: a query matching everything stays fast.
const PER_FILE: usize = 100;
const IN_ALL: usize = 5_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Literal,
    Regex,
    Word,
}

#[derive(Debug, Clone)]
pub struct Query {
    pub pattern: String,
    pub mode: Mode,
    /// Only paths matching this glob (`src/**/*.rs`, `*.py`).
    pub glob: Option<String>,
    /// None: smart case (insensitive unless the pattern has a capital).
    pub case_sensitive: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub path: String,
    /// The lines of the matches in this definition.
    pub matches: Vec<u32>,
    /// `mod a › impl B › fn c`; empty outside any definition.
    pub breadcrumb: String,
    /// A definition of something the query names.
    pub definition: bool,
    /// The query as a whole word, in the case given.
    pub exact: bool,
    /// Numbered lines to show; a gap in the numbers is elided text.
    pub snippet: Vec<(u32, String)>,
    mtime: u64,
}

#[derive(Debug, Clone)]
pub struct Found {
    pub hits: Vec<Hit>,
    pub files_searched: usize,
    /// Matches beyond the caps were not collected.
    pub capped: bool,
}

pub fn matcher(q: &Query) -> Result<RegexMatcher, String> {
    let smart_insensitive = !q.pattern.chars().any(char::is_uppercase);
    // As ripgrep does: no match spans lines (`\s` never eats a newline),
    // which lets the searcher take its fast path over whole buffers.
    RegexMatcherBuilder::new()
        .line_terminator(Some(b'\n'))
        .case_insensitive(!q.case_sensitive.unwrap_or(!smart_insensitive))
        .fixed_strings(q.mode != Mode::Regex)
        .word(q.mode == Mode::Word)
        .build(&q.pattern)
        .map_err(|e| format!("the pattern is not a valid regular expression: {e}"))
}

/// Every match of `q` in the index's files, widened and ranked.
pub fn search(index: &Index, q: &Query) -> Result<Found, String> {
    if q.pattern.is_empty() {
        return Err("the query is empty: give the text or pattern to look for".to_owned());
    }
    let m = matcher(q)?;
    let exact = RegexMatcherBuilder::new()
        .word(true)
        .build(&match q.mode {
            Mode::Regex => q.pattern.clone(),
            _ => regex_escape(&q.pattern),
        })
        .ok();
    let filter = match &q.glob {
        Some(g) => Some(glob_filter(&index.root, g)?),
        None => None,
    };
    let files: Vec<&String> = index
        .files
        .iter()
        .filter(|(_, f)| f.lines > 0 || f.size > MAX_PARSED_BYTES)
        .filter(|(rel, _)| filter.as_ref().is_none_or(|o| o.matched(rel.as_str(), false).is_whitelist()))
        .map(|(rel, _)| rel)
        .collect();
    let matched = grep_files(index, &files, &m);
    let capped = matched.iter().map(|(_, v)| v.len()).sum::<usize>() >= IN_ALL
        || matched.iter().any(|(_, v)| v.len() >= PER_FILE);
    let mut hits = Vec::new();
    for (rel, lines) in matched {
        let Some(entry) = index.files.get(rel) else { continue };
        hits.extend(widen(rel, entry.mtime, &entry.symbols, &lines, &m, exact.as_ref(), &q.pattern));
    }
    rank(&mut hits, &q.pattern);
    Ok(Found { hits, files_searched: files.len(), capped })
}

/// Each file's matching lines (1-based, with their text), on every core.
pub(crate) fn grep_files<'a>(
    index: &Index,
    files: &[&'a String],
    m: &RegexMatcher,
) -> Vec<(&'a String, Vec<(u32, String)>)> {
    let next = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    let out = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                let mut searcher =
                    SearcherBuilder::new().line_number(true).binary_detection(BinaryDetection::quit(0)).build();
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= files.len() || total.load(Ordering::Relaxed) >= IN_ALL {
                        break;
                    }
                    let rel = files[i];
                    let mut lines = Vec::new();
                    let sink = Lossy(|n, line: &str| {
                        lines.push((n as u32, line.trim_end_matches(['\n', '\r']).to_owned()));
                        Ok(lines.len() < PER_FILE)
                    });
                    if searcher.search_path(m, index.root.join(rel), sink).is_ok() && !lines.is_empty() {
                        total.fetch_add(lines.len(), Ordering::Relaxed);
                        mine.push((rel, lines));
                    }
                }
                out.lock().unwrap_or_else(std::sync::PoisonError::into_inner).extend(mine);
            });
        }
    });
    let mut out = out.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    out.sort_by(|a, b| a.0.cmp(b.0));
    out
}

fn regex_escape(s: &str) -> String {
    s.chars().fold(String::new(), |mut out, c| {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            out.push('\\');
        }
        out.push(c);
        out
    })
}

fn glob_filter(root: &std::path::Path, glob: &str) -> Result<ignore::overrides::Override, String> {
    let mut b = ignore::overrides::OverrideBuilder::new(root);
    b.add(glob).map_err(|e| format!("the path filter {glob:?} is not a valid glob: {e}"))?;
    b.build().map_err(|e| format!("the path filter {glob:?} is not a valid glob: {e}"))
}

/// Groups a file's matches by their innermost definition and shows each
/// group as that definition (or around the matches, outside any).
fn widen(
    rel: &str,
    mtime: u64,
    symbols: &FileSymbols,
    lines: &[(u32, String)],
    m: &RegexMatcher,
    exact: Option<&RegexMatcher>,
    pattern: &str,
) -> Vec<Hit> {
    let text: BTreeMap<u32, &str> = lines.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let mut groups: Vec<(Option<&Def>, Vec<u32>)> = Vec::new();
    for &(n, _) in lines {
        let def = symbols.enclosing(n).last().copied();
        match groups.last_mut() {
            Some((d, ns))
                if same(*d, def) && (def.is_some() || ns.last().is_some_and(|&l| n <= l + 2 * CONTEXT + 1)) =>
            {
                ns.push(n)
            }
            _ => groups.push((def, vec![n])),
        }
    }
    groups
        .into_iter()
        .map(|(def, ns)| {
            let chain = symbols.enclosing(ns[0]);
            let breadcrumb = chain.iter().map(|d| d.label()).collect::<Vec<_>>().join(" › ");
            let definition = symbols
                .defs
                .iter()
                .any(|d| !d.is_scope_only() && ns.contains(&d.line) && m.is_match(d.name.as_bytes()).unwrap_or(false));
            let is_exact = |n: &u32| {
                let line = text.get(n).copied().unwrap_or("");
                exact.is_some_and(|e| e.is_match(line.as_bytes()).unwrap_or(false)) || line.contains(pattern)
            };
            let exact =
                symbols.defs.iter().any(|d| ns.contains(&d.line) && d.name == pattern) || ns.iter().any(is_exact);
            let wanted = shown_lines(def, &ns);
            Hit {
                path: rel.to_owned(),
                matches: ns,
                breadcrumb,
                definition,
                exact,
                snippet: wanted.into_iter().map(|n| (n, String::new())).collect(),
                mtime,
            }
        })
        .collect()
}

fn same(a: Option<&Def>, b: Option<&Def>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.start_line == b.start_line && a.end_line == b.end_line,
        (None, None) => true,
        _ => false,
    }
}

/// The line numbers a hit shows: a short definition whole; a long one
/// by its signature and each match with a little context.
fn shown_lines(def: Option<&Def>, matches: &[u32]) -> Vec<u32> {
    let mut out = std::collections::BTreeSet::new();
    match def {
        Some(d) if d.end_line - d.start_line < WHOLE_DEF_LINES => out.extend(d.start_line..=d.end_line),
        _ => {
            if let Some(d) = def {
                out.extend(d.start_line..=d.line);
            }
            for &n in matches {
                let lo = n.saturating_sub(CONTEXT).max(def.map_or(1, |d| d.start_line)).max(1);
                let hi = n + CONTEXT;
                let hi = def.map_or(hi, |d| hi.min(d.end_line));
                out.extend(lo..=hi);
            }
        }
    }
    out.into_iter().collect()
}

/// Definitions first, then exact matches, then paths that name the
/// query's words (shallower first), then the most recently changed.
fn rank(hits: &mut [Hit], pattern: &str) {
    let words: Vec<String> =
        pattern.split(|c: char| !c.is_alphanumeric()).filter(|w| w.len() >= 3).map(str::to_lowercase).collect();
    let relevance = |p: &str| {
        let p = p.to_lowercase();
        words.iter().filter(|w| p.contains(w.as_str())).count()
    };
    hits.sort_by_cached_key(|h| {
        (
            std::cmp::Reverse(h.definition),
            std::cmp::Reverse(h.exact),
            std::cmp::Reverse(relevance(&h.path)),
            h.path.matches('/').count(),
            std::cmp::Reverse(h.mtime),
            h.path.clone(),
            h.matches[0],
        )
    });
}

/// Fills each hit's snippet with its file's text (read once per file).
pub fn fill_snippets(index: &Index, hits: &mut [Hit]) {
    let mut cache: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for hit in hits {
        let lines = cache.entry(hit.path.clone()).or_insert_with(|| {
            std::fs::read(index.root.join(&hit.path))
                .map(|b| String::from_utf8_lossy(&b).lines().map(str::to_owned).collect())
                .unwrap_or_default()
        });
        for (n, text) in &mut hit.snippet {
            if let Some(l) = lines.get(*n as usize - 1) {
                text.clone_from(l);
            }
        }
        hit.snippet.retain(|(n, _)| (*n as usize) <= lines.len());
    }
}
