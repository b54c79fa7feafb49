//! Settling what a merge brings so it stays whole: the messages a brought
//! one needs come along (or, when the user goes on without them, the
//! brought tool message becomes text), and a tool message whose partner
//! stays behind for any reason becomes text too.

use super::deps;
use braid_protocol::{MergeDependency, MergeItemFate, Message, MessageId, MessageType};
use std::collections::HashMap;

/// Updates `fate` (one per message of `source_new`) and answers the
/// dependencies the user's choice left out, to be listed (`listed`: a
/// cherry-pick, where the user chose the messages).
pub fn settle(source_new: &[&Message], fate: &mut [MergeItemFate], listed: bool, bring: bool) -> Vec<MergeDependency> {
    let at: HashMap<MessageId, usize> = source_new.iter().enumerate().map(|(i, m)| (m.id, i)).collect();
    let brought = |f: MergeItemFate| matches!(f, MergeItemFate::Brought | MergeItemFate::Dependency);
    let mut dependencies = Vec::new();
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..source_new.len() {
            if !brought(fate[i]) {
                continue;
            }
            for (need, why) in deps::needs(source_new, i) {
                let j = at[&need];
                if fate[j] != MergeItemFate::LeftOut {
                    continue;
                }
                if listed {
                    dependencies.push(MergeDependency { message: source_new[i].id, needs: need, why: why.to_owned() });
                }
                if bring {
                    fate[j] = MergeItemFate::Dependency;
                    changed = true;
                }
            }
        }
    }
    // A tool message whose partner stays behind (not chosen, already on
    // the target, or turned into text itself) becomes text.
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..source_new.len() {
            let tool = matches!(source_new[i].body, MessageType::ToolRequest { .. } | MessageType::ToolResult { .. });
            if !tool || !brought(fate[i]) {
                continue;
            }
            let alone = deps::needs(source_new, i).iter().any(|(n, _)| match fate[at[n]] {
                MergeItemFate::LeftOut => !bring,
                MergeItemFate::Duplicate | MergeItemFate::AsText | MergeItemFate::Resolved => true,
                _ => false,
            });
            if alone {
                fate[i] = MergeItemFate::AsText;
                changed = true;
            }
        }
    }
    dependencies
}
