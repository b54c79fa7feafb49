//! The conversation as a git-style history graph, laid out for drawing:
//! one row per message, oldest first, one lane per line of history. A
//! message's line goes on in its lane to its heir (its own branch going
//! on, else its first child); its other children fork at its row into the
//! leftmost free lane; a lane is freed where its line ends (a branch tip,
//! or in a merge). Colours are stable per branch: its place in creation
//! order.
//!
//! Pure and linear in rows × lanes, so the UI can lay out thousands of
//! messages on every change and draw only the rows in view.

use crate::conversation::Conversation;
use braid_protocol::{BranchId, ChangeAuthor, Checkpoint, ControlKind, MessageId, MessageType};
use std::collections::HashMap;

/// A message of the graph and the ones it follows: the previous message of
/// its line first, then (for a merge) the tip of the branch merged in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub id: MessageId,
    pub parents: Vec<MessageId>,
    /// Its colour: the place in creation order of the first branch that
    /// holds it.
    pub color: u32,
}

/// One row to draw: the node in its lane and every line at its height.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub id: MessageId,
    pub lane: u32,
    pub color: u32,
    /// A line comes down into the node from the row above, in its lane.
    pub up: bool,
    /// The node's line goes on below, in its lane.
    pub down: bool,
    /// Lines leaving the node for later children on other branches: each
    /// bends into its lane here and runs down it. `(lane, colour)`.
    pub forks: Vec<(u32, u32)>,
    /// Lines of merged-in branches ending in the node, each coming down
    /// its lane from the row above. `(lane, colour)`.
    pub merges: Vec<(u32, u32)>,
    /// Lines passing this row without touching the node. `(lane, colour)`.
    pub through: Vec<(u32, u32)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Layout {
    pub rows: Vec<Row>,
    /// The most lanes any row uses (the graph's width).
    pub width: u32,
}

/// The nodes of a conversation, oldest first: each branch's messages
/// follow one another; messages shared by branches appear once. Switch
/// records are folded away: flipping between versions of an answer would
/// otherwise fill the graph with "switched to" rows.
pub fn nodes(conversation: &Conversation) -> Vec<Node> {
    let mut branches: Vec<_> = conversation.branches().collect();
    branches.sort_by_key(|b| (b.created_at, branch_order(&b.id)));
    let mut seen: std::collections::HashSet<MessageId> = std::collections::HashSet::new();
    let mut out: Vec<Node> = Vec::new();
    for (color, branch) in branches.iter().enumerate() {
        let mut previous: Option<MessageId> = None;
        for &id in branch.message_ids.iter().filter(|id| !conversation.is_switch(**id)) {
            if seen.insert(id) {
                let mut parents: Vec<MessageId> = previous.into_iter().collect();
                // A merge card has two parents: its branch's line and the
                // source's tip.
                if let Some(tip) = merged_tip(conversation, id).filter(|t| !parents.contains(t)) {
                    parents.push(tip);
                }
                out.push(Node { id, parents, color: color as u32 });
            }
            previous = Some(id);
        }
    }
    // Ids are handed out in creation order: that is the history's order.
    out.sort_by_key(|n| n.id);
    out
}

/// A branch's last message that is a row of the graph.
fn tip(conversation: &Conversation, branch: &crate::Branch) -> Option<MessageId> {
    branch.message_ids.iter().rev().find(|id| !conversation.is_switch(**id)).copied()
}

fn merged_tip(conversation: &Conversation, id: MessageId) -> Option<MessageId> {
    match &conversation.message(id)?.body {
        MessageType::SystemControl { control: ControlKind::Merge { record } } => {
            // A source last switched to ends in a switch record, which is
            // no row: the line comes from the message before it.
            let tip = match conversation.branch(&record.source) {
                Some(b) if conversation.is_switch(record.source_tip) => {
                    let at = b.message_ids.iter().position(|m| *m == record.source_tip)?;
                    b.message_ids[..at].iter().rev().find(|m| !conversation.is_switch(**m)).copied()?
                }
                _ => record.source_tip,
            };
            Some(tip).filter(|t| *t < id && conversation.message(*t).is_some() && !conversation.is_switch(*t))
        }
        _ => None,
    }
}

/// `main` first, then `b2`, `b3`, … by number (not as text: b10 after b9).
fn branch_order(id: &BranchId) -> (u8, u64, String) {
    match id.0.strip_prefix('b').and_then(|n| n.parse().ok()) {
        _ if id.0 == "main" => (0, 0, String::new()),
        Some(n) => (1, n, String::new()),
        None => (2, 0, id.0.clone()),
    }
}

/// What a lane carries down from the row that opened it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    /// A node's own line, to its heir.
    From(MessageId),
    /// A line from `parent` to a child on another branch.
    To { child: MessageId, parent: MessageId },
}

/// Lays out `nodes`, which come oldest first (every parent before its
/// children).
pub fn layout(nodes: &[Node]) -> Layout {
    let color_of: HashMap<MessageId, u32> = nodes.iter().map(|n| (n.id, n.color)).collect();
    // Each parent's children in order, and its heir: the child that
    // carries its line on in the same lane (its own branch going on, else
    // its first child). The other children fork into lanes of their own.
    let mut children: HashMap<MessageId, Vec<MessageId>> = HashMap::new();
    for n in nodes {
        for p in &n.parents {
            children.entry(*p).or_default().push(n.id);
        }
    }
    let heir = |p: &MessageId| -> Option<MessageId> {
        let kids = children.get(p)?;
        kids.iter().find(|c| color_of.get(c) == color_of.get(p)).or(kids.first()).copied()
    };
    let mut lanes: Vec<Option<(Line, u32)>> = Vec::new();
    let free = |lanes: &mut Vec<Option<(Line, u32)>>, taken: Option<u32>| -> u32 {
        match lanes.iter().enumerate().position(|(l, s)| s.is_none() && Some(l as u32) != taken) {
            Some(l) => l as u32,
            None => {
                lanes.push(None);
                (lanes.len() - 1) as u32
            }
        }
    };
    let mut rows = Vec::with_capacity(nodes.len());
    let mut width = 0u32;
    for n in nodes {
        // Where each parent's line to this node comes down.
        let incoming: Vec<(MessageId, Option<u32>)> = n
            .parents
            .iter()
            .map(|p| {
                let lane = lanes.iter().position(|s| match s {
                    Some((Line::From(owner), _)) => owner == p && heir(p) == Some(n.id),
                    Some((Line::To { child, parent }, _)) => *child == n.id && parent == p,
                    None => false,
                });
                (*p, lane.map(|l| l as u32))
            })
            .collect();
        let own = incoming.first().and_then(|(_, l)| *l);
        let lane = own.unwrap_or_else(|| free(&mut lanes, None));
        let mut merges = Vec::new();
        for (_, l) in incoming.iter().skip(1) {
            if let Some(l) = *l {
                merges.push((l, lanes[l as usize].map_or(n.color, |(_, c)| c)));
            }
        }
        let through: Vec<(u32, u32)> = lanes
            .iter()
            .enumerate()
            .filter_map(|(l, s)| s.map(|(_, c)| (l as u32, c)))
            .filter(|(l, _)| *l != lane && !merges.iter().any(|m| m.0 == *l))
            .collect();
        for (l, _) in &merges {
            lanes[*l as usize] = None;
        }
        let next = heir(&n.id);
        lanes[lane as usize] = next.map(|_| (Line::From(n.id), n.color));
        let mut forks = Vec::new();
        for c in children.get(&n.id).into_iter().flatten().filter(|c| Some(**c) != next) {
            let l = free(&mut lanes, Some(lane));
            let color = color_of.get(c).copied().unwrap_or(n.color);
            lanes[l as usize] = Some((Line::To { child: *c, parent: n.id }, color));
            forks.push((l, color));
        }
        width = width.max(lanes.len() as u32);
        rows.push(Row {
            id: n.id,
            lane,
            color: n.color,
            up: own.is_some(),
            down: next.is_some(),
            forks,
            merges,
            through,
        });
        // Trailing free lanes are dropped so the graph narrows again.
        while lanes.last().is_some_and(Option::is_none) {
            lanes.pop();
        }
    }
    Layout { rows, width }
}

/// The rows' vertical lines joined into runs per lane: `[lane, first
/// row, last row, colour]`. A run covers the rows its line passes and the
/// rows of its own nodes it goes through (up and down), so a line whose
/// nodes alternate with another's is still one run.
pub fn spans(rows: &[Row]) -> Vec<[u32; 4]> {
    let mut open: HashMap<u32, [u32; 4]> = HashMap::new();
    let mut out = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        let i = i as u32;
        let own = (r.up && r.down).then_some((r.lane, r.color));
        for &(lane, color) in r.through.iter().chain(own.iter()) {
            match open.get_mut(&lane) {
                Some(s) if s[2] + 1 == i && s[3] == color => s[2] = i,
                _ => {
                    if let Some(done) = open.insert(lane, [lane, i, i, color]) {
                        out.push(done);
                    }
                }
            }
        }
    }
    out.extend(open.into_values());
    out.sort_unstable();
    out
}

/// What a row says of its message: its text, or what a system message
/// recorded.
fn label(body: &MessageType, names: &HashMap<&BranchId, &str>) -> String {
    let name = |b: &BranchId| names.get(b).map_or_else(|| b.0.clone(), |n| (*n).to_owned());
    match body {
        MessageType::SystemControl { control } => match control {
            ControlKind::BranchSwitch { to, .. } => format!("switched to {}", name(to)),
            ControlKind::ModeChange { mode } => format!("{mode} mode"),
            ControlKind::Summary { replaces, .. } => format!("summary of {} messages", replaces.len()),
            ControlKind::Recovery { .. } => "recovered after a crash".to_owned(),
            ControlKind::Notice { text, .. } => text.chars().take(60).collect(),
            ControlKind::Merge { record } => format!("merged {} ({})", record.source_name, record.strategy.as_str()),
            ControlKind::MergeUndone { .. } => "merge undone".to_owned(),
            ControlKind::SummaryUndone { .. } => "summary undone".to_owned(),
            ControlKind::FilesRestored { undoes: Some(_), .. } => "file restore undone".to_owned(),
            ControlKind::FilesRestored { files, changes_of: Some(_), .. } => format!("changes undone in {files} files"),
            ControlKind::FilesRestored { files, .. } => format!("{files} files restored"),
            ControlKind::Workflow { name, .. } => format!("workflow /{name}"),
        },
        other => crate::conversation::describe(other),
    }
}

/// The graph as the UI draws it: the layout's rows with what each shows
/// of its message (with the files and lines it changed, from the
/// conversation's `checkpoints`), and the branches with their colours and
/// tips.
pub fn view(conversation: &Conversation, checkpoints: &[Checkpoint]) -> braid_protocol::GraphView {
    let nodes = nodes(conversation);
    let laid = layout(&nodes);
    let mut branches: Vec<_> = conversation.branches().collect();
    branches.sort_by_key(|b| (b.created_at, branch_order(&b.id)));
    let mut tips: HashMap<MessageId, Vec<BranchId>> = HashMap::new();
    for b in &branches {
        if let Some(t) = tip(conversation, b) {
            tips.entry(t).or_default().push(b.id.clone());
        }
    }
    let labels: Vec<String> = branches.iter().map(|b| b.label()).collect();
    let names: HashMap<&BranchId, &str> = branches.iter().zip(&labels).map(|(b, l)| (&b.id, l.as_str())).collect();
    let parents: HashMap<MessageId, &Vec<MessageId>> = nodes.iter().map(|n| (n.id, &n.parents)).collect();
    let pairs = |v: &[(u32, u32)]| v.iter().map(|(l, c)| [*l, *c]).collect::<Vec<_>>();
    let rows = laid
        .rows
        .iter()
        .filter_map(|r| {
            let m = conversation.message(r.id)?;
            Some(braid_protocol::GraphRow {
                id: r.id,
                parents: parents.get(&r.id).map(|p| p.to_vec()).unwrap_or_default(),
                lane: r.lane,
                color: r.color,
                up: r.up,
                down: r.down,
                forks: pairs(&r.forks),
                merges: pairs(&r.merges),
                kind: m.body.kind().tag().to_owned(),
                role: m.body.role().map(|role| format!("{role:?}").to_lowercase()),
                preview: label(&m.body, &names),
                created_at: m.created_at,
                tips: tips.remove(&r.id).unwrap_or_default(),
                merge: merged_tip(conversation, r.id).is_some(),
                spawns: match &m.body {
                    MessageType::ToolRequest { calls, .. } => {
                        calls.iter().filter(|c| c.name == braid_protocol::SPAWN_AGENTS).map(|c| c.id.clone()).collect()
                    }
                    _ => Vec::new(),
                },
                changes: {
                    let made = checkpoints.iter().filter(|c| c.message_id == r.id && c.author != ChangeAuthor::User);
                    Some(crate::checkpoint::count(made)).filter(|n| n.files > 0)
                },
            })
        })
        .collect();
    braid_protocol::GraphView {
        rows,
        spans: spans(&laid.rows),
        width: laid.width,
        branches: branches
            .iter()
            .enumerate()
            .map(|(color, b)| braid_protocol::GraphBranch {
                id: b.id.clone(),
                name: b.name.clone(),
                color: color as u32,
                parent: b.parent.clone(),
                tip: tip(conversation, b),
                message_count: b.message_ids.len() as u32,
                system_prompt: b.system_prompt.clone(),
                folder: b.folder.clone(),
            })
            .collect(),
        active: conversation.active_branch().clone(),
    }
}
