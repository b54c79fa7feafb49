//! The message pipeline, and pure crash recovery.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::conversation::Conversation;
use braid_core::machine::{ContextState, InFlight, PipelineStage, QueuedMessage};
use braid_core::pipeline::{Flow, Pipeline, Processor};
use braid_core::recovery::recover;
use braid_protocol::{
    Approval, ContextId, ContextStatus, ControlKind, Message, MessageId, MessageType, RequestId, Role, Timestamp,
    ToolCall, ToolResultStatus, SCHEMA_VERSION,
};

struct Upper;
impl Processor for Upper {
    fn name(&self) -> &str {
        "upper"
    }
    fn stage(&self) -> PipelineStage {
        PipelineStage::ResolvingFileReferences
    }
    fn process(&self, m: &mut Message, _: &Conversation) -> Result<Flow, String> {
        let text = m.body.plain_text().unwrap_or_default().to_uppercase();
        m.body = MessageType::text(Role::User, text);
        Ok(Flow::Continue)
    }
}

struct Stop;
impl Processor for Stop {
    fn name(&self) -> &str {
        "stop"
    }
    fn process(&self, _: &mut Message, _: &Conversation) -> Result<Flow, String> {
        Ok(Flow::Complete)
    }
}

struct Fail;
impl Processor for Fail {
    fn name(&self) -> &str {
        "resolve_files"
    }
    fn stage(&self) -> PipelineStage {
        PipelineStage::ResolvingFileReferences
    }
    fn process(&self, _: &mut Message, _: &Conversation) -> Result<Flow, String> {
        Err("missing.rs: no such file".into())
    }
}

fn user(id: u64, text: &str) -> Message {
    Message {
        id: MessageId(id),
        created_at: Timestamp(0),
        schema_version: SCHEMA_VERSION,
        body: MessageType::text(Role::User, text),
        meta: Default::default(),
    }
}

fn ticking() -> impl FnMut() -> u64 {
    let mut t = 0;
    move || {
        t += 10;
        t
    }
}

#[test]
fn processors_run_in_order_and_complete_skips_the_rest() {
    let conv = Conversation::new(Timestamp(0));
    let pipeline = Pipeline::standard().with(Upper).with(Stop).with(Fail);
    let mut stages = Vec::new();
    let (m, report) = pipeline.run(user(1, "hi"), &conv, &[], &mut ticking(), &mut |s| stages.push(s)).unwrap();
    assert_eq!(m.body.plain_text().as_deref(), Some("HI"));
    let names: Vec<&str> = report.steps.iter().map(|s| s.processor.as_str()).collect();
    assert_eq!(names, ["validate", "upper", "stop"], "resolve_files is skipped after Complete");
    assert_eq!(
        stages,
        [
            PipelineStage::ProcessingUserMessage,
            PipelineStage::ResolvingFileReferences,
            PipelineStage::ProcessingUserMessage
        ]
    );
    assert!(report.steps.iter().all(|s| s.micros == 10), "time is measured per processor");
    assert_eq!(m.meta.processing_us, Some(report.total_micros));
}

#[test]
fn a_failing_processor_stops_and_nothing_changes() {
    let mut conv = Conversation::new(Timestamp(0));
    conv.append(user(1, "before")).unwrap();
    let snapshot = conv.clone();
    let pipeline = Pipeline::standard().with(Upper).with(Fail).with(Stop);
    let (err, report) = pipeline.run(user(2, "hi"), &conv, &[], &mut ticking(), &mut |_| {}).unwrap_err();
    assert_eq!(err.to_string(), "resolve_files: missing.rs: no such file");
    assert_eq!(report.steps.len(), 3);
    assert_eq!(conv, snapshot, "the context is as before processing");
    let disabled = vec!["resolve_files".to_owned()];
    assert!(
        pipeline.run(user(2, "hi"), &conv, &disabled, &mut ticking(), &mut |_| {}).is_ok(),
        "a branch can disable a processor"
    );
}

#[test]
fn recovery_restores_idle_answers_open_calls_and_keeps_unsent_text() {
    let mut conv = Conversation::new(Timestamp(0));
    conv.append(user(1, "run it")).unwrap();
    let calls = vec![ToolCall {
        id: "c1".into(),
        name: "run_command".into(),
        arguments: "{}".into(),
        approval: Approval::Approved,
    }];
    conv.append(Message { body: MessageType::ToolRequest { text: None, calls }, ..user(2, "") }).unwrap();
    let mut state = ContextState::new(ContextId("c".into()));
    state.next_message_id = 5;
    state.status = ContextStatus::StreamingLlmResponse { chunks: 3, chars: 20 };
    state.request = Some(InFlight {
        id: RequestId(1),
        attempt: 1,
        response_id: MessageId(3),
        sequence: 3,
        interrupted: false,
        force_tool: None,
        trimmed: false,
        continues: None,
        continued: 0,
        sent_at: None,
        progress_at: None,
        first_token_at: None,
    });
    state.queue.push_back(QueuedMessage {
        id: MessageId(4),
        body: MessageType::text(Role::User, "and then this"),
        force_tool: None,
        images: vec![braid_protocol::ImageAttachment {
            source: braid_protocol::ImageSource::Stored(braid_protocol::StoredImage {
                id: "f".repeat(64),
                media_type: "image/png".into(),
                width: 10,
                height: 10,
                bytes: 100,
                name: Some("trace.png".into()),
            }),
            mode: braid_protocol::ImageMode::Auto,
        }],
    });

    let (idle, added) = recover(&state, &conv, Timestamp(99)).unwrap();
    assert_eq!(idle.status, ContextStatus::Idle);
    assert!(idle.request.is_none() && idle.queue.is_empty());
    assert!(
        matches!(&added[0].body, MessageType::ToolResult { request_id, status: ToolResultStatus::Cancelled, .. } if request_id == "c1")
    );
    match &added[1].body {
        MessageType::SystemControl { control: ControlKind::Recovery { interrupted_state, detail } } => {
            assert_eq!(interrupted_state, "StreamingLlmResponse");
            assert!(detail.contains("and then this"), "unsent text is kept: {detail}");
            assert!(detail.contains("(with 1 image: trace.png)"), "its image is named: {detail}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(idle.next_message_id, added[1].id.0 + 1);
    assert!(
        recover(&ContextState::new(ContextId("c".into())), &conv, Timestamp(1)).is_none(),
        "an Idle context is left alone"
    );
    // The state's name reads as part of the sentence.
    state.status = ContextStatus::ConnectingToLlm;
    state.request = None;
    let (_, added) = recover(&state, &conv, Timestamp(99)).unwrap();
    let MessageType::SystemControl { control: ControlKind::Recovery { detail, .. } } = &added[1].body else {
        panic!("{added:?}")
    };
    assert!(detail.starts_with("Braid stopped while the context was connecting.\n"), "{detail}");
}

#[test]
fn a_whole_file_named_like_an_image_is_an_image_and_anything_else_a_reference() {
    use braid_core::pipeline::{mention_kind, Mention};
    for path in ["docs/arch.png", "shot.JPG", "a/b.jpeg", "x.webp", "y.Gif"] {
        assert_eq!(mention_kind(path, false), Mention::Image, "{path}");
    }
    // A line range reads text; other names, a dot file or no extension are files.
    assert_eq!(mention_kind("docs/arch.png", true), Mention::File);
    for path in ["src/main.rs", "notes.png.txt", ".png", "png", "README"] {
        assert_eq!(mention_kind(path, false), Mention::File, "{path}");
    }
}

#[test]
fn file_references_are_resolved_in_every_mode_and_role_that_reads() {
    use braid_core::pipeline::may_resolve_references;
    use braid_protocol::{AgentMode, AgentRole, ToolSettings};
    let planner = ToolSettings { mode: AgentMode::Plan, role: AgentRole::Planner, ..ToolSettings::default() };
    // Plan mode and the planner role still read (they only may not write).
    assert_eq!(may_resolve_references(&planner), Ok(()));
    assert_eq!(may_resolve_references(&ToolSettings::default()), Ok(()));
}

fn attachment(path: &str) -> braid_protocol::ImageAttachment {
    braid_protocol::ImageAttachment {
        source: braid_protocol::ImageSource::FilePath { path: path.into() },
        mode: braid_protocol::ImageMode::default(),
    }
}

fn pasted() -> braid_protocol::ImageAttachment {
    let stored = braid_protocol::StoredImage {
        id: "e".repeat(64),
        media_type: "image/png".into(),
        width: 4,
        height: 4,
        bytes: 64,
        name: Some("pasted.png".into()),
    };
    braid_protocol::ImageAttachment {
        source: braid_protocol::ImageSource::Stored(stored),
        mode: braid_protocol::ImageMode::Auto,
    }
}

fn only<T>(fx: &[braid_core::machine::Effect], pick: impl Fn(&braid_core::machine::Effect) -> Option<T>) -> T {
    let mut found: Vec<T> = fx.iter().filter_map(pick).collect();
    assert_eq!(found.len(), 1, "{fx:?}");
    found.remove(0)
}

/// The core orders the stages: processors, then the files the text names,
/// then what the message brings (sent images first, then named ones);
/// each is an effect whose answer is checked against the message in the
/// pipeline.
#[test]
fn the_core_orders_the_pipeline_s_stages_and_ignores_late_answers() {
    use braid_core::machine::{Effect, Event};
    use braid_core::sim::Sim;
    let mut sim = Sim::new();
    let fx = sim.send(Event::UserMessage {
        body: MessageType::text(Role::User, "Compare @a.rs and @shot.png"),
        queue_if_busy: false,
        force_tool: None,
        images: vec![pasted()],
    });
    let message = only(&fx, |e| match e {
        Effect::RunPipeline(m) => Some(m.clone()),
        _ => None,
    });
    let fx = sim.send(Event::PipelineProcessed { message: message.clone(), mentions_files: true });
    assert_eq!(sim.state.status, ContextStatus::ResolvingFileReferences);
    let resolving = only(&fx, |e| match e {
        Effect::ResolveReferences(m) => Some(m.clone()),
        _ => None,
    });
    assert_eq!(resolving.id, message.id);
    assert!(sim.messages().is_empty(), "nothing enters the pool before every stage passed");

    let reference = MessageType::text(Role::User, "(a.rs, resolved)");
    let fx = sim.send(Event::ReferencesResolved {
        message: message.clone(),
        attachments: vec![reference.clone()],
        images: vec![attachment("shot.png")],
    });
    let (attachments, images) = only(&fx, |e| match e {
        Effect::ReadAttachments { attachments, images, .. } => Some((attachments.clone(), images.clone())),
        _ => None,
    });
    assert_eq!(attachments, vec![reference]);
    assert_eq!(images, vec![pasted(), attachment("shot.png")], "sent images first");

    // Cancelled while reading: the reader's late answer changes nothing.
    let fx = sim.send(Event::Cancel);
    assert!(fx.iter().any(|e| matches!(e, Effect::AbortPipeline(id) if *id == message.id)), "{fx:?}");
    assert_eq!(sim.state.status, ContextStatus::Idle);
    let before = sim.state.clone();
    for late in [
        Event::ReferencesResolved { message: message.clone(), attachments: Vec::new(), images: Vec::new() },
        Event::PipelineSucceeded { message: message.clone(), attachments: Vec::new() },
    ] {
        assert!(sim.send(late).is_empty());
    }
    assert_eq!((sim.state.clone(), sim.messages().len()), (before, 0));
}

#[test]
fn a_message_naming_no_files_goes_straight_to_its_attachments_and_a_failure_adds_nothing() {
    use braid_core::machine::{Effect, Event};
    use braid_core::sim::Sim;
    let mut sim = Sim::new();
    let fx = sim.send(Event::UserMessage {
        body: MessageType::text(Role::User, "Hello"),
        queue_if_busy: false,
        force_tool: None,
        images: Vec::new(),
    });
    let message = only(&fx, |e| match e {
        Effect::RunPipeline(m) => Some(m.clone()),
        _ => None,
    });
    let fx = sim.send(Event::PipelineProcessed { message: message.clone(), mentions_files: false });
    assert!(!fx.iter().any(|e| matches!(e, Effect::ResolveReferences(_))));
    assert!(fx.iter().any(|e| matches!(e, Effect::ReadAttachments { images, .. } if images.is_empty())));
    assert_eq!(sim.state.status, ContextStatus::ProcessingUserMessage, "no stage shown for nothing to resolve");

    sim.send(Event::PipelineFailed { message_id: message.id, error: "server gone".into() });
    assert_eq!(sim.state.status, ContextStatus::Idle);
    assert!(sim.messages().is_empty());
    assert!(sim.state.pending.is_none());
}
