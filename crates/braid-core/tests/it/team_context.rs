//! The team chat design's test table for what each member is given: the
//! task's limit, the window, de-duplication, marker stripping, the byte
//! budget, and every assembler's sections. Pure functions, no machine.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::team::assemble::MemberInput;
use braid_core::team::{assemble, context_for, cut_task, next_markers, strip_markers, Said, Speaker};
use braid_protocol::{AgentType, Message, MessageId, MessageType, ModelChoice, Role, Timestamp, TEAM_TASK_LIMIT};

fn said(id: u64, speaker: &str, text: &str) -> Said {
    let speaker = if speaker == "user" { Speaker::User } else { Speaker::Member(speaker.to_owned()) };
    Said { id: MessageId(id), copy_of: None, speaker, text: text.to_owned() }
}

fn texts(context: &[Said]) -> Vec<String> {
    context.iter().map(|s| format!("{}: {}", s.speaker.label(), s.text)).collect()
}

#[test]
fn messages_are_read_with_their_author() {
    let mut answer = Message::new(MessageId(2), Timestamp(1), MessageType::text(Role::Assistant, "hello"));
    answer.meta.author = Some("max".to_owned());
    let back: Message = serde_json::from_str(&serde_json::to_string(&answer).unwrap()).unwrap();
    assert_eq!(back.meta.author.as_deref(), Some("max"), "the author is stored with the message");
    assert_eq!(Said::of(&back).unwrap().speaker, Speaker::Member("max".to_owned()));
    let question = Message::new(MessageId(1), Timestamp(1), MessageType::text(Role::User, "hi"));
    assert_eq!(Said::of(&question).unwrap().speaker, Speaker::User);
    let system = Message::new(MessageId(3), Timestamp(1), MessageType::text(Role::System, "rules"));
    assert!(Said::of(&system).is_none(), "system text is not part of the talk");
}

#[test]
fn the_task_is_kept_up_to_five_kb_and_cut_past_it_with_a_warning() {
    assert_eq!(cut_task(""), (String::new(), None));
    let exact = "a".repeat(TEAM_TASK_LIMIT);
    assert_eq!(cut_task(&exact), (exact.clone(), None));
    let over = format!("{exact}b");
    let (kept, warning) = cut_task(&over);
    assert_eq!(kept, exact);
    assert!(warning.unwrap().contains("5121 bytes"));
    // Cut on a character boundary: a 3-byte character straddling the limit goes whole.
    let straddling = format!("{}€€", "a".repeat(TEAM_TASK_LIMIT - 1));
    let (kept, warning) = cut_task(&straddling);
    assert_eq!(kept.len(), TEAM_TASK_LIMIT - 1);
    assert!(warning.is_some());
}

#[test]
fn the_window_takes_the_last_n_before_the_current_message() {
    let before: Vec<Said> = (1..=7).map(|i| said(i, "user", &format!("m{i}"))).collect();
    let current = said(8, "max", "now");
    let (zero, _) = context_for(&before, &current, 0, usize::MAX);
    assert!(zero.is_empty(), "window 0: no context");
    let (one, _) = context_for(&before, &current, 1, usize::MAX);
    assert_eq!(texts(&one), ["user: m7"]);
    let (five, _) = context_for(&before, &current, 5, usize::MAX);
    assert_eq!(texts(&five), ["user: m3", "user: m4", "user: m5", "user: m6", "user: m7"]);
    let (all, _) = context_for(&before, &current, 50, usize::MAX);
    assert_eq!(all.len(), 7, "a window past the start takes everything");
    let (empty, current) = context_for(&[], &current, 5, usize::MAX);
    assert!(empty.is_empty(), "empty conversation, empty context");
    assert_eq!(current.text, "now");
}

#[test]
fn markers_are_read_in_order_and_stripped_once() {
    assert_eq!(next_markers("[NEXT:max] [next: sarah ] Hi [NEXT:carol]"), ["max", "sarah", "carol"]);
    assert_eq!(next_markers("no markers [NEXT:] [NEXTmax]"), Vec::<String>::new());
    assert_eq!(strip_markers("[NEXT:max] [NEXT:sarah] Hi"), "Hi");
    assert_eq!(strip_markers("[FROM:max] Done.\nOver to you [NEXT:carol]"), "Done.\nOver to you");
    assert_eq!(strip_markers("plain text  with  spaces "), "plain text  with  spaces ", "untouched without markers");
    let code = "Here: [NEXT:sarah]\n```rust\nfn main() {\n    run();\n}\n```";
    assert_eq!(strip_markers(code), "Here:\n```rust\nfn main() {\n    run();\n}\n```", "indentation stays");
    assert_eq!(strip_markers("[NEXT:a]\n    indented"), "    indented");
    // Once: what a removal leaves that looks like a marker stays.
    assert_eq!(strip_markers("[NEXT[NEXT:a]:b]"), "[NEXT:b]");
    let (context, current) =
        context_for(&[said(1, "user", "[NEXT:max] [NEXT:sarah] Hi")], &said(2, "max", "Hello [NEXT:sarah]"), 5, 1000);
    assert_eq!(texts(&context), ["user: Hi"]);
    assert_eq!(current.text, "Hello");
}

#[test]
fn an_agent_sender_is_deduplicated_by_id_then_speaker_and_content() {
    let current = said(10, "max", "the plan is ready");
    // By id: a merge's copy of the current message.
    let copy = Said { copy_of: Some(MessageId(10)), ..said(4, "max", "the plan is ready (copy)") };
    // By speaker and content: max said the same words before.
    let repeat = said(5, "max", "the plan is ready [NEXT:sarah]");
    // Not across speakers: sarah said the same words.
    let other = said(6, "sarah", "the plan is ready");
    let (context, _) = context_for(&[copy, repeat, other.clone()], &current, 5, usize::MAX);
    assert_eq!(texts(&context), ["sarah: the plan is ready"]);
}

#[test]
fn the_users_messages_are_never_deduplicated() {
    let current = said(10, "user", "again please");
    let before = [said(3, "user", "again please"), said(4, "max", "done")];
    let (context, _) = context_for(&before, &current, 5, usize::MAX);
    assert_eq!(texts(&context), ["user: again please", "max: done"]);
}

#[test]
fn the_byte_budget_drops_the_oldest_context_first() {
    let before = [said(1, "user", &"a".repeat(100)), said(2, "max", &"b".repeat(100)), said(3, "sarah", "ccc")];
    let current = said(4, "user", "go");
    let (context, _) = context_for(&before, &current, 5, 110);
    assert_eq!(texts(&context), [format!("max: {}", "b".repeat(100)), "sarah: ccc".to_owned()]);
    let (none, _) = context_for(&before, &current, 5, 2);
    assert!(none.is_empty(), "nothing fits");
}

fn input<'a>(context: &'a [Said], message: &'a Said, instruction: &'a str, task: &'a str) -> MemberInput<'a> {
    MemberInput { instruction, instruction_file: Some("  From the file.  \n"), task, context, message }
}

#[test]
fn claude_gets_its_system_text_apart_and_bracketed_sections() {
    let context = [said(1, "user", "Hi")];
    let message = said(2, "max", "Hello");
    let a = assemble(&AgentType::ClaudeCode, &input(&context, &message, "  Be brief. ", "Ship v2"));
    assert_eq!(a.system.as_deref(), Some("Be brief.\n\nFrom the file."));
    assert_eq!(a.prompt, "[TEAM_TASK]\nShip v2\n\n[CONTEXT]\nuser: Hi\n\n[MESSAGE]\nmax: <untrusted source=\"team member max\">\nHello\n</untrusted>");
    assert_eq!(a.warning, None);
}

#[test]
fn codex_gets_everything_in_one_prompt() {
    let context = [said(1, "user", "Hi")];
    let message = said(2, "max", "Hello");
    let a = assemble(&AgentType::OpenaiCodex, &input(&context, &message, "Be brief.", "Ship v2"));
    assert_eq!(a.system, None);
    assert_eq!(
        a.prompt,
        "[SYSTEM]\nBe brief.\n\nFrom the file.\n\n[TEAM_TASK]\nShip v2\n\n[CONTEXT]\nuser: Hi\n\n[MESSAGE]\nmax: <untrusted source=\"team member max\">\nHello\n</untrusted>"
    );
}

#[test]
fn gemini_gets_plain_headings_without_brackets() {
    let context = [said(1, "user", "Hi")];
    let message = said(2, "max", "Hello");
    let a = assemble(&AgentType::GoogleGemini, &input(&context, &message, "Be brief.", "Ship v2"));
    assert_eq!(
        a.prompt,
        "Instructions:\nBe brief.\n\nFrom the file.\n\nTeam task:\nShip v2\n\nConversation so far:\nuser: Hi\n\nUser message:\nmax: <untrusted source=\"team member max\">\nHello\n</untrusted>"
    );
    assert!(!a.prompt.contains('['));
}

#[test]
fn empty_and_whitespace_sections_are_never_written() {
    let message = said(2, "user", "Hello");
    let bare = MemberInput {
        instruction: " \n\t",
        instruction_file: Some("   "),
        task: "  ",
        context: &[],
        message: &message,
    };
    let claude = assemble(&AgentType::ClaudeCode, &bare);
    assert_eq!((claude.system, claude.prompt.as_str()), (None, "[MESSAGE]\nuser: Hello"));
    assert_eq!(assemble(&AgentType::OpenaiCodex, &bare).prompt, "[MESSAGE]\nuser: Hello");
    assert_eq!(assemble(&AgentType::GoogleGemini, &bare).prompt, "User message:\nuser: Hello");
    let blank = said(3, "user", "   ");
    let nothing = MemberInput { message: &blank, ..bare };
    assert_eq!(assemble(&AgentType::ClaudeCode, &nothing).prompt, "", "not even an empty [MESSAGE]");
    let no_file = MemberInput { instruction: "Only this", instruction_file: None, ..bare };
    assert_eq!(assemble(&AgentType::ClaudeCode, &no_file).system.as_deref(), Some("Only this"));
}

#[test]
fn an_api_member_gets_a_system_prompt_and_the_talk() {
    let context = [said(1, "user", "Hi")];
    let message = said(2, "max", "Hello");
    let api = AgentType::Api { model: Some(ModelChoice { provider_id: "p".into(), model: "m".into() }) };
    let a = assemble(&api, &input(&context, &message, "Be brief.", "Ship v2"));
    assert_eq!(a.system.as_deref(), Some("Be brief.\n\nFrom the file.\n\nTeam task:\nShip v2"));
    assert_eq!(
        a.prompt,
        "Conversation so far:\nuser: Hi\n\nMessage:\nmax: <untrusted source=\"team member max\">\nHello\n</untrusted>"
    );
}

#[test]
fn an_unknown_agent_type_falls_back_to_plain_text_with_a_warning() {
    let context = [said(1, "user", "Hi")];
    let message = said(2, "max", "Hello");
    let other = AgentType::Other { name: "aider".into() };
    let a = assemble(&other, &input(&context, &message, "Be brief.", "Ship v2"));
    assert_eq!(a.prompt, "Be brief.\n\nFrom the file.\n\nShip v2\n\nuser: Hi\n\nmax: <untrusted source=\"team member max\">\nHello\n</untrusted>");
    assert!(a.warning.unwrap().contains("aider"));
}
