//! Export and import, pure: the JSON document round-trips every branch
//! and message; a file that is not a Braid conversation, of another
//! version, inconsistent, or missing an image's bytes is refused with its
//! reason; Markdown reads as the conversation did.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::conversation::Conversation;
use braid_core::transfer::{self, Branches, ExportedImage, Header};
use braid_protocol::{
    Approval, BranchId, ImageMode, ImageSource, Message, MessageId, MessageType, Role, StoredImage, Timestamp,
    ToolCall, ToolResultStatus,
};

fn m(id: u64, body: MessageType) -> Message {
    Message::new(MessageId(id), Timestamp(id), body)
}

fn header() -> Header {
    Header {
        title: "Fix the parser".into(),
        working_dir: "/home/me/parser".into(),
        created_at: Timestamp(1),
        updated_at: Timestamp(9),
        model: None,
    }
}

/// main: question, tool call and result, answer, an image; "alt" forks
/// after the question with another answer.
fn conversation() -> Conversation {
    let mut c = Conversation::new(Timestamp(0));
    let call = ToolCall {
        id: "c1".into(),
        name: "read_file".into(),
        arguments: r#"{"path":"a.rs"}"#.into(),
        approval: Approval::Approved,
    };
    c.append(m(1, MessageType::text(Role::User, "Why does parsing fail?"))).unwrap();
    c.append(m(2, MessageType::ToolRequest { text: Some("Let me look.".into()), calls: vec![call] })).unwrap();
    let result = MessageType::ToolResult {
        request_id: "c1".into(),
        status: ToolResultStatus::Success,
        output: "fn main() { let x = ```; }".into(),
        error: None,
        recoverable: false,
        duration_ms: 3,
        finished_at: Timestamp(3),
    };
    c.append(m(3, result)).unwrap();
    c.append(m(4, MessageType::text(Role::Assistant, "A missing semicolon."))).unwrap();
    let image = StoredImage {
        id: "ab".repeat(32),
        media_type: "image/png".into(),
        width: 2,
        height: 2,
        bytes: 70,
        name: Some("trace.png".into()),
    };
    let image = MessageType::Image {
        source: ImageSource::Stored(image),
        mode: ImageMode::Ocr,
        vision_analysis: None,
        recognized_text: Some("error at line 42".into()),
        ocr_confidence: Some(0.9),
        language: None,
        error: None,
        used: None,
        fallback: None,
    };
    c.append(m(5, image)).unwrap();
    let alt = c.fork(&BranchId::main(), MessageId(1), "alt", None, Timestamp(6)).unwrap();
    let alt_id = alt.id.clone();
    c.add_branch(alt).unwrap();
    c.set_active(&alt_id).unwrap();
    c.append(m(6, MessageType::text(Role::Assistant, "Perhaps the grammar."))).unwrap();
    c.set_active(&BranchId::main()).unwrap();
    c
}

fn image() -> ExportedImage {
    ExportedImage { id: "ab".repeat(32), data: "iVBORw0KGgo=".into() }
}

#[test]
fn an_export_reads_back_as_the_same_conversation_with_its_branches_and_images() {
    let c = conversation();
    assert_eq!(transfer::image_ids(&c).into_iter().collect::<Vec<_>>(), ["ab".repeat(32)]);
    let doc = transfer::export(header(), &c, vec![image()]);
    let text = serde_json::to_string(&doc).unwrap();
    let (h, back, images) = transfer::read(&text).unwrap();
    assert_eq!(back, c, "every branch and message, as they were");
    assert_eq!(h, header());
    assert_eq!(images, [image()]);
    assert!(text.contains("\"format\":\"braid.conversation\"") && text.contains("\"version\":1"));
}

#[test]
fn a_bad_file_is_refused_with_its_reason() {
    let c = conversation();
    let good = serde_json::to_value(transfer::export(header(), &c, vec![image()])).unwrap();
    let with = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut v = good.clone();
        f(&mut v);
        transfer::read(&v.to_string()).expect_err("refused")
    };
    assert!(transfer::read("{not json").unwrap_err().starts_with("the file is not JSON"));
    assert!(with(&|v| v["format"] = "chatgpt".into()).contains("a \"chatgpt\" export, not a Braid conversation"));
    assert!(with(&|v| drop(v.as_object_mut().unwrap().remove("format"))).contains("no \"format\" field"));
    assert!(with(&|v| v["version"] = 2.into()).contains("version 2; this Braid reads version 1"));
    assert!(with(&|v| v["messages"] = "many".into()).contains("not a valid Braid conversation"));
    assert!(with(&|v| v["branches"] = serde_json::json!([])).contains("no branches"));
    // A branch naming a message the file does not hold.
    let broken = with(&|v| v["messages"].as_array_mut().unwrap().retain(|m| m["id"] != 4));
    assert!(broken.contains("inconsistent"), "{broken}");
    let lost = with(&|v| v["images"] = serde_json::json!([]));
    assert!(lost.contains("lacks the data of 1 image(s)"), "{lost}");
}

#[test]
fn markdown_shows_the_active_branch_or_every_branch_from_its_fork() {
    let c = conversation();
    let active = transfer::markdown("Fix the parser", &c, Branches::Active);
    assert!(active.starts_with("# Fix the parser\n\n_Branch main_\n"), "{active}");
    for part in [
        "**User:**\n\nWhy does parsing fail?",
        "**Assistant:**\n\nLet me look.",
        "**Tool call** `read_file`\n\n```json\n{\"path\":\"a.rs\"}\n```",
        "**Tool result** (done)\n\n````\nfn main() { let x = ```; }\n````",
        "**Image** trace.png\n\n```\nerror at line 42\n```",
        "**Assistant:**\n\nA missing semicolon.",
    ] {
        assert!(active.contains(part), "{part:?} in\n{active}");
    }
    assert!(!active.contains("Perhaps the grammar"));

    let all = transfer::markdown("Fix the parser", &c, Branches::All);
    let main = all.find("## Branch main · active\n").expect("main, first");
    let alt = all.find("## Branch alt (from main after message 1)\n").expect("alt, from its fork");
    assert!(main < alt);
    assert_eq!(all.matches("Why does parsing fail?").count(), 1, "the shared question once");
    assert!(all[alt..].contains("Perhaps the grammar."));
}

#[test]
fn a_team_members_answer_keeps_its_author_through_export() {
    let mut c = Conversation::new(Timestamp(0));
    c.append(m(1, MessageType::text(Role::User, "[NEXT:max] Hi"))).unwrap();
    let mut answer = m(2, MessageType::text(Role::Assistant, "Max here."));
    answer.meta.author = Some("max".into());
    c.append(answer).unwrap();
    let md = transfer::markdown("Team", &c, Branches::Active);
    assert!(md.contains("**max:**\n\nMax here."), "{md}");
    let json = serde_json::to_string(&transfer::export(header(), &c, Vec::new())).unwrap();
    let (_, back, _) = transfer::read(&json).unwrap();
    assert_eq!(back.message(MessageId(2)).unwrap().meta.author.as_deref(), Some("max"));
}

const CLAUDE_CODE: &str = include_str!("../../../../tests/fixtures/import/claude-code-session.jsonl");
const CHATGPT: &str = include_str!("../../../../tests/fixtures/import/chatgpt-conversations.json");

/// The active branch as (kind, text) pairs, for comparing at a glance.
fn outline(c: &Conversation, branch: &BranchId) -> Vec<(String, String)> {
    c.messages(branch)
        .map(|m| match &m.body {
            MessageType::Text { role, .. } => (format!("{role:?}"), m.body.plain_text().unwrap_or_default()),
            MessageType::ToolRequest { text, calls } => {
                let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
                (format!("call {}", names.join(",")), text.clone().unwrap_or_default())
            }
            MessageType::ToolResult { status, output, .. } => (format!("result {status:?}"), output.clone()),
            other => (other.kind().tag().to_owned(), String::new()),
        })
        .collect()
}

#[test]
fn a_claude_code_session_comes_in_as_its_conversation_with_tool_calls_paired() {
    let mut all = transfer::read_any(CLAUDE_CODE).unwrap();
    assert_eq!(all.len(), 1);
    let (header, c, images) = all.remove(0);
    assert!(images.is_empty());
    assert_eq!(header.title, "Why does the parser test fail?");
    assert_eq!(header.working_dir, "/home/me/parser");
    assert_eq!(header.created_at, Timestamp(1_748_890_019_937));
    let got = outline(&c, &BranchId::main());
    let want: Vec<(String, String)> = [
        ("User", "Why does the parser test fail?"),
        // Three streamed lines (thinking, text, tool use) are one message.
        ("call Read", "Let me read the test."),
        ("result Success", "     1\tassert_eq!(parse(\"1+\"), Err(Eof));"),
        ("call Bash", "The test expects Eof; the parser returns Unexpected."),
        ("result Error", "test parse ... FAILED"),
        ("call Edit", "Confirmed: return Eof at the end of input."),
        // The session ended before the edit's result: marked, not lost.
        ("result Cancelled", ""),
    ]
    .iter()
    .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
    .collect();
    assert_eq!(got, want, "side chains and meta lines are left out");
    braid_core::invariants::check_tool_pairing(&c, &BranchId::main()).unwrap();
}

#[test]
fn a_chatgpt_export_comes_in_as_its_conversations_with_regenerations_as_branches() {
    let all = transfer::read_any(CHATGPT).unwrap();
    assert_eq!(all.len(), 2);
    let (header, c, _) = &all[0];
    assert_eq!(header.title, "Sourdough schedule");
    assert_eq!(header.created_at, Timestamp(1_717_000_000_500));
    let main: Vec<String> = outline(c, &BranchId::main()).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        main,
        [
            "When should I feed my starter?",
            "Twice a day, when it has peaked.",
            "[an image, not imported]\n\nIs this one ready?",
            "Yes: it has doubled and is domed."
        ],
        "main is the path the user was on"
    );
    let other = c.branches().find(|b| b.id != BranchId::main()).expect("the other answer is a branch");
    assert_eq!(other.name, "ChatGPT 2");
    let texts: Vec<String> = outline(c, &other.id).into_iter().map(|(_, t)| t).collect();
    assert_eq!(texts, ["When should I feed my starter?", "Every 12 hours at room temperature."]);
    assert_eq!(all[1].0.title, "Convert 3 cups of flour to grams", "untitled: named after its first question");
}

#[test]
fn a_file_braid_does_not_know_is_refused_naming_what_it_imports() {
    for text in ["", "{\"hello\": 1}", "[1, 2]", "not json at all"] {
        let err = transfer::read_any(text).expect_err(text);
        assert!(err.contains("Claude Code session") && err.contains("conversations.json"), "{text:?}: {err}");
    }
    let broken = CLAUDE_CODE.replace(
        "\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"Why",
        "\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"Why\"",
    );
    assert!(transfer::read_any(&broken).unwrap_err().contains("is not JSON"));
}
