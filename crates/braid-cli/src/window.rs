//! `/context` and `/compact` in the terminal chat: the next request by
//! part, and a summary made now.

use braid_protocol::{BreakdownCategory, CompactScope, ContextBreakdown, ContextId};
use braid_runtime::{Runtime, RuntimeError};

pub const HELP: &str =
    "/context      the next request by part  /compact [what to keep]  summarise all but the last exchange";

/// The parts' names, as the app shows them.
fn name(c: BreakdownCategory) -> &'static str {
    match c {
        BreakdownCategory::BasePrompt => "base prompt",
        BreakdownCategory::Instructions => "project instructions",
        BreakdownCategory::Team => "team",
        BreakdownCategory::Tools => "tool definitions",
        BreakdownCategory::Summary => "summaries",
        BreakdownCategory::Messages => "messages",
        BreakdownCategory::Files => "files (@)",
        BreakdownCategory::Images => "images",
        BreakdownCategory::Resources => "MCP resources",
        BreakdownCategory::Draft => "draft",
        BreakdownCategory::ChatFormat => "chat format (the server's)",
    }
}

fn percent(tokens: u32, window: u32) -> f64 {
    f64::from(tokens) * 100.0 / f64::from(window.max(1))
}

/// The breakdown as lines of text.
pub fn render(b: &ContextBreakdown) -> String {
    let mut out = vec![format!(
        "{} of {} tokens ({:.0} %) for {}{}; {} kept for the answer",
        b.total,
        b.window,
        percent(b.total, b.window),
        b.model,
        if b.estimated { ", estimated" } else { "" },
        b.reserved_output
    )];
    for p in &b.parts {
        out.push(format!("  {:<22}{:>8}  {:>5.1} %", name(p.category), p.tokens, percent(p.tokens, b.window)));
    }
    if b.left_out > 0 {
        out.push(format!("  {} older messages ({} tokens) left out to fit", b.left_out, b.left_out_tokens));
    }
    match b.summarize_at_percent {
        0 => out.push("  summaries: only when asked (/compact)".to_owned()),
        p if b.would_summarize => out.push(format!("  past {p} %: the next request summarises older messages first")),
        p => out.push(format!("  summaries start at {p} %")),
    }
    if let Some(why) = &b.too_large {
        out.push(format!("  {why}"));
    }
    out.join("\n")
}

pub async fn context(runtime: &Runtime, id: &ContextId) -> Result<(), RuntimeError> {
    let b = runtime.context_breakdown(id, String::new()).await?;
    eprintln!("{}", render(&b));
    Ok(())
}

pub async fn compact(runtime: &Runtime, id: &ContextId, instructions: &str) -> Result<(), RuntimeError> {
    let instructions = (!instructions.is_empty()).then(|| instructions.to_owned());
    runtime.compact_context(id, instructions, CompactScope::All, false).await?;
    eprintln!("[summarising] the summary replaces older messages when it comes; /context shows the window");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use braid_protocol::BreakdownPart;

    #[test]
    fn the_breakdown_reads_as_a_table() {
        let part = |category, tokens| BreakdownPart { category, tokens, items: Vec::new() };
        let b = ContextBreakdown {
            model: "m".into(),
            window: 4096,
            reserved_output: 512,
            total: 1024,
            parts: vec![part(BreakdownCategory::BasePrompt, 200), part(BreakdownCategory::Messages, 824)],
            left_out: 3,
            left_out_tokens: 900,
            summarize_at_percent: 0,
            would_summarize: false,
            estimated: false,
            too_large: None,
            counted_by_server: false,
        };
        let text = render(&b);
        assert!(text.starts_with("1024 of 4096 tokens (25 %) for m; 512 kept for the answer"), "{text}");
        assert!(text.contains("messages                   824   20.1 %"), "{text}");
        assert!(text.contains("3 older messages (900 tokens) left out") && text.contains("only when asked"), "{text}");
    }
}
