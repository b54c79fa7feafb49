//! Token counting: o200k for current OpenAI models, cl100k for older ones,
//! and an estimate for models without a public tokenizer (o200k, scaled by
//! what the provider reported against what we counted). Pure: the encoders
//! are data compiled into the binary and deserialised on first use (the
//! runtime warms them up off the UI's path).

use braid_protocol::{ContentPart, MessageType};

pub use braid_protocol::TokenEncoding;

/// Tokens of `text` (no special tokens).
pub fn count(encoding: TokenEncoding, text: &str) -> u32 {
    if text.is_empty() {
        return 0;
    }
    let n = match encoding {
        TokenEncoding::Cl100k => bpe_openai::cl100k_base().count(text),
        TokenEncoding::O200k => bpe_openai::o200k_base().count(text),
        TokenEncoding::Estimate => return estimate(text),
    };
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// For a tokenizer Braid does not have: on the high side, by script. The
/// ASCII part is o200k's count plus a tenth (small open models split
/// English a little finer) and a token per indenting space
/// (they split runs of spaces that o200k keeps whole); every other
/// character costs what such tokenizers spend on its script, which
/// o200k's multilingual vocabulary hides (900 Russian words: o200k 1,878
/// tokens, SmolLM2 5,051).
fn estimate(text: &str) -> u32 {
    let o200k = |t: &str| bpe_openai::o200k_base().count(t) as u64;
    let (mut tenths, mut prev) = (0u64, '\n');
    for c in text.chars() {
        if (c == ' ' || c == '\t') && matches!(prev, ' ' | '\t' | '\n') {
            tenths += 10;
        } else if !c.is_ascii() {
            tenths += script_tenths(c);
        }
        prev = c;
    }
    let ascii_tokens = if text.is_ascii() {
        o200k(text)
    } else {
        o200k(&text.chars().map(|c| if c.is_ascii() { c } else { ' ' }).collect::<String>())
    };
    u32::try_from((ascii_tokens * 11 + tenths).div_ceil(10)).unwrap_or(u32::MAX)
}

/// Tenths of a token per character of a script, for tokenizers trained
/// mostly on English: at worst one token per UTF-8 byte.
fn script_tenths(c: char) -> u64 {
    match c {
        '\u{00A0}'..='\u{024F}' => 7,                            // accented Latin
        '\u{0370}'..='\u{06FF}' => 10,                           // Greek, Cyrillic, Armenian, Hebrew, Arabic
        '\u{0900}'..='\u{0DFF}' | '\u{0E00}'..='\u{0EFF}' => 15, // Indic scripts, Thai, Lao
        '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}' | '\u{F900}'..='\u{FAFF}' => 20, // kana, CJK, Hangul
        _ => 10 * c.len_utf8() as u64, // emoji, symbols: byte by byte
    }
}

/// Loads the encoder's tables now rather than on the first count.
pub fn warm_up(encoding: TokenEncoding) {
    count(encoding, "warm up");
}

/// What every message costs in the chat format besides its text (role and
/// separators: `<|start|>role<|message|>…<|end|>`).
pub const PER_MESSAGE: u32 = 4;

/// The tokens a message costs as it is sent: its text, tool calls (name and
/// arguments), tool results, plus the per-message overhead. Messages that
/// are never sent (system controls) cost nothing.
pub fn message_tokens(encoding: TokenEncoding, body: &MessageType) -> u32 {
    message_pieces(body).map_or(0, |(pieces, fixed)| pieces.iter().map(|t| count(encoding, t)).sum::<u32>() + fixed)
}

/// The texts of a message as they are counted, and what it costs besides
/// them (the per-message overhead, a tool call's framing, an image's own
/// price); `None` for a message that is never sent. A server that counts
/// with the model's tokenizer counts the same pieces.
pub fn message_pieces(body: &MessageType) -> Option<(Vec<std::borrow::Cow<'_, str>>, u32)> {
    use std::borrow::Cow;
    let mut pieces: Vec<Cow<'_, str>> = Vec::new();
    let mut fixed = PER_MESSAGE;
    match body {
        MessageType::Text { parts, .. } => pieces.extend(parts.iter().map(|p| match p {
            ContentPart::Text { text } => Cow::Borrowed(text.as_str()),
        })),
        MessageType::ToolRequest { text, calls } => {
            pieces.extend(text.as_deref().map(Cow::Borrowed));
            for k in calls {
                pieces.extend([Cow::Borrowed(k.name.as_str()), Cow::Borrowed(k.arguments.as_str())]);
                fixed += 3;
            }
        }
        MessageType::ToolResult { output, error, .. } => {
            pieces.push(Cow::Borrowed(output));
            pieces.extend(error.as_deref().map(Cow::Borrowed));
        }
        MessageType::FileReference { path, content, .. } => {
            pieces.push(Cow::Borrowed(path));
            pieces.extend(content.as_deref().map(Cow::Borrowed));
        }
        // As a model that does not see it gets it: what was read from it,
        // with its label (one that sees is priced by its pixels,
        // `vision::pixel_tokens`).
        MessageType::Image { .. } => pieces.extend(crate::vision::image_as_text(body).map(Cow::Owned)),
        MessageType::McpResource { content, .. } => pieces.push(Cow::Borrowed(content)),
        MessageType::SystemControl { .. } | MessageType::Unknown { .. } => return None,
    }
    pieces.retain(|p| !p.is_empty());
    Some((pieces, fixed))
}

/// Counts a streamed answer as it arrives without recounting it: text up
/// to the last point where the encoders always split (a space before a
/// letter, or a line break before a non-space) is counted once and kept
/// as a number; only the tail after it is counted again with each chunk.
#[derive(Debug, Clone, Default)]
pub struct RunningCount {
    committed: u32,
    tail: String,
}

impl RunningCount {
    pub fn push(&mut self, encoding: TokenEncoding, delta: &str) -> u32 {
        self.tail.push_str(delta);
        if let Some(cut) = last_split(&self.tail) {
            self.committed += count(encoding, &self.tail[..cut]);
            self.tail.drain(..cut);
        }
        self.total(encoding)
    }

    pub fn total(&self, encoding: TokenEncoding) -> u32 {
        self.committed + count(encoding, &self.tail)
    }
}

/// The last byte index (> 0) where a pre-token surely starts.
fn last_split(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    (1..b.len().saturating_sub(1)).rev().find(|&i| {
        let (prev, here, next) = (b[i - 1], b[i], b[i + 1]);
        (here == b' ' && prev != b' ' && prev != b'\n' && next.is_ascii_alphabetic())
            || (prev == b'\n' && !here.is_ascii_whitespace() && here.is_ascii_alphanumeric())
    })
}

/// What one tool definition costs as the provider sees it: the name, the
/// description and the schema. Remembered per definition: the same
/// catalogue goes with every request, and counting its schemas again was
/// about a millisecond of every request's way to the model. (A remembered
/// result of a pure function: nothing outside the count changes it.)
pub fn tool_tokens(encoding: TokenEncoding, tool: &braid_protocol::ToolSpec) -> u32 {
    use std::collections::HashMap;
    use std::hash::BuildHasher;
    use std::sync::{LazyLock, Mutex, PoisonError};
    // Keyed by a hash of the whole definition: a changed description or
    // schema is a new entry. Bounded: MCP servers come and go.
    static COUNTED: LazyLock<(std::hash::RandomState, Mutex<HashMap<u64, u32>>)> = LazyLock::new(Default::default);
    const MOST: usize = 4_096;
    let schema = tool.input_schema.to_string();
    let key = COUNTED.0.hash_one((encoding, &tool.name, &tool.description, &schema));
    let known = COUNTED.1.lock().unwrap_or_else(PoisonError::into_inner).get(&key).copied();
    if let Some(n) = known {
        return n;
    }
    let n = count(encoding, &tool.name) + count(encoding, &tool.description) + count(encoding, &schema);
    let mut counted = COUNTED.1.lock().unwrap_or_else(PoisonError::into_inner);
    if counted.len() >= MOST {
        counted.clear();
    }
    counted.insert(key, n);
    n
}
