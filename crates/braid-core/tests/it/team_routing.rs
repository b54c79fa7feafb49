//! Team chains in the machine: a message routed by its `[NEXT:name]`
//! markers, each member's request built from the conversation, answers
//! stored under their author, the limits on a chain, and the user
//! steering it. Event by event with the simulator.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::llm::LlmResponse;
use braid_core::machine::{Effect, Event};
use braid_core::sim::{reply_of, Sim};
use braid_protocol::{
    AgentType, BraidEvent, ContextStatus as S, ModelChoice, NoticeCode, Team, TeamAction, TeamMember, TeamRoute,
    MAX_AGENT_TURNS,
};

fn api(name: &str) -> TeamMember {
    TeamMember {
        name: name.to_owned(),
        agent: AgentType::Api { model: Some(ModelChoice { provider_id: "peer".into(), model: "smol".into() }) },
        colour: String::new(),
        instruction: format!("You are {name}."),
        instruction_file: None,
        window: None,
        program: None,
        isolated: false,
    }
}

fn team_sim(members: Vec<TeamMember>) -> Sim {
    let mut sim = Sim::new();
    let team = Team { members, task: "Plan the release".into(), window: 5, byte_budget: 768 * 1024 };
    let fx = sim.send(Event::SetTeam { team: Some(Box::new(team)) });
    assert!(matches!(reply_of(&fx), Some(Ok(_))), "{fx:?}");
    sim
}

fn member_of(fx: &[Effect]) -> Option<String> {
    fx.iter().find_map(|e| match e {
        Effect::StartLlmRequest { member, .. } => Some(member.as_ref().map(|m| m.name.clone()).unwrap_or_default()),
        _ => None,
    })
}

/// The member's request as the machine built it: system text, prompt.
fn asked(fx: &[Effect]) -> (String, String) {
    fx.iter()
        .find_map(|e| match e {
            Effect::SendLlmRequest { system, messages, tools, .. } => {
                assert!(tools.is_empty(), "members are offered no tools");
                let system = system.iter().map(|p| p.text.clone()).collect::<Vec<_>>().join("\n\n");
                Some((system, messages[0].body.plain_text().unwrap()))
            }
            Effect::RunAgent { system, prompt, .. } => Some((system.clone().unwrap_or_default(), prompt.clone())),
            _ => None,
        })
        .expect("a member's request")
}

/// Prepares and answers the running member's request; returns the
/// request it was asked and the effects of the answer.
fn answer(sim: &mut Sim, text: &str) -> ((String, String), Vec<Effect>) {
    let fx = sim.prepare(sim.prepared(100_000));
    let question = asked(&fx);
    let request_id = sim.request_id();
    sim.send(Event::LlmRequestStarted { request_id });
    let fx = sim.send(Event::LlmCompleted { request_id, response: LlmResponse::text(text) });
    (question, fx)
}

fn route(fx: &[Effect]) -> Option<TeamRoute> {
    fx.iter()
        .rev()
        .find_map(|e| match e {
            Effect::Emit(BraidEvent::ContextUpdate(u)) => Some(u.metadata.team.clone()),
            _ => None,
        })?
        .map(|r| *r)
}

fn notices(fx: &[Effect]) -> Vec<NoticeCode> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Emit(BraidEvent::ContextUpdate(u)) => u.metadata.notice.as_ref().map(|n| n.code),
            _ => None,
        })
        .collect()
}

#[test]
fn markers_queue_members_in_order_and_each_gets_the_previous_answer() {
    let mut sim = team_sim(vec![api("max"), api("sarah"), api("carol")]);
    let fx = sim.start("[NEXT:max] [NEXT:sarah] [NEXT:carol] Hi");
    assert_eq!(member_of(&fx).as_deref(), Some("max"));
    assert_eq!(route(&fx).unwrap().queue, ["sarah", "carol"], "the queue is visible");

    let ((system, prompt), fx) = answer(&mut sim, "Max here. [NEXT:sarah]");
    assert_eq!(system, "You are max.\n\nTeam task:\nPlan the release");
    assert_eq!(prompt, "Message:\nuser: Hi", "markers stripped, nothing before it");
    assert_eq!(member_of(&fx).as_deref(), Some("sarah"));
    assert_eq!(route(&fx).unwrap().queue, ["carol", "sarah"], "max's own marker queued after");

    let ((_, prompt), fx) = answer(&mut sim, "Sarah here.");
    assert_eq!(prompt, "Conversation so far:\nuser: Hi\n\nMessage:\nmax: <untrusted source=\"team member max\">\nMax here.\n</untrusted>");
    assert_eq!(member_of(&fx).as_deref(), Some("carol"));

    let ((_, prompt), _) = answer(&mut sim, "Carol here.");
    assert_eq!(prompt, "Conversation so far:\nuser: Hi\n\nmax: <untrusted source=\"team member max\">\nMax here.\n</untrusted>\n\nMessage:\nsarah: <untrusted source=\"team member sarah\">\nSarah here.\n</untrusted>");
    let ((_, prompt), fx) = answer(&mut sim, "Sarah again.");
    assert!(
        prompt.ends_with("Message:\ncarol: <untrusted source=\"team member carol\">\nCarol here.\n</untrusted>"),
        "{prompt}"
    );
    assert_eq!(sim.state.status, S::Idle, "no marker: the turn returns to the user");
    assert_eq!(route(&fx), None);

    let authors: Vec<Option<String>> = sim.messages().iter().map(|m| m.meta.author.clone()).collect();
    let names = |v: &[Option<&str>]| v.iter().map(|s| s.map(str::to_owned)).collect::<Vec<_>>();
    assert_eq!(authors, names(&[None, Some("max"), Some("sarah"), Some("carol"), Some("sarah")]));
}

#[test]
fn a_message_without_markers_goes_to_the_first_member() {
    let mut sim = team_sim(vec![api("lead"), api("dev")]);
    let fx = sim.start("What now?");
    assert_eq!(member_of(&fx).as_deref(), Some("lead"));
}

#[test]
fn an_unknown_name_is_refused_naming_the_members_and_nothing_is_stored() {
    let mut sim = team_sim(vec![api("max"), api("sarah")]);
    let fx = sim.send(Event::UserMessage {
        body: braid_protocol::MessageType::text(braid_protocol::Role::User, "[NEXT:bob] hi"),
        queue_if_busy: false,
        force_tool: None,
        images: Vec::new(),
    });
    let error = reply_of(&fx).unwrap().as_ref().unwrap_err();
    assert!(error.message.contains("\"bob\"") && error.message.contains("max, sarah"), "{}", error.message);
    assert!(sim.messages().is_empty());
    assert_eq!(sim.state.status, S::Idle);
}

#[test]
fn an_unknown_name_in_an_answer_is_told_and_the_turn_returns() {
    let mut sim = team_sim(vec![api("max"), api("sarah")]);
    sim.start("[NEXT:max] hi");
    let (_, fx) = answer(&mut sim, "Ask [NEXT:zed]");
    assert!(notices(&fx).contains(&NoticeCode::TeamUnknownMember));
    assert_eq!(sim.state.status, S::Idle);
}

#[test]
fn five_agent_turns_in_a_row_pause_the_chain_until_resumed() {
    let mut sim = team_sim(vec![api("a"), api("b")]);
    sim.start("[NEXT:a] go");
    for turn in 1..MAX_AGENT_TURNS {
        let (_, fx) = answer(&mut sim, if turn % 2 == 1 { "[NEXT:b]" } else { "[NEXT:a]" });
        assert!(member_of(&fx).is_some(), "turn {turn} goes on");
    }
    let (_, fx) = answer(&mut sim, "[NEXT:a] again");
    assert_eq!(sim.state.status, S::Idle);
    assert!(notices(&fx).contains(&NoticeCode::TeamPaused));
    let paused = route(&fx).unwrap();
    assert!(paused.paused && paused.queue == ["a"], "{paused:?}");
    let fx = sim.send(Event::SteerTeam { action: TeamAction::Resume });
    assert_eq!(member_of(&fx).as_deref(), Some("a"), "resumed");
    assert_eq!(route(&fx).unwrap().agent_turns, 0);
}

#[test]
fn a_chain_queues_at_most_fifty_turns() {
    let mut sim = team_sim(vec![api("a")]);
    let markers = "[NEXT:a] ".repeat(60);
    let fx = sim.start(&format!("{markers} go"));
    assert!(notices(&fx).contains(&NoticeCode::TeamLimit));
    let r = route(&fx).unwrap();
    assert_eq!((r.queue.len(), r.queued_total), (49, 50), "one running, 49 waiting");
}

#[test]
fn the_user_skips_a_queued_member_skips_the_running_one_or_stops() {
    let mut sim = team_sim(vec![api("max"), api("sarah"), api("carol")]);
    sim.start("[NEXT:max] [NEXT:sarah] [NEXT:carol] Hi");
    let fx = sim.send(Event::SteerTeam { action: TeamAction::Skip { position: 0 } });
    assert_eq!(route(&fx).unwrap().queue, ["carol"], "sarah skipped");
    let bad = sim.send(Event::SteerTeam { action: TeamAction::Skip { position: 5 } });
    assert!(reply_of(&bad).unwrap().is_err());

    sim.prepare(sim.prepared(100_000));
    let request_id = sim.request_id();
    sim.send(Event::LlmDelta { request_id, text: "Max is ty".into() });
    let fx = sim.send(Event::SteerTeam { action: TeamAction::SkipRunning });
    assert!(fx.iter().any(|e| matches!(e, Effect::AbortLlmRequest { keep_partial: false, .. })));
    assert_eq!(member_of(&fx).as_deref(), Some("carol"), "on to the next");
    assert!(sim.messages().iter().all(|m| m.meta.author.is_none()), "nothing of max's answer kept");

    let fx = sim.send(Event::SteerTeam { action: TeamAction::Stop });
    assert_eq!(sim.state.status, S::Idle);
    assert_eq!(route(&fx), None, "chain dropped");
}

#[test]
fn cancel_stops_the_chain() {
    let mut sim = team_sim(vec![api("max"), api("sarah")]);
    sim.start("[NEXT:max] [NEXT:sarah] Hi");
    let fx = sim.send(Event::Cancel);
    assert_eq!(route(&fx), None);
    assert_eq!(sim.state.route, TeamRoute::default());
}

#[test]
fn a_cli_member_runs_as_an_agent_with_its_assembled_prompt() {
    let claude = TeamMember { agent: AgentType::ClaudeCode, ..api("cc") };
    let mut sim = team_sim(vec![claude]);
    sim.start("Hi");
    let fx = sim.prepare(sim.prepared(100_000));
    let run = fx.iter().find_map(|e| match e {
        Effect::RunAgent { member, system, prompt, .. } => Some((member.name.clone(), system.clone(), prompt.clone())),
        _ => None,
    });
    let (name, system, prompt) = run.expect("RunAgent");
    assert_eq!(name, "cc");
    assert_eq!(system.as_deref(), Some("You are cc."));
    assert_eq!(prompt, "[TEAM_TASK]\nPlan the release\n\n[MESSAGE]\nuser: Hi");
    assert_eq!(sim.state.status, S::PreparingLlmRequest);
}

#[test]
fn the_team_is_checked_and_the_task_cut_when_set() {
    let mut sim = Sim::new();
    let twins = Team { members: vec![api("max"), api("MAX")], task: String::new(), window: 5, byte_budget: 1 };
    let fx = sim.send(Event::SetTeam { team: Some(Box::new(twins)) });
    assert!(reply_of(&fx).unwrap().as_ref().unwrap_err().message.contains("two members"));
    let long = Team { members: vec![api("max")], task: "x".repeat(6000), window: 5, byte_budget: 1 };
    let fx = sim.send(Event::SetTeam { team: Some(Box::new(long)) });
    assert!(notices(&fx).contains(&NoticeCode::TeamTaskCut));
    assert_eq!(sim.state.config.team.as_ref().unwrap().task.len(), 5 * 1024);
    sim.send(Event::SetTeam { team: None });
    assert!(sim.state.config.team.is_none());
    let fx = sim.start("Hi");
    assert_eq!(member_of(&fx).as_deref(), Some(""), "an ordinary conversation again");
}

#[test]
fn a_team_conversation_forks_and_merges_keeping_who_said_what() {
    let mut sim = team_sim(vec![api("max"), api("sarah")]);
    sim.start("[NEXT:max] Hi");
    answer(&mut sim, "Max here.");
    let first = sim.messages()[0].id;
    let side = sim.fork(first, "side", true).unwrap();
    sim.start("[NEXT:sarah] And you?");
    answer(&mut sim, "Sarah here.");
    sim.send(Event::SwitchBranch { from: side.clone(), to: braid_protocol::BranchId::main() });
    let options = braid_protocol::MergeOptions::new(side, braid_protocol::MergeStrategy::Append);
    sim.merge(&options).unwrap();
    let said: Vec<(Option<String>, String)> =
        sim.messages().iter().filter_map(|m| Some((m.meta.author.clone(), m.body.plain_text()?))).collect();
    let copy = said.iter().find(|(_, t)| t == "Sarah here.").expect("sarah's answer merged in");
    assert_eq!(copy.0.as_deref(), Some("sarah"), "a copy keeps its author");
}

#[test]
fn a_restart_stops_the_chain_and_says_so() {
    let mut sim = team_sim(vec![api("max"), api("sarah")]);
    sim.start("[NEXT:max] [NEXT:sarah] Hi");
    let (state, added) = braid_core::recovery::recover(&sim.state, &sim.conversation, sim.now).unwrap();
    assert_eq!(state.route, TeamRoute::default());
    assert_eq!(state.status, S::Idle);
    let said = match &added.last().unwrap().body {
        braid_protocol::MessageType::SystemControl {
            control: braid_protocol::ControlKind::Recovery { detail, .. },
        } => detail.clone(),
        other => panic!("{other:?}"),
    };
    assert!(said.contains("The team's turns stopped (max was answering; sarah waited)"), "{said}");
}

#[test]
fn continue_and_retry_go_to_the_member_not_the_plain_model() {
    let mut sim = team_sim(vec![api("max"), api("sarah")]);
    sim.start("[NEXT:sarah] Write the plan");
    sim.prepare(sim.prepared(100_000));
    let request_id = sim.request_id();
    sim.send(Event::LlmDelta { request_id, text: "Step one".into() });
    sim.send(Event::Interrupt);
    let request_id = sim.request_id();
    sim.send(Event::LlmCompleted { request_id, response: LlmResponse::text("Step one") });
    assert_eq!(sim.state.status, S::Idle);
    assert_eq!(sim.messages().last().unwrap().meta.author.as_deref(), Some("sarah"));
    // Continue: sarah goes on with her stopped answer.
    sim.send(Event::Retry);
    let ((system, prompt), _) = answer(&mut sim, "Step two.");
    assert!(system.starts_with("You are sarah."), "{system}");
    assert!(
        prompt.ends_with("Message:\nsarah: <untrusted source=\"team member sarah\">\nStep one\n</untrusted>"),
        "{prompt}"
    );
    assert_eq!(sim.messages().last().unwrap().meta.author.as_deref(), Some("sarah"));
    assert_eq!(sim.state.status, S::Idle);
}
