//! Counts by the model's own tokenizer for models Braid has none for. The
//! model's server is asked (once per message: the counts are kept) for the
//! messages of a prepared request, which then carries them; fitting uses
//! them instead of Braid's estimate. A server that cannot count leaves the
//! estimate in place. The server is asked only when the core says the
//! request is large enough for it to matter (`fit::needs_model_counts`).
//! The counts are kept in the store, per model, so a restart does not ask
//! again for every message of a long conversation.

use braid_core::tokens::{count, message_pieces};
use braid_llm::LlmProvider;
use braid_protocol::{Message, MessageId, TokenCount, TokenEncoding};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// One model's counts (per message: the length of the text counted — a
/// message read again, like an image's text, is counted again — and the
/// model's count).
#[derive(Default)]
pub struct Cache {
    model: Option<String>,
    known: HashMap<MessageId, (usize, u32)>,
}

pub type Counts = Arc<Mutex<Cache>>;

/// The cache holds `model`'s counts: those stored are read when it held
/// another model's (or none yet).
pub fn for_model(cache: &Counts, model: &str, stored: impl FnOnce() -> HashMap<MessageId, (usize, u32)>) {
    let mut c = cache.lock().unwrap_or_else(PoisonError::into_inner);
    if c.model.as_deref() != Some(model) {
        c.known = stored();
        c.model = Some(model.to_owned());
    }
}

/// Fills the counts the cache holds and estimates the others: whether every
/// message has the model's count, and the messages' tokens (counted where
/// known, estimated otherwise).
pub fn from_cache(cache: &Counts, messages: &mut [Message]) -> (bool, u64) {
    let known = &cache.lock().unwrap_or_else(PoisonError::into_inner).known;
    let (mut all, mut total) = (true, 0u64);
    for m in messages.iter_mut() {
        let Some((pieces, fixed)) = message_pieces(&m.body) else { continue };
        let len: usize = pieces.iter().map(|p| p.len()).sum();
        let n = match known.get(&m.id) {
            Some(&(l, n)) if l == len => {
                set(m, n);
                n
            }
            _ => {
                all = false;
                pieces.iter().map(|p| count(TokenEncoding::Estimate, p)).sum::<u32>() + fixed
            }
        };
        total += u64::from(n);
    }
    (all, total)
}

/// Fills the messages' counts from the cache and the server: whether every
/// message has the model's count, and the counts the server made now (to
/// be stored). `hide` makes each text what the model will read (its
/// secrets as placeholders) before it is sent.
pub async fn apply(
    provider: &dyn LlmProvider,
    model: &str,
    cache: &Counts,
    messages: &mut [Message],
    hide: impl Fn(&mut String),
) -> (bool, Vec<(MessageId, usize, u32)>) {
    let mut missing: Vec<(usize, usize, u32)> = Vec::new(); // (index, text length, fixed cost)
    let mut texts: Vec<String> = Vec::new();
    let mut spans: Vec<std::ops::Range<usize>> = Vec::new();
    {
        let known = &cache.lock().unwrap_or_else(PoisonError::into_inner).known;
        for (i, m) in messages.iter_mut().enumerate() {
            let Some((pieces, fixed)) = message_pieces(&m.body) else { continue };
            let len: usize = pieces.iter().map(|p| p.len()).sum();
            match known.get(&m.id) {
                Some(&(l, n)) if l == len => set(m, n),
                _ => {
                    let start = texts.len();
                    texts.extend(pieces.iter().map(|p| {
                        let mut text = p.to_string();
                        hide(&mut text);
                        text
                    }));
                    spans.push(start..texts.len());
                    missing.push((i, len, fixed));
                }
            }
        }
    }
    if missing.is_empty() {
        return (true, Vec::new());
    }
    let Some(counts) = provider.count_tokens(model, texts).await else { return (false, Vec::new()) };
    let mut cache = cache.lock().unwrap_or_else(PoisonError::into_inner);
    let mut made = Vec::with_capacity(missing.len());
    for ((i, len, fixed), span) in missing.into_iter().zip(spans) {
        let n = counts[span].iter().sum::<u32>() + fixed;
        // Counts of another model (the conversation's changed meanwhile)
        // are stored under their own model, not kept here.
        if cache.model.as_deref() == Some(model) {
            cache.known.insert(messages[i].id, (len, n));
        }
        made.push((messages[i].id, len, n));
        set(&mut messages[i], n);
    }
    (true, made)
}

fn set(m: &mut Message, count: u32) {
    // Under the estimate's name: fitting takes counts in the encoding in
    // use, and the request says they are the model's own.
    m.meta.tokens = Some(TokenCount { encoding: TokenEncoding::Estimate, count });
}
