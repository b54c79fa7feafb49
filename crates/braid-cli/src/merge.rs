//! `/merge` and `/undo-merge` in the terminal chat: the preview is printed
//! first (what comes, the tokens, each conflict with the resolution taken:
//! its suggestion), then the merge is applied; a summary merge has the
//! model write the summary and uses it as written.

use braid_protocol::{
    BranchId, ConflictChoice, ContextId, ControlKind, MergeItemFate, MergeOptions, MergeStrategy, MessageType,
};
use braid_runtime::{Runtime, RuntimeError};

pub const HELP: &str = "/merge BRANCH [summary|fast-forward|append|rebase|rebase-again]  merge into the branch in use
/undo-merge   take back the last merge on the branch in use";

fn strategy(word: &str) -> Result<(MergeStrategy, bool), RuntimeError> {
    Ok(match word {
        "" | "summary" => (MergeStrategy::Summary, false),
        "fast-forward" | "ff" => (MergeStrategy::FastForward, false),
        "append" => (MergeStrategy::Append, false),
        "rebase" => (MergeStrategy::Rebase, false),
        "rebase-again" => (MergeStrategy::Rebase, true),
        other => return Err(RuntimeError::InvalidInput(format!("no merge strategy {other:?}; see /help"))),
    })
}

pub async fn merge(runtime: &Runtime, id: &ContextId, rest: &str) -> Result<(), RuntimeError> {
    let (source, how) = rest.split_once(' ').map_or((rest, ""), |(s, h)| (s, h.trim()));
    if source.is_empty() {
        return Err(RuntimeError::InvalidInput("/merge BRANCH [strategy]: which branch?".into()));
    }
    let (strategy, answer_again) = strategy(how)?;
    let source = BranchId(source.to_owned());
    let mut options = MergeOptions { answer_again, ..MergeOptions::new(source.clone(), strategy) };
    if strategy == MergeStrategy::Summary {
        // An unknown branch is refused before the model is asked.
        runtime.preview_merge(id, options.clone()).await?;
        eprintln!("[the model is summarising {source}…]");
        let text = runtime.draft_merge_summary(id, source.clone()).await?;
        eprintln!("summary:\n{text}");
        options.summary = Some(text);
    }
    let preview = runtime.preview_merge(id, options.clone()).await?;
    let count = |f: MergeItemFate| preview.items.iter().filter(|i| i.fate == f).count();
    eprintln!(
        "{} messages since the fork: {} brought, {} already here, {} sent again; +{} tokens ({} -> {})",
        preview.items.len(),
        count(MergeItemFate::Brought) + count(MergeItemFate::Dependency) + count(MergeItemFate::AsText),
        count(MergeItemFate::Duplicate),
        count(MergeItemFate::Replayed),
        preview.added_tokens,
        preview.target_tokens_before,
        preview.target_tokens_after
    );
    for c in &preview.conflicts {
        eprintln!("conflict: {} — taking {:?}", c.title, c.suggested);
        options.resolutions.push(ConflictChoice { conflict: c.id.clone(), resolution: c.suggested });
    }
    let card = runtime.merge(id, options).await?;
    eprintln!("merged {source} ({}); /undo-merge takes it back [card {card}]", strategy.as_str());
    Ok(())
}

pub async fn undo_last(runtime: &Runtime, id: &ContextId) -> Result<(), RuntimeError> {
    let snap = runtime.load_context(id).await?;
    let undone: Vec<_> = snap
        .messages
        .iter()
        .filter_map(|m| match &m.body {
            MessageType::SystemControl { control: ControlKind::MergeUndone { merge } } => Some(*merge),
            _ => None,
        })
        .collect();
    let last = snap.messages.iter().rev().find(|m| {
        matches!(m.body, MessageType::SystemControl { control: ControlKind::Merge { .. } }) && !undone.contains(&m.id)
    });
    let Some(card) = last else {
        return Err(RuntimeError::InvalidInput("there is no merge to undo on this branch".into()));
    };
    runtime.undo_merge(id, card.id).await?;
    eprintln!("merge undone");
    Ok(())
}
