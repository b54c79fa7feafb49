//! `find_definition` and `find_references` on the index: a definition by
//! name (a qualified name such as `Loader::parse` prefers the one inside
//! `Loader`), the closest names when nothing matches, and every use of a
//! name as a whole word, grouped by file with the lines around it.

use crate::index::{Index, MAX_PARSED_BYTES};
use crate::search::{grep_files, matcher, Mode, Query};
use crate::symbols::Def;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub path: String,
    pub line: u32,
    pub end_line: u32,
    pub kind: String,
    pub name: String,
    pub signature: String,
    pub breadcrumb: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DefinitionAnswer {
    Found(Vec<Definition>),
    /// Nothing by that name; the closest names there are.
    NotFound {
        alternatives: Vec<Definition>,
    },
}

/// Uses of a name, grouped by file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct References {
    pub files: Vec<(String, Vec<Use>)>,
    pub total: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Use {
    pub line: u32,
    /// The line defines the name rather than using it.
    pub definition: bool,
    /// The line and one either side, numbered.
    pub context: Vec<(u32, String)>,
}

const ALTERNATIVES: usize = 5;

/// The last part of `Loader::parse` / `Loader.parse`, and the parts before.
fn split(symbol: &str) -> (&str, Vec<&str>) {
    let parts: Vec<&str> = symbol.split(['.', ':', '#']).filter(|p| !p.is_empty()).collect();
    match parts.split_last() {
        Some((last, rest)) => (last, rest.to_vec()),
        None => (symbol, Vec::new()),
    }
}

fn definition(path: &str, d: &Def, chain: &[&Def]) -> Definition {
    Definition {
        path: path.to_owned(),
        line: d.line,
        end_line: d.end_line,
        kind: d.kind.clone(),
        name: d.name.clone(),
        signature: d.signature.clone(),
        breadcrumb: chain.iter().map(|d| d.label()).collect::<Vec<_>>().join(" › "),
    }
}

/// The definitions whose name `matches` accepts (at most `limit`), with
/// their breadcrumbs.
fn defs_named(index: &Index, matches: impl Fn(&str) -> bool, limit: usize) -> Vec<Definition> {
    let mut out = Vec::new();
    for (path, f) in &index.files {
        for d in f.symbols.defs.iter().filter(|d| !d.is_scope_only() && matches(&d.name)) {
            if out.len() == limit {
                return out;
            }
            let chain: Vec<&Def> =
                f.symbols.defs.iter().filter(|o| o.contains(d.line) && o.start_line <= d.start_line).collect();
            out.push(definition(path, d, &chain));
        }
    }
    out
}

pub fn find_definition(index: &Index, symbol: &str) -> DefinitionAnswer {
    let (name, qualifiers) = split(symbol.trim());
    let lower = name.to_lowercase();
    // Names are compared without allocating: this runs over every
    // definition of the workspace on each call.
    let folds = |other: &str| other.eq_ignore_ascii_case(name) || (!name.is_ascii() && other.to_lowercase() == lower);
    let exact = defs_named(index, |n| n == name, usize::MAX);
    let mut found = if exact.is_empty() { defs_named(index, folds, usize::MAX) } else { exact };
    if !found.is_empty() {
        // Inside the named scope first, then source files before tests.
        found.sort_by_key(|d| {
            let inside = qualifiers
                .iter()
                .filter(|q| {
                    d.breadcrumb.split(" › ").any(|l| l.ends_with(&format!(" {q}")) || l.contains(&format!(" {q} ")))
                })
                .count();
            (std::cmp::Reverse(inside), d.path.contains("test"), d.path.clone(), d.line)
        });
        return DefinitionAnswer::Found(found);
    }
    // The closest names, each judged once however often it is defined.
    let mut names: Vec<(usize, &str)> = index
        .files
        .values()
        .flat_map(|f| f.symbols.defs.iter().filter(|d| !d.is_scope_only()).map(|d| d.name.as_str()))
        .collect::<std::collections::BTreeSet<&str>>()
        .into_iter()
        .filter_map(|other| {
            let folded = other.to_lowercase();
            let distance = edit_distance(&lower, &folded);
            let near = distance <= (lower.chars().count() / 3).max(2);
            let within = lower.len() >= 3 && folded.len() >= 3 && (folded.contains(&lower) || lower.contains(&folded));
            (near || within).then_some((distance, other))
        })
        .collect();
    names.sort();
    names.truncate(ALTERNATIVES);
    let mut alternatives: Vec<Definition> = Vec::new();
    for (_, other) in names {
        alternatives.extend(defs_named(index, |n| n == other, ALTERNATIVES - alternatives.len()));
        if alternatives.len() >= ALTERNATIVES {
            break;
        }
    }
    DefinitionAnswer::NotFound { alternatives }
}

/// Levenshtein distance over characters (names are short).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            let next = (row[j + 1] + 1).min(row[j] + 1).min(prev + cost);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// Every use of `symbol` as a whole word (case kept), with its lines.
pub fn find_references(index: &Index, symbol: &str) -> Result<References, String> {
    let (name, _) = split(symbol.trim());
    if name.is_empty() {
        return Err("give the name of a symbol".to_owned());
    }
    let m = matcher(&Query { pattern: name.to_owned(), mode: Mode::Word, glob: None, case_sensitive: Some(true) })?;
    let files: Vec<&String> =
        index.files.iter().filter(|(_, f)| f.lines > 0 || f.size > MAX_PARSED_BYTES).map(|(p, _)| p).collect();
    let mut out = References { files: Vec::new(), total: 0 };
    for (path, lines) in grep_files(index, &files, &m) {
        let text: Vec<String> = std::fs::read(index.root.join(path))
            .map(|b| String::from_utf8_lossy(&b).lines().map(str::to_owned).collect())
            .unwrap_or_default();
        let defs = index.files.get(path).map(|f| &f.symbols.defs);
        let uses: Vec<Use> = lines
            .iter()
            .map(|(n, _)| Use {
                line: *n,
                definition: defs
                    .is_some_and(|ds| ds.iter().any(|d| d.line == *n && d.name == name && !d.is_scope_only())),
                context: (n.saturating_sub(1).max(1)..=n + 1)
                    .filter_map(|k| text.get(k as usize - 1).map(|t| (k, t.clone())))
                    .collect(),
            })
            .collect();
        out.total += uses.len();
        out.files.push((path.clone(), uses));
    }
    // Files that use the name most come first.
    out.files.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    Ok(out)
}
