//! One file's symbols from its grammar's tags query: the definitions
//! (with their line span, a signature and a label for breadcrumbs), the
//! scopes that only frame others (a Rust `impl`), and the names it
//! refers to with how often.

use crate::lang::Lang;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tree_sitter_tags::TagsContext;

/// Signatures longer than this are cut (a one-line closure can be long).
const SIGNATURE_CHARS: usize = 160;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Def {
    pub name: String,
    /// The tags query's kind: function, method, class, interface, module,
    /// macro, type, constant; `impl` for a Rust impl block, which frames
    /// methods but defines nothing.
    pub kind: String,
    /// 1-based, the line of the name.
    pub line: u32,
    /// 1-based lines the whole definition spans.
    pub start_line: u32,
    pub end_line: u32,
    /// The definition's first line, trimmed.
    pub signature: String,
}

impl Def {
    /// How a breadcrumb names it: `fn parse`, `impl Loader`, `class
    /// Shape`. Worked out from the signature when asked (an index of a
    /// large tree holds most of a million definitions).
    pub fn label(&self) -> String {
        if self.is_scope_only() {
            return impl_label(&self.signature);
        }
        let before = self.signature.find(self.name.as_str()).map_or("", |at| &self.signature[..at]);
        label(&self.kind, &self.name, before)
    }

    pub fn is_scope_only(&self) -> bool {
        self.kind == "impl"
    }

    pub fn contains(&self, line: u32) -> bool {
        self.start_line <= line && line <= self.end_line
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileSymbols {
    /// In source order (by start line, outer before inner).
    pub defs: Vec<Def>,
    /// Each name referred to (calls, types, implementations) and how often.
    pub refs: BTreeMap<String, u32>,
}

impl FileSymbols {
    /// The definitions that enclose `line`, outermost first.
    pub fn enclosing(&self, line: u32) -> Vec<&Def> {
        self.defs.iter().filter(|d| d.contains(line)).collect()
    }
}

/// Words that name a kind of definition where they stand before its name.
const KEYWORDS: &[&str] = &[
    "fn",
    "struct",
    "enum",
    "union",
    "trait",
    "mod",
    "type",
    "macro_rules!",
    "def",
    "class",
    "func",
    "function",
    "interface",
    "module",
    "namespace",
    "const",
    "let",
    "var",
];

/// Reads the symbols of `source`. A file the grammar cannot parse gives
/// what it could read (tree-sitter recovers from errors).
pub fn extract(ctx: &mut TagsContext, lang: Lang, source: &[u8]) -> FileSymbols {
    let mut out = FileSymbols::default();
    let Some(config) = lang.tags() else { return out };
    let Ok((tags, _)) = ctx.generate_tags(config, source, None) else { return out };
    let line_starts = line_starts(source);
    let line_of = |byte: usize| line_starts.partition_point(|&s| s <= byte) as u32;
    for tag in tags.flatten() {
        let Ok(name) = std::str::from_utf8(&source[tag.name_range.clone()]) else { continue };
        let kind = config.syntax_type_name(tag.syntax_type_id);
        if tag.is_definition {
            let line_text = String::from_utf8_lossy(&source[tag.line_range.clone()]);
            out.defs.push(Def {
                name: name.to_owned(),
                kind: kind.to_owned(),
                line: line_of(tag.name_range.start),
                start_line: line_of(tag.range.start),
                end_line: line_of(tag.range.end.saturating_sub(1).max(tag.range.start)),
                signature: cut(line_text.trim()),
            });
        } else {
            if lang == Lang::Rust && kind == "implementation" {
                // `impl B` (or `impl T for B`) frames methods: kept as a
                // scope for breadcrumbs, found by no definition search.
                let text = String::from_utf8_lossy(&source[tag.line_range.clone()]);
                out.defs.push(Def {
                    name: name.to_owned(),
                    kind: "impl".to_owned(),
                    line: line_of(tag.name_range.start),
                    start_line: line_of(tag.range.start),
                    end_line: line_of(tag.range.end.saturating_sub(1).max(tag.range.start)),
                    signature: cut(text.trim()),
                });
            }
            *out.refs.entry(name.to_owned()).or_default() += 1;
        }
    }
    out.defs.sort_by(|a, b| a.start_line.cmp(&b.start_line).then(b.end_line.cmp(&a.end_line)));
    out
}

/// Byte offsets where each line starts; `line_of` is a binary search.
fn line_starts(source: &[u8]) -> Vec<usize> {
    std::iter::once(0).chain(source.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1)).collect()
}

fn cut(s: &str) -> String {
    match s.char_indices().nth(SIGNATURE_CHARS) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_owned(),
    }
}

/// `fn parse`, `class Shape`, or the kind when no keyword stands before
/// the name (a JavaScript method).
fn label(kind: &str, name: &str, before: &str) -> String {
    // The nearest keyword: `func` in Go's `func (c *Counter) Increment`.
    let word = before.split(|c: char| c.is_whitespace() || c == '(' || c == ')').rfind(|w| KEYWORDS.contains(w));
    match word {
        Some(w) => format!("{w} {name}"),
        None => format!("{kind} {name}"),
    }
}

/// `impl Loader` or `impl Display for Loader`, from the impl's first line.
fn impl_label(line: &str) -> String {
    let text = line.trim().trim_end_matches('{').trim();
    let text = text.strip_prefix("unsafe ").unwrap_or(text);
    // Generic parameters make a breadcrumb hard to read: dropped.
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    let out = out.split(" where ").next().unwrap_or(&out).trim().to_owned();
    cut(&out)
}
