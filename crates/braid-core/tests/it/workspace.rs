//! A conversation working in a broad folder (the home folder): read tools,
//! which run by themselves elsewhere, are asked once; the first approved
//! read answers for the rest. The folder moves only while idle.

use braid_core::machine::Event;
use braid_core::sim::{reply_of, Sim};
use braid_protocol::{ApprovalDecision, ContextStatus, ErrorCode, StatusKind, ToolApprovalPolicy};

fn broad() -> Sim {
    let mut sim = Sim::new();
    sim.state.config.tools.confirm_reads = true;
    sim
}

fn awaiting(sim: &Sim) -> Vec<String> {
    match &sim.state.status {
        ContextStatus::AwaitingToolApproval { tool_names, .. } => tool_names.clone(),
        other => panic!("expected an approval, got {other:?}"),
    }
}

#[test]
fn the_first_read_in_a_broad_folder_is_asked_and_later_ones_run() {
    let mut sim = broad();
    sim.start("look around");
    sim.model_calls(&[("r1", "read_file", r#"{"path":"notes.txt"}"#)]);
    assert_eq!(awaiting(&sim), ["read_file"], "the default policy runs reads by itself elsewhere");
    sim.send(Event::ToolDecision { call_id: "r1".into(), decision: ApprovalDecision::Approve, reason: None });
    assert!(!sim.state.config.tools.confirm_reads, "one approval answers for the folder");
    assert_eq!(sim.state.status.kind(), StatusKind::ExecutingTool);
    sim.tool_done("r1", "hello");
    sim.model_calls(&[("r2", "list_directory", r#"{"path":"."}"#)]);
    assert_eq!(sim.state.status.kind(), StatusKind::ExecutingTool, "a later read of another tool is not asked");
}

#[test]
fn a_denied_read_is_asked_again_next_time() {
    let mut sim = broad();
    sim.start("look around");
    sim.model_calls(&[("r1", "read_file", r#"{"path":".ssh/id_ed25519"}"#)]);
    sim.send(Event::ToolDecision { call_id: "r1".into(), decision: ApprovalDecision::Deny, reason: None });
    assert!(sim.state.config.tools.confirm_reads);
    sim.model_calls(&[("r2", "read_file", r#"{"path":"notes.txt"}"#)]);
    assert_eq!(awaiting(&sim), ["read_file"]);
}

#[test]
fn approving_a_write_does_not_answer_for_reads() {
    let mut sim = broad();
    sim.start("write it");
    sim.model_calls(&[("w1", "write_file", r#"{"path":"a.txt","content":"x"}"#)]);
    sim.send(Event::ToolDecision { call_id: "w1".into(), decision: ApprovalDecision::Approve, reason: None });
    assert!(sim.state.config.tools.confirm_reads, "only a read answers for reads");
}

#[test]
fn run_everything_is_not_asked_even_in_a_broad_folder() {
    let mut sim = broad();
    sim.state.config.tools.policy = ToolApprovalPolicy::AutoAll;
    sim.start("look around");
    sim.model_calls(&[("r1", "read_file", r#"{"path":"notes.txt"}"#)]);
    assert_eq!(sim.state.status.kind(), StatusKind::ExecutingTool);
}

#[test]
fn the_folder_moves_only_while_idle() {
    let mut sim = Sim::new();
    sim.start("look around");
    let fx = sim.send(Event::SetWorkspace { confirm_reads: true });
    let refused = reply_of(&fx).cloned().expect("a reply").expect_err("busy");
    assert_eq!(refused.code, ErrorCode::AgentBusy);
    assert!(refused.message.contains("before changing the folder"), "{}", refused.message);
    assert!(!sim.state.config.tools.confirm_reads);

    sim.send(Event::Cancel);
    assert_eq!(sim.state.status, ContextStatus::Idle);
    let fx = sim.send(Event::SetWorkspace { confirm_reads: true });
    assert!(matches!(reply_of(&fx), Some(Ok(_))), "{fx:?}");
    assert!(sim.state.config.tools.confirm_reads);
    let fx = sim.send(Event::SetWorkspace { confirm_reads: false });
    assert!(matches!(reply_of(&fx), Some(Ok(_))));
    assert!(!sim.state.config.tools.confirm_reads, "a narrower folder runs reads by itself again");
}
