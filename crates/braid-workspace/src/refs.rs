//! `@file` references: mentions typed in a message (`@src/main.rs`,
//! `@src/main.rs:12`, `@src/main.rs:12-40`) and their resolution against
//! the workspace — confined, normalised, 1-based inclusive line ranges,
//! text only, size-capped — with errors that say what to do.

use crate::paths::{confine, shown};
use std::path::Path;

/// Larger files are refused: reference a line range instead.
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    pub path: String,
    /// 1-based, inclusive.
    pub range: Option<(u32, u32)>,
}

/// The `@` tokens in `text`, in order, without the `@`: `@` at the start
/// or after a space or `(`, then up to a space, `)` or `,`, trailing
/// sentence punctuation dropped. E-mail addresses (`a@b.c`) are not
/// tokens. File mentions and MCP resource mentions are both read from these.
pub fn tokens(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    text.match_indices('@')
        .filter(|(i, _)| *i == 0 || bytes[i - 1].is_ascii_whitespace() || bytes[i - 1] == b'(')
        .map(|(i, _)| {
            let rest = &text[i + 1..];
            let end = rest.find(|c: char| c.is_whitespace() || c == ')' || c == ',').unwrap_or(rest.len());
            rest[..end].trim_end_matches(['.', ';', '!', '?'])
        })
        .filter(|t| !t.is_empty())
        .collect()
}

/// The file mentions in `text`, in order: a path (no spaces), then
/// optionally `:N` or `:N-M`. A token holding a URL (`@server:scheme://…`
/// names an MCP resource) is not a file.
pub fn mentions(text: &str) -> Vec<Mention> {
    tokens(text)
        .into_iter()
        .filter(|token| !token.contains("://"))
        .map(|token| {
            let (path, range) = match token.rsplit_once(':') {
                Some((p, r)) if !p.is_empty() && r.chars().all(|c| c.is_ascii_digit() || c == '-') && !r.is_empty() => {
                    let range = match r.split_once('-') {
                        Some((a, b)) => a.parse().ok().zip(b.parse().ok()),
                        None => r.parse().ok().map(|n| (n, n)),
                    };
                    (p, range)
                }
                _ => (token, None),
            };
            Mention { path: path.to_owned(), range }
        })
        .collect()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// Relative to the workspace, normalised (`./a/../b.rs` → `b.rs`).
    pub path: String,
    /// The referenced lines, as text.
    pub content: String,
    /// The lines actually included (1-based, inclusive).
    pub range: (u32, u32),
    pub total_lines: u32,
}

/// Resolves one reference. `workspace` must be canonical; `None` is an
/// error (a conversation without a workspace cannot reference files).
pub fn resolve(workspace: Option<&Path>, path: &str, range: Option<(u32, u32)>) -> Result<Resolved, String> {
    let Some(root) = workspace else {
        return Err(format!("@{path}: this conversation has no workspace folder; choose one to reference files"));
    };
    let real = confine(root, path).map_err(|e| format!("@{path}: {e}"))?;
    let shown_path = shown(root, &real);
    let meta = std::fs::metadata(&real).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("@{path}: no such file in the workspace"),
        _ => format!("@{path}: {e}"),
    })?;
    if meta.is_dir() {
        return Err(format!("@{path} is a folder; reference a file inside it"));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "@{path} is {} KB, more than the {} KB a reference may include; reference a line range (@{path}:1-200)",
            meta.len() / 1024,
            MAX_FILE_BYTES / 1024
        ));
    }
    // A pipe or a device under a file's name is refused, never waited on.
    let bytes = crate::plain::read(&real, MAX_FILE_BYTES).map_err(|e| format!("@{path}: {e}"))?;
    if bytes[..bytes.len().min(8_192)].contains(&0) {
        return Err(format!("@{path} is a binary file ({} bytes); only text can be referenced", bytes.len()));
    }
    let text = String::from_utf8(bytes).map_err(|_| format!("@{path} is not UTF-8 text"))?;
    let lines: Vec<&str> = text.lines().collect();
    let total = lines.len() as u32;
    let (start, end) = match range {
        None => (1, total.max(1)),
        Some((s, e)) => {
            if s == 0 || e == 0 {
                return Err(format!("@{path}:{s}-{e}: lines are numbered from 1"));
            }
            if e < s {
                return Err(format!("@{path}:{s}-{e}: the range ends before it starts"));
            }
            if s > total {
                return Err(format!("@{path}:{s}: the file has only {total} lines"));
            }
            (s, e.min(total))
        }
    };
    let content = if total == 0 { String::new() } else { lines[(start - 1) as usize..end as usize].join("\n") };
    Ok(Resolved { path: shown_path, content, range: (start, end), total_lines: total })
}
