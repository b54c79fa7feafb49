//! A provider whose server counts tokens, as a local server does (for
//! models Braid has no tokenizer for): the fake provider's answers, a
//! count of about a token per four bytes, and every text it was asked to
//! count kept in order.

use braid_llm::fake::FakeProvider;
use std::sync::{Arc, Mutex};

pub struct Counting {
    pub inner: FakeProvider,
    pub counted: Mutex<Vec<String>>,
}

impl Counting {
    pub fn new(inner: FakeProvider) -> Arc<Counting> {
        Arc::new(Counting { inner, counted: Mutex::default() })
    }

    /// The texts it was asked to count so far.
    pub fn counted(&self) -> Vec<String> {
        self.counted.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

impl braid_llm::LlmProvider for Counting {
    fn name(&self) -> &str {
        self.inner.name()
    }
    fn stream(&self, request: braid_llm::LlmRequest) -> braid_llm::LlmStream {
        self.inner.stream(request)
    }
    fn count_tokens(&self, _model: &str, texts: Vec<String>) -> futures::future::BoxFuture<'static, Option<Vec<u32>>> {
        let counts = texts.iter().map(|t| t.len() as u32 / 4 + 1).collect();
        self.counted.lock().unwrap_or_else(std::sync::PoisonError::into_inner).extend(texts);
        Box::pin(async move { Some(counts) })
    }
}

/// The fallback model answering through `provider` with a window of
/// `window` and no tokenizer Braid has: its server is asked to count.
pub fn no_tokenizer(provider: Arc<Counting>, window: u32) -> braid_runtime::Fallback {
    braid_runtime::Fallback {
        provider,
        model: "no-tokenizer-here".into(),
        label: "local".into(),
        context_window: window,
        max_output_tokens: 64,
        vision: false,
        tools: true,
        encoding: braid_protocol::TokenEncoding::Estimate,
    }
}
