//! Merging a source branch into the branch in use, git-grade and without
//! rewriting history: [`plan`] computes what a merge would do (the preview
//! the user sees, and what the state machine applies), [`undo_plan`] what
//! takes it back. No stored message is ever changed: messages are copied
//! (with `copied_from`), and the target's list of ids is what moves.

use crate::conversation::Conversation;
use crate::tokens::{message_tokens, TokenEncoding};
use braid_protocol::{
    AgentMode, BranchId, ConflictChoice, ControlKind, MergeItem, MergeItemFate, MergeOptions, MergePreview,
    MergeRecord, MergeStrategy, Message, MessageId, MessageType, MissingDependencies, PromptBefore, Resolution, Role,
};
use std::collections::{HashMap, HashSet};

mod conflicts;
pub mod deps;
mod fates;
pub mod files;
pub mod sequence;
mod undo;

pub use undo::{undo_event, undo_plan, undone, MergeUndo};

/// What applying a merge does; the machine hands out the new ids.
#[derive(Debug, Clone, PartialEq)]
pub struct MergeApply {
    /// `brought` is filled in by the machine for copies.
    pub record: MergeRecord,
    /// The target's messages before the card, when the merge changes them
    /// (fast-forward, a resolution taking some off).
    pub rewrite: Option<Vec<MessageId>>,
    /// What to copy after the card: the original's id and the body.
    pub copies: Vec<(MessageId, MessageType)>,
    /// The team members who said the originals: their copies keep them.
    pub authors: std::collections::BTreeMap<MessageId, String>,
    /// The target's own system prompt from now on.
    pub prompt: Option<Option<String>>,
    /// The target's own model from now on.
    pub model: Option<Option<braid_protocol::ModelChoice>>,
    pub mode: Option<AgentMode>,
    /// Rebase with "answer again": user turns to send again, in order.
    pub replay: Vec<MessageType>,
    /// What the merge writes in the workspace (the runtime merged the
    /// contents; see [`files`]): recorded as the card's checkpoint.
    pub files: Vec<braid_protocol::FileDelta>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MergePlan {
    pub preview: MergePreview,
    /// `None` when the preview says why it cannot be applied.
    pub apply: Option<MergeApply>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    #[error("branch {0} does not exist")]
    NoSuchBranch(BranchId),
    #[error("a branch cannot be merged into itself: choose another source branch")]
    SameBranch,
    #[error("message {0} is not among the source's messages since the fork")]
    NotInSource(MessageId),
    #[error("message {0} is not a merge card on the branch in use")]
    NotAMerge(MessageId),
    #[error("that merge was undone already")]
    AlreadyUndone,
    /// What the branch would hold is no sequence a model accepts: a later
    /// merge copied messages this one would bring back.
    #[error("this merge cannot be undone while later merges build on it ({0}); undo those first")]
    UndoBreaks(String),
}

/// A message that is for people and the system only: never merged as
/// content (branch switches, notices, earlier merge cards).
fn is_bookkeeping(body: &MessageType) -> bool {
    match body {
        MessageType::SystemControl { control } => !matches!(control, ControlKind::Summary { .. }),
        MessageType::Unknown { .. } => true,
        _ => false,
    }
}

/// What a message costs as sent: counted when stored, else now.
pub fn cost(encoding: TokenEncoding, m: &Message) -> u32 {
    m.meta.tokens.map_or_else(|| message_tokens(encoding, &m.body), |t| t.count)
}

/// "Same role and content": the key two duplicates share.
fn content_key(body: &MessageType) -> Option<String> {
    match body {
        MessageType::Text { role, .. } => Some(format!("{role:?}\u{0}{}", body.plain_text().unwrap_or_default())),
        _ => serde_json::to_string(body).ok(),
    }
}

/// The source's messages since it parted from the active branch, without
/// bookkeeping: what a summary merge summarises.
pub fn parted<'a>(c: &'a Conversation, source: &BranchId) -> Result<Vec<&'a Message>, MergeError> {
    let target = c.active_branch();
    if source == target {
        return Err(MergeError::SameBranch);
    }
    let s = c.branch(source).ok_or_else(|| MergeError::NoSuchBranch(source.clone()))?;
    let t = c.branch(target).ok_or_else(|| MergeError::NoSuchBranch(target.clone()))?;
    let shared = s.message_ids.iter().zip(&t.message_ids).take_while(|(a, b)| a == b).count();
    Ok(s.message_ids[shared..].iter().filter_map(|id| c.message(*id)).filter(|m| !is_bookkeeping(&m.body)).collect())
}

/// A message's id, then the id of what it was copied from, and so on back
/// to the original. A chain is never longer than the merges that made
/// it; the bound only guards against a corrupt store.
fn lineage<'a>(c: &'a Conversation, m: &Message) -> impl Iterator<Item = MessageId> + 'a {
    let from = |id: MessageId| c.message(id).and_then(|m| m.meta.copied_from);
    std::iter::successors(Some((m.id, m.meta.copied_from)), move |(_, next)| next.map(|o| (o, from(o))))
        .map(|(id, _)| id)
        .take(1024)
}

/// Computes the merge of `options.source` into the active branch.
pub fn plan(c: &Conversation, options: &MergeOptions, encoding: TokenEncoding) -> Result<MergePlan, MergeError> {
    let target_id = c.active_branch().clone();
    if options.source == target_id {
        return Err(MergeError::SameBranch);
    }
    let source = c.branch(&options.source).ok_or_else(|| MergeError::NoSuchBranch(options.source.clone()))?;
    let target = c.branch(&target_id).ok_or_else(|| MergeError::NoSuchBranch(target_id.clone()))?;
    let shared = source.message_ids.iter().zip(&target.message_ids).take_while(|(a, b)| a == b).count();
    let base = shared.checked_sub(1).map(|i| source.message_ids[i]);
    let get = |ids: &[MessageId]| ids.iter().filter_map(|id| c.message(*id)).collect::<Vec<&Message>>();
    let source_after = get(&source.message_ids[shared..]);
    let target_all = get(&target.message_ids);
    let target_new = &target_all[shared.min(target_all.len())..];
    let source_new: Vec<&Message> = source_after.iter().copied().filter(|m| !is_bookkeeping(&m.body)).collect();
    let fast_forward_possible = target_new.iter().all(|m| is_bookkeeping(&m.body));
    let strategy = options.strategy;
    let answer_again = strategy == MergeStrategy::Rebase && options.answer_again;
    let copies = matches!(strategy, MergeStrategy::Append | MergeStrategy::CherryPick)
        || (strategy == MergeStrategy::Rebase && !answer_again);

    // Duplicates: the target has the message (same id), a copy of it (a
    // copy of a copy counts), or one with the same role and
    // content since the fork.
    let have: HashSet<MessageId> = target_all.iter().flat_map(|m| lineage(c, m)).collect();
    let same_content: HashSet<String> = if strategy == MergeStrategy::Append {
        target_new.iter().filter_map(|m| content_key(&m.body)).collect()
    } else {
        HashSet::new()
    };
    let duplicate = |m: &Message| {
        lineage(c, m).any(|id| have.contains(&id))
            || (!same_content.is_empty() && content_key(&m.body).is_some_and(|k| same_content.contains(&k)))
    };

    let sides = conflicts::Sides {
        source,
        target,
        source_new: &source_new,
        source_after: &source_after,
        target_new,
        target_all: &target_all,
        copies,
    };
    let mut found = conflicts::find(&sides);
    let chosen: HashMap<&str, Resolution> =
        options.resolutions.iter().map(|r| (r.conflict.as_str(), r.resolution)).collect();
    for f in &mut found {
        f.conflict.chosen = chosen.get(f.conflict.id.as_str()).copied().filter(|r| f.conflict.options.contains(r));
    }

    // The fate of each of the source's messages.
    let mut fate: Vec<MergeItemFate> = source_new
        .iter()
        .map(|m| match strategy {
            MergeStrategy::Summary => MergeItemFate::LeftOut,
            MergeStrategy::FastForward => MergeItemFate::Brought,
            MergeStrategy::CherryPick => MergeItemFate::LeftOut,
            MergeStrategy::Rebase if answer_again => match m.body {
                MessageType::Text { role: Role::User, .. } => MergeItemFate::Replayed,
                _ => MergeItemFate::LeftOut,
            },
            _ if duplicate(m) => MergeItemFate::Duplicate,
            _ => MergeItemFate::Brought,
        })
        .collect();
    if strategy == MergeStrategy::CherryPick {
        let index: HashMap<MessageId, usize> = source_new.iter().enumerate().map(|(i, m)| (m.id, i)).collect();
        for p in &options.picks {
            let i = *index.get(p).ok_or(MergeError::NotInSource(*p))?;
            fate[i] = if duplicate(source_new[i]) { MergeItemFate::Duplicate } else { MergeItemFate::Brought };
        }
    }
    // Resolutions that leave the source's side out.
    let mut removed: Vec<MessageId> = Vec::new();
    let at: HashMap<MessageId, usize> = source_new.iter().enumerate().map(|(i, m)| (m.id, i)).collect();
    for f in &found {
        let Some(r) = f.conflict.chosen else { continue };
        let (drop_source, drop_target) = match (f.conflict.kind, r) {
            (braid_protocol::ConflictKind::File, Resolution::KeepSource) => (false, true),
            (braid_protocol::ConflictKind::File, Resolution::KeepTarget) => (true, false),
            (braid_protocol::ConflictKind::File, Resolution::Drop) => (true, true),
            (braid_protocol::ConflictKind::Summary, Resolution::KeepTarget) => (true, false),
            _ => (false, false),
        };
        if drop_source {
            for id in &f.source_out {
                if let Some(&i) = at.get(id) {
                    fate[i] = MergeItemFate::Resolved;
                }
            }
        }
        if drop_target {
            removed.extend(&f.target_out);
        }
    }
    // Dependencies of what is brought: bring them, or turn the orphans
    // into text (cherry-pick, when the user says so).
    let dependencies = if copies {
        let bring = strategy != MergeStrategy::CherryPick || options.missing == MissingDependencies::Bring;
        fates::settle(&source_new, &mut fate, strategy == MergeStrategy::CherryPick, bring)
    } else {
        Vec::new()
    };

    let names = deps::call_names(source_new.iter().copied());
    // A copy names the original, not the copy it was made from: a copy in
    // between may leave the store with its branch, and the copy would then
    // no longer be known as one (a later merge would bring the original
    // again, and its tool call would stand on the branch twice).
    let original = |m: &Message| lineage(c, m).last().unwrap_or(m.id);
    let copied: Vec<(MessageId, MessageType)> = source_new
        .iter()
        .zip(&fate)
        .filter_map(|(m, f)| match f {
            MergeItemFate::Brought | MergeItemFate::Dependency if copies => Some((original(m), m.body.clone())),
            MergeItemFate::AsText => Some((original(m), deps::as_text(&m.body, &names))),
            _ => None,
        })
        .collect();
    let items: Vec<MergeItem> = source_new
        .iter()
        .zip(&fate)
        .map(|(m, f)| MergeItem {
            id: m.id,
            kind: m.body.kind().tag().to_owned(),
            role: m.body.role().map(|r| format!("{r:?}").to_lowercase()),
            preview: crate::conversation::describe(&m.body),
            tokens: cost(encoding, m),
            created_at: m.created_at,
            fate: *f,
        })
        .collect();

    let summary = options.summary.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
    let blocked = blocked(BlockFacts {
        strategy,
        fast_forward_possible,
        target_new: target_new.iter().filter(|m| !is_bookkeeping(&m.body)).count(),
        source_new: source_new.len(),
        summary: summary.is_some(),
        picked: copied.len(),
        unresolved: found.iter().filter(|f| f.conflict.chosen.is_none()).map(|f| f.conflict.title.clone()).collect(),
        sequence: sequence::check(copied.iter().map(|(_, b)| b)).err(),
        replayed: fate.iter().filter(|f| **f == MergeItemFate::Replayed).count(),
    });

    let removed_set: HashSet<MessageId> = removed.iter().copied().collect();
    let before_tokens: u32 = target_all.iter().map(|m| cost(encoding, m)).sum();
    let removed_tokens: u32 =
        target_all.iter().filter(|m| removed_set.contains(&m.id)).map(|m| cost(encoding, m)).sum();
    let added_tokens: u32 = match strategy {
        MergeStrategy::Summary => {
            summary.as_deref().map_or(0, |s| message_tokens(encoding, &MessageType::text(Role::User, s)))
        }
        MergeStrategy::FastForward => source_new.iter().map(|m| cost(encoding, m)).sum(),
        _ => copied.iter().map(|(_, b)| message_tokens(encoding, b)).sum(),
    };

    let mut prompt = None;
    let mut model = None;
    let mut mode = None;
    let mut resolutions = Vec::new();
    for f in &found {
        let Some(r) = f.conflict.chosen else { continue };
        resolutions.push(ConflictChoice { conflict: f.conflict.id.clone(), resolution: r });
        match (f.conflict.kind, r) {
            (braid_protocol::ConflictKind::SystemPrompt, Resolution::KeepSource) => {
                prompt = Some(f.source_value.clone());
            }
            (braid_protocol::ConflictKind::SystemPrompt, Resolution::KeepBoth) => {
                let both: Vec<&str> =
                    [&f.target_value, &f.source_value].into_iter().filter_map(|p| p.as_deref()).collect();
                prompt = Some(Some(both.join("\n\n")).filter(|p| !p.is_empty()));
            }
            (braid_protocol::ConflictKind::Model, Resolution::KeepSource) => model = f.source_model.clone(),
            (braid_protocol::ConflictKind::Mode, Resolution::KeepSource) => {
                mode = match f.source_value.as_deref() {
                    Some("plan") => Some(AgentMode::Plan),
                    Some("act") => Some(AgentMode::Act),
                    _ => None,
                };
            }
            _ => {}
        }
    }
    let rewrite = if strategy == MergeStrategy::FastForward {
        // The target's own notes since the fork follow; one the source
        // holds too (a switch note both forked after, when an earlier
        // merge moved the source's order) stays where the source has it.
        let held: HashSet<MessageId> = source.message_ids.iter().copied().collect();
        let mut ids = source.message_ids.clone();
        ids.extend(target.message_ids[shared..].iter().copied().filter(|id| !held.contains(id)));
        Some(ids)
    } else if !removed.is_empty() {
        Some(target.message_ids.iter().copied().filter(|id| !removed_set.contains(id)).collect())
    } else {
        None
    };
    let preview = MergePreview {
        source: source.id.clone(),
        target: target.id.clone(),
        strategy,
        base,
        items,
        target_new: target_new.iter().filter(|m| !is_bookkeeping(&m.body)).count() as u32,
        fast_forward_possible,
        dependencies,
        conflicts: found.iter().map(|f| f.conflict.clone()).collect(),
        added_tokens,
        target_tokens_before: before_tokens,
        target_tokens_after: before_tokens - removed_tokens + added_tokens,
        blocked,
        files: Vec::new(),
    };
    if preview.blocked.is_some() {
        return Ok(MergePlan { preview, apply: None });
    }
    let record = MergeRecord {
        source: source.id.clone(),
        source_name: source.label(),
        target: target.id.clone(),
        source_tip: source.message_ids.last().copied().or(base).unwrap_or(MessageId(0)),
        strategy,
        brought: if strategy == MergeStrategy::FastForward {
            source.message_ids[shared..].to_vec()
        } else {
            Vec::new()
        },
        removed,
        before: rewrite.as_ref().map(|_| target.message_ids.clone()),
        summary: if strategy == MergeStrategy::Summary { summary } else { None },
        resolutions,
        prompt_before: prompt.as_ref().map(|_| PromptBefore { system_prompt: target.system_prompt.clone() }),
        replayed: 0,
        replay_ids: Vec::new(),
        model_before: model.as_ref().map(|_| braid_protocol::ModelBefore { model: target.model.clone() }),
    };
    let replay: Vec<MessageType> = source_new
        .iter()
        .zip(&fate)
        .filter(|(_, f)| **f == MergeItemFate::Replayed)
        .map(|(m, _)| m.body.clone())
        .collect();
    let authors = source_new.iter().filter_map(|m| Some((original(m), m.meta.author.clone()?))).collect();
    let apply = MergeApply { record, rewrite, copies: copied, authors, prompt, model, mode, replay, files: Vec::new() };
    Ok(MergePlan { preview, apply: Some(apply) })
}

struct BlockFacts {
    strategy: MergeStrategy,
    fast_forward_possible: bool,
    target_new: usize,
    source_new: usize,
    summary: bool,
    picked: usize,
    unresolved: Vec<String>,
    sequence: Option<String>,
    replayed: usize,
}

/// Why the merge cannot go ahead as asked, in words the user can act on.
fn blocked(f: BlockFacts) -> Option<String> {
    if f.source_new == 0 {
        return Some("the source has nothing the target lacks since they parted".to_owned());
    }
    if f.strategy == MergeStrategy::FastForward && !f.fast_forward_possible {
        return Some(format!(
            "a fast-forward needs a target that has not moved since the fork, and it has {} messages of its own: \
             use summary, append or rebase",
            f.target_new
        ));
    }
    if f.strategy == MergeStrategy::Summary && !f.summary {
        return Some("write the summary (or have the model write it) before merging".to_owned());
    }
    if matches!(f.strategy, MergeStrategy::CherryPick) && f.picked == 0 {
        return Some("choose at least one message that the target does not have yet".to_owned());
    }
    if matches!(f.strategy, MergeStrategy::Append | MergeStrategy::Rebase) && f.picked == 0 && f.replayed == 0 {
        return Some("the target has every one of the source's messages already".to_owned());
    }
    if !f.unresolved.is_empty() {
        return Some(format!("resolve every conflict first: {}", f.unresolved.join("; ")));
    }
    f.sequence.map(|why| format!("the merged messages would not form a valid conversation: {why}"))
}

impl From<MergeError> for braid_protocol::WireError {
    fn from(e: MergeError) -> Self {
        let code = match e {
            MergeError::NoSuchBranch(_) | MergeError::NotAMerge(_) => braid_protocol::ErrorCode::NotFound,
            _ => braid_protocol::ErrorCode::InvalidInput,
        };
        braid_protocol::WireError::new(code, e.to_string())
    }
}

/// The machine's event for a merge as asked, or why it cannot be applied
/// (the preview's reason). The runtime and the simulator both come here.
pub fn merge_event(
    c: &Conversation,
    options: &MergeOptions,
    encoding: TokenEncoding,
    files: Vec<braid_protocol::FileDelta>,
) -> Result<crate::machine::Event, braid_protocol::WireError> {
    let plan = plan(c, options, encoding)?;
    match plan.apply {
        Some(apply) => Ok(crate::machine::Event::Merge { apply: Box::new(MergeApply { files, ..apply }) }),
        None => Err(braid_protocol::WireError::new(
            braid_protocol::ErrorCode::InvalidInput,
            plan.preview.blocked.unwrap_or_else(|| "the merge cannot be applied".to_owned()),
        )),
    }
}
