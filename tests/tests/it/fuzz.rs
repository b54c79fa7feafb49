//! Arbitrary bytes into every parser of outside bytes (issue #65): GGUF
//! headers, each provider's stream, the MCP stdio transport's lines and
//! its stderr, the importers, the settings files and images. As
//! property tests: cargo-fuzz needs a nightly toolchain and sanitizers
//! `make test` does not have, so proptest feeds the same parsers here, a
//! short bounded run each (256 cases, seconds) in every `make test`. The
//! corpus is the real files beside (`tests/fixtures/import`, the starter
//! model's header, `braid_local::crafted`), mutated: bytes flipped, cut,
//! repeated. A long run: `PROPTEST_CASES=50000 cargo test --workspace
//! --locked --test it fuzz` (the workspace's features, as `make test`
//! builds; docs/PERFORMANCE.md has the figures).
//! Each parser must answer in words or with nothing, never panic, and hold
//! no more than its limits; any crash found becomes a case below.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_local::crafted;
use braid_local::gguf::Shape;
use braid_protocol::ProviderKind;
use proptest::prelude::*;
use std::path::Path;

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/import").join(name)).unwrap()
}

/// `seed` changed as a fuzzer would: bytes overwritten, a cut, a piece
/// repeated.
fn mutated(seed: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let len = seed.len().max(1);
    (proptest::collection::vec((0..len, any::<u8>()), 0..8), 0..=len, 0..len, 0usize..4).prop_map(
        move |(flips, cut, from, times)| {
            let mut bytes = seed.clone();
            for (at, b) in flips {
                if at < bytes.len() {
                    bytes[at] = b;
                }
            }
            bytes.truncate(cut);
            let piece: Vec<u8> = bytes.get(from..).unwrap_or(&[]).iter().take(64).copied().collect();
            for _ in 0..times {
                bytes.extend_from_slice(&piece);
            }
            bytes
        },
    )
}

/// A whole answer in the family's own stream format.
fn answer(kind: ProviderKind) -> Vec<u8> {
    braid_testkit::sse::answer(kind, "one two three").concat().into_bytes()
}

/// The starter model's first 64 KB: a real header's beginning.
fn starter_head() -> Vec<u8> {
    let mut bytes = std::fs::read(braid_testkit::local::starter_model()).unwrap();
    bytes.truncate(64 << 10);
    bytes
}

proptest! {
    #[test]
    fn gguf_headers_never_panic(bytes in prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..512),
        mutated(crafted::readable()),
        mutated(starter_head()),
    ]) {
        let _ = Shape::from_prefix(&bytes, bytes.len() as u64);
        let _ = Shape::from_prefix(&bytes, u64::MAX);
    }

    #[test]
    fn provider_streams_never_panic(
        bytes in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..2048),
            mutated(answer(ProviderKind::OpenAiCompatible)),
            mutated(answer(ProviderKind::Anthropic)),
            mutated(answer(ProviderKind::Gemini)),
        ],
        cuts in proptest::collection::vec(0usize..2048, 0..6),
    ) {
        for kind in [ProviderKind::OpenAiCompatible, ProviderKind::Anthropic, ProviderKind::Gemini] {
            let mut decoder = braid_llm::http::BodyDecoder::new(kind, "fuzz");
            let mut out = Vec::new();
            // Cut anywhere, as the network cuts.
            let mut at = 0;
            let mut cuts = cuts.clone();
            cuts.sort_unstable();
            for cut in cuts.into_iter().chain([bytes.len()]) {
                let cut = cut.min(bytes.len()).max(at);
                if decoder.push(&bytes[at..cut], &mut out).is_err() {
                    break;
                }
                at = cut;
            }
            let _ = decoder.finish(&mut out);
        }
    }

    #[test]
    fn imports_never_panic(bytes in prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..1024),
        mutated(fixture("chatgpt-conversations.json")),
        mutated(fixture("claude-code-session.jsonl")),
    ]) {
        let _ = braid_core::transfer::read_any(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn settings_files_never_panic(bytes in prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..512),
        mutated(br#"{"providers":[{"id":"a","kind":"open_ai_compatible","name":"A","base_url":"http://127.0.0.1:1/v1","default_model":"m"}],"default_provider":"a"}"#.to_vec()),
    ]) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("settings.json"), &bytes).unwrap();
        let secrets = braid_llm::secrets::Secrets::file_only(dir.path());
        let _ = braid_runtime::providers::Providers::from_settings(dir.path().join("settings.json"), secrets);
    }
}

/// What an MCP server writes on stdout: an answer to `initialize`, a
/// notice, an answer to `tools/list`, one JSON-RPC message a line.
fn mcp_lines() -> Vec<u8> {
    concat!(
        r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"fuzz","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}}"#,
        "\n",
    )
    .as_bytes()
    .to_vec()
}

proptest! {
    /// The stdio transport's line reader (rmcp's framing with Braid's
    /// limit and watch): whatever the server writes, every message is
    /// read or refused and the stream ends when the server's output does.
    #[test]
    fn mcp_stdio_lines_never_panic(bytes in prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..1024),
        mutated(mcp_lines()),
    ], limit in 16usize..4096) {
        use rmcp::transport::Transport;
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let (mut server, client) = tokio::io::duplex(1 << 16);
            let (read, write) = tokio::io::split(client);
            let (mut transport, _said) = braid_tools::mcp::stdio::framed(read, write, limit);
            tokio::io::AsyncWriteExt::write_all(&mut server, &bytes).await.unwrap();
            drop(server);
            let read_all = async { while transport.receive().await.is_some() {} };
            tokio::time::timeout(std::time::Duration::from_secs(10), read_all).await.expect("the reader ended with the stream");
        });
    }

    /// A server's stderr, cut anywhere: lines come out whole, none longer
    /// than the limit, however long the server's.
    #[test]
    fn mcp_stderr_lines_stay_bounded(bytes in proptest::collection::vec(any::<u8>(), 0..8192), cuts in proptest::collection::vec(0usize..8192, 0..6)) {
        use braid_tools::mcp::stdio::{StderrLines, MAX_STDERR_LINE};
        let mut lines = StderrLines::default();
        let mut out = Vec::new();
        let (mut at, mut cuts) = (0, cuts);
        cuts.sort_unstable();
        for cut in cuts.into_iter().chain([bytes.len()]) {
            let cut = cut.min(bytes.len()).max(at);
            out.extend(lines.feed(&bytes[at..cut]));
            at = cut;
        }
        prop_assert_eq!(out.len(), bytes.iter().filter(|b| **b == b'\n').count());
        out.extend(lines.end());
        // A kept line is the limit's bytes, then "…"; U+FFFD stands for
        // each invalid byte (3 bytes of text for one read).
        prop_assert!(out.iter().all(|l| l.chars().count() <= MAX_STDERR_LINE + 1));
    }
}

/// A small PNG, as a screenshot or a photo arrives.
fn small_png() -> Vec<u8> {
    let img = image::RgbImage::from_fn(16, 12, |x, y| image::Rgb([(x * 15) as u8, (y * 20) as u8, 90]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

proptest! {
    /// Images attached or returned by a tool: decoded within their limits
    /// (side, allocation) or refused in words.
    #[test]
    fn images_never_panic(bytes in prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..512),
        mutated(small_png()),
    ]) {
        let _ = braid_vision::decode(&bytes);
        let _ = braid_vision::prepare(&bytes, braid_core::vision::limits_for(ProviderKind::Anthropic));
    }
}

/// Depth: JSON nested 100,000 deep is refused in words (serde_json's
/// limit of 128), not a stack overflow.
#[test]
fn deeply_nested_imports_are_refused() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(braid_core::transfer::read_any(&deep).is_err());
    let deep = format!("{}{}", "{\"a\":".repeat(100_000), "}".repeat(100_000));
    assert!(braid_core::transfer::read_any(&deep).is_err());
}

/// Length: a stream that sends one line without end is refused once it
/// passes the limit, holding no more than that.
#[test]
fn an_endless_stream_line_is_refused_at_its_limit() {
    let mut decoder = braid_llm::http::BodyDecoder::new(ProviderKind::OpenAiCompatible, "fuzz");
    let mut out = Vec::new();
    let piece = vec![b'x'; 1 << 20];
    let mut sent = 0;
    let error = loop {
        match decoder.push(&piece, &mut out) {
            Ok(()) => sent += piece.len(),
            Err(e) => break e.to_string(),
        }
        assert!(sent <= braid_llm::sse::MAX_EVENT, "still held past the limit");
    };
    assert!(error.contains("longer than 16 MB"), "{error}");
}
