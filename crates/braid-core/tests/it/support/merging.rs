//! What the merge tests share: a simulator with branches to merge, the
//! options of a merge, and the check that no stored message changed.

#![allow(dead_code)] // each test file uses some of these

use braid_core::llm::LlmResponse;
use braid_core::machine::Event;
use braid_core::merge::plan;
use braid_core::sim::Sim;
use braid_core::tokens::TokenEncoding;
use braid_protocol::{BranchId, MergeOptions, MergePreview, MergeStrategy, Message, MessageId};
use std::collections::BTreeMap;

pub fn answered(sim: &mut Sim, q: &str, a: &str) {
    sim.start(q);
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text(a) });
}

/// The model writes `path` with `content` (policy: everything runs), then
/// answers.
pub fn writes(sim: &mut Sim, q: &str, path: &str, content: &str) {
    sim.state.config.tools.policy = braid_protocol::ToolApprovalPolicy::WhiteList { tools: vec!["write_file".into()] };
    sim.start(q);
    let id = format!("w{}", sim.state.next_message_id);
    let args = serde_json::json!({ "path": path, "content": content }).to_string();
    sim.model_calls(&[(&id, "write_file", &args)]);
    sim.tool_done(&id, "ok");
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("written") });
}

/// The model edits `path` (`old` → `new`), and the file then holds
/// content hashing to `left`.
pub fn edits(sim: &mut Sim, q: &str, path: &str, (old, new): (&str, &str), left: u64) {
    sim.state.config.tools.policy = braid_protocol::ToolApprovalPolicy::AutoAll;
    sim.start(q);
    let id = format!("e{}", sim.state.next_message_id);
    let args = serde_json::json!({ "path": path, "old_string": old, "new_string": new }).to_string();
    sim.model_calls(&[(&id, "edit_file", &args)]);
    sim.tool_wrote(&id, "edited", left);
    let rid = sim.request_id();
    sim.send(Event::LlmCompleted { request_id: rid, response: LlmResponse::text("edited") });
}

pub fn switch(sim: &mut Sim, to: &BranchId) {
    let from = sim.conversation.active_branch().clone();
    sim.send(Event::SwitchBranch { from, to: to.clone() });
}

/// main: q1 a1; then `side` forked after a1 and switched to.
pub fn forked() -> (Sim, BranchId) {
    let mut sim = Sim::new();
    answered(&mut sim, "q1", "a1");
    let at = sim.messages()[1].id;
    let side = sim.fork(at, "side", true).unwrap();
    (sim, side)
}

pub fn options(source: &BranchId, strategy: MergeStrategy) -> MergeOptions {
    MergeOptions::new(source.clone(), strategy)
}

pub fn preview(sim: &Sim, o: &MergeOptions) -> MergePreview {
    plan(&sim.conversation, o, TokenEncoding::O200k).unwrap().preview
}

pub fn texts(sim: &Sim) -> Vec<String> {
    sim.messages().iter().filter_map(|m| m.body.plain_text()).collect()
}

pub fn pool(sim: &Sim) -> BTreeMap<MessageId, Message> {
    sim.conversation.pool().map(|m| (m.id, m.clone())).collect()
}

/// Every message stored before is still stored, unchanged.
pub fn unchanged(before: &BTreeMap<MessageId, Message>, sim: &Sim) {
    for (id, m) in before {
        assert_eq!(sim.conversation.message(*id), Some(m), "message {id} changed or vanished");
    }
}
