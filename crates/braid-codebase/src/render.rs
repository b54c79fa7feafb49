//! The codebase tools' answers as the model reads them. Every result
//! starts its line with `path:line`, which the UI turns into a link that
//! opens the file at that line.

use crate::search::Hit;
use crate::symbols_query::{Definition, DefinitionAnswer, References};
use std::fmt::Write;

/// Uses listed before the rest are only counted.
const USES_SHOWN: usize = 200;

pub fn hits(out: &mut String, hits: &[Hit]) {
    for h in hits {
        let mut head = format!("{}:{}", h.path, h.matches[0]);
        if !h.breadcrumb.is_empty() {
            let _ = write!(head, " · {}", h.breadcrumb);
        }
        if h.definition {
            head.push_str(" · definition");
        }
        let _ = writeln!(out, "{head}");
        let mut last = 0;
        for (n, text) in &h.snippet {
            if last != 0 && *n > last + 1 {
                out.push_str("      …\n");
            }
            let mark = if h.matches.contains(n) { '>' } else { ' ' };
            let _ = writeln!(out, "{mark}{n:>5} | {text}");
            last = *n;
        }
        out.push('\n');
    }
}

fn definition_line(d: &Definition) -> String {
    let scope = d.breadcrumb.rsplit_once(" › ").map(|(outer, _)| format!(" (in {outer})")).unwrap_or_default();
    format!("{}:{} · {} {}{scope}\n    {}\n", d.path, d.line, d.kind, d.name, d.signature)
}

pub fn definitions(symbol: &str, answer: &DefinitionAnswer) -> String {
    match answer {
        DefinitionAnswer::Found(defs) => {
            let mut out = format!("{} definition{} of {symbol}:\n", defs.len(), if defs.len() == 1 { "" } else { "s" });
            defs.iter().for_each(|d| out.push_str(&definition_line(d)));
            out
        }
        DefinitionAnswer::NotFound { alternatives } if alternatives.is_empty() => {
            format!(
                "No definition of {symbol} in the workspace, and no similar name. Try codebase_search for the text."
            )
        }
        DefinitionAnswer::NotFound { alternatives } => {
            let mut out = format!("No definition of {symbol}. The closest names:\n");
            alternatives.iter().for_each(|d| out.push_str(&definition_line(d)));
            out
        }
    }
}

pub fn references(symbol: &str, refs: &References) -> String {
    if refs.total == 0 {
        return format!("{symbol} is not used anywhere in the workspace (as a whole word).");
    }
    let mut out = format!("{} uses of {symbol} in {} files:\n\n", refs.total, refs.files.len());
    let mut shown = 0;
    for (path, uses) in &refs.files {
        let _ = writeln!(out, "{path} ({} uses)", uses.len());
        for u in uses {
            if shown == USES_SHOWN {
                break;
            }
            shown += 1;
            let _ = writeln!(out, "{path}:{}{}", u.line, if u.definition { " · definition" } else { "" });
            for (n, text) in &u.context {
                let mark = if *n == u.line { '>' } else { ' ' };
                let _ = writeln!(out, "{mark}{n:>5} | {text}");
            }
        }
        out.push('\n');
    }
    if shown < refs.total {
        let _ = writeln!(
            out,
            "… {} more uses not shown; narrow the question with codebase_search and a path filter.",
            refs.total - shown
        );
    }
    out
}
