//! Braid's token counts against tiktoken's (tiktoken-rs, the reference) on
//! more than a megabyte of prose, code, CJK and emoji, for both encodings;
//! and the per-message accounting.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

#[path = "support/corpus.rs"]
mod corpus;

use braid_core::tokens::{count, message_tokens, tool_tokens, RunningCount, TokenEncoding, PER_MESSAGE};
use braid_protocol::{MessageType, Role};

#[test]
fn counts_equal_tiktoken_on_a_megabyte_corpus_for_both_encodings() {
    let docs = corpus::documents(1_100_000);
    let bytes: usize = docs.iter().map(String::len).sum();
    assert!(bytes >= 1_000_000, "{bytes}");
    let o200k = tiktoken_rs::o200k_base().unwrap();
    let cl100k = tiktoken_rs::cl100k_base().unwrap();
    let (mut total_o, mut total_c) = (0usize, 0usize);
    for (i, d) in docs.iter().enumerate() {
        let want_o = o200k.encode_ordinary(d).len();
        let want_c = cl100k.encode_ordinary(d).len();
        assert_eq!(count(TokenEncoding::O200k, d) as usize, want_o, "o200k, document {i}: {:?}", &d[..d.len().min(80)]);
        assert_eq!(
            count(TokenEncoding::Cl100k, d) as usize,
            want_c,
            "cl100k, document {i}: {:?}",
            &d[..d.len().min(80)]
        );
        total_o += want_o;
        total_c += want_c;
    }
    println!("{} documents, {bytes} bytes: o200k {total_o} tokens, cl100k {total_c} tokens", docs.len());
}

#[test]
fn edge_cases_match_too() {
    let o200k = tiktoken_rs::o200k_base().unwrap();
    for text in
        ["", " ", "\n\n\n", "a", "  leading", "trailing  ", "<|endoftext|>", "\u{feff}bom", "\r\n\r\n", "x\u{0}y"]
    {
        assert_eq!(count(TokenEncoding::O200k, text) as usize, o200k.encode_ordinary(text).len(), "{text:?}");
    }
}

#[test]
fn a_message_costs_its_text_plus_the_chat_overhead() {
    let body = MessageType::text(Role::User, "Hello, world!");
    assert_eq!(message_tokens(TokenEncoding::O200k, &body), count(TokenEncoding::O200k, "Hello, world!") + PER_MESSAGE);
    let control =
        MessageType::SystemControl { control: braid_protocol::ControlKind::ModeChange { mode: "plan".into() } };
    assert_eq!(message_tokens(TokenEncoding::O200k, &control), 0, "never sent");
}

#[test]
fn a_streamed_answer_is_counted_as_it_arrives_without_drifting() {
    let mut rng = corpus::Rng::new(7);
    for (i, doc) in corpus::documents(300_000).iter().enumerate() {
        for encoding in [TokenEncoding::O200k, TokenEncoding::Cl100k] {
            let mut running = RunningCount::default();
            let mut rest = doc.as_str();
            while !rest.is_empty() {
                // Chunks of 1 to 12 characters, as servers send them.
                let n = 1 + rng.below(12);
                let cut = rest.char_indices().nth(n).map_or(rest.len(), |(b, _)| b);
                running.push(encoding, &rest[..cut]);
                rest = &rest[cut..];
            }
            let exact = count(encoding, doc);
            assert_eq!(running.total(encoding), exact, "document {i} ({encoding:?}): {:?}", &doc[..doc.len().min(60)]);
        }
    }
}

/// SmolLM2-135M's own counts (llama-cpp-python's `/extras/tokenize/count`
/// on the test peer) for text in several scripts, each line repeated 20
/// times. The estimate for models without a public tokenizer must not run
/// short (the request would overflow the window), nor far over.
#[test]
fn the_estimate_never_runs_short_of_a_small_models_own_count() {
    let samples = [
        (
            "The lighthouse keeper climbed the stairs every evening, counting the steps as the sea grew dark below. ",
            381,
        ),
        ("fn main() {\n    let v: Vec<u32> = (0..10).map(|x| x * 2).collect();\n    println!(\"{:?}\", v);\n}\n", 940),
        ("Смотритель маяка каждый вечер поднимался по лестнице, считая ступени, пока море внизу темнело. ", 1362),
        ("灯塔看守人每天晚上爬楼梯，数着台阶，下面的大海渐渐变暗。", 1180),
        ("灯台守は毎晩階段を上り、下の海が暗くなるにつれて段数を数えた。", 1140),
        ("Ο φαροφύλακας ανέβαινε τις σκάλες κάθε βράδυ, μετρώντας τα σκαλιά. ", 1141),
        ("प्रकाशस्तंभ का रखवाला हर शाम सीढ़ियाँ चढ़ता था और सीढ़ियाँ गिनता था। ", 1581),
        ("Deploy done 🚀✅ tests green 🟢 coffee ☕ ", 341),
    ];
    // Not covered: Latin-script languages other than English are split
    // much finer by such tokenizers than o200k splits them (German: 621
    // o200k, 1,021 SmolLM2) and nothing in the letters says so; a model
    // that reports usage corrects the estimate after its first answer.
    for (line, model) in samples {
        let text = line.repeat(20);
        let ours = count(TokenEncoding::Estimate, &text);
        let o200k = count(TokenEncoding::O200k, &text);
        println!(
            "{:>5} estimated, {model:>5} by the model, {o200k:>5} o200k: {}",
            ours,
            line.chars().take(24).collect::<String>()
        );
        assert!(ours >= model, "{ours} < {model} for {line:?}");
        assert!(f64::from(ours) <= f64::from(model) * 1.8, "{ours} is far over {model} for {line:?}");
    }
}

/// A model without a tokenizer in Braid: its server is asked to count only
/// when the messages may take half the room beside the answer.
#[test]
fn the_model_counts_only_when_the_messages_fill_half_the_room() {
    use braid_core::fit::needs_model_counts;
    // "What is the capital of France?" in a 4,096-token window.
    assert!(!needs_model_counts(20, 4_096, 512));
    assert!(!needs_model_counts(1_791, 4_096, 512));
    assert!(needs_model_counts(1_792, 4_096, 512));
    assert!(needs_model_counts(9_000, 4_096, 512));
    // An answer as large as the window leaves no room: always counted.
    assert!(needs_model_counts(0, 4_096, 8_192));
}

#[test]
fn a_tool_definition_counts_the_same_when_remembered_and_anew_when_changed() {
    let tool = braid_core::sim::spec("read_file", braid_protocol::Permission::Read);
    let whole = |t: &braid_protocol::ToolSpec| {
        count(TokenEncoding::O200k, &t.name)
            + count(TokenEncoding::O200k, &t.description)
            + count(TokenEncoding::O200k, &t.input_schema.to_string())
    };
    let first = tool_tokens(TokenEncoding::O200k, &tool);
    assert_eq!(first, whole(&tool));
    assert_eq!(tool_tokens(TokenEncoding::O200k, &tool), first, "the second time, from memory");
    let mut longer = tool.clone();
    longer.description.push_str(" It also says how many lines the file has, and which lines were returned.");
    assert_eq!(tool_tokens(TokenEncoding::O200k, &longer), whole(&longer));
    assert!(tool_tokens(TokenEncoding::O200k, &longer) > first);
    assert_eq!(tool_tokens(TokenEncoding::Cl100k, &tool), {
        count(TokenEncoding::Cl100k, &tool.name)
            + count(TokenEncoding::Cl100k, &tool.description)
            + count(TokenEncoding::Cl100k, &tool.input_schema.to_string())
    });
}
