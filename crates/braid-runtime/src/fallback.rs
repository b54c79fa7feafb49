//! What answers when no provider is configured: the built-in model (a
//! GGUF run in-process), the built-in echo (demos, the browser tests), a
//! server given on the command line, or a test's scripted provider.

use braid_llm::local::OpenedModel;
use braid_llm::LlmProvider;
use braid_protocol::TokenEncoding;
use std::sync::Arc;
use std::time::Duration;

/// What answers when no provider is configured.
#[derive(Clone)]
pub struct Fallback {
    pub provider: Arc<dyn LlmProvider>,
    pub model: String,
    /// Shown in settings and in the context meter, e.g. "built-in echo".
    pub label: String,
    pub context_window: u32,
    pub max_output_tokens: u32,
    /// Whether it looks at images (tests with a seeing fake set this).
    pub vision: bool,
    /// Whether tools go with every turn by default.
    pub tools: bool,
    /// How its tokens are counted.
    pub encoding: TokenEncoding,
}

impl Fallback {
    /// The built-in echo model, answering at `delay` per word.
    pub fn builtin_echo(delay: Duration) -> Fallback {
        Fallback::echo(Arc::new(braid_llm::echo::EchoProvider::new(delay)))
    }

    /// A model server given on the command line, with what the catalogue
    /// (or the server) says of the model: its real window, output limit
    /// and whether it sees images.
    pub fn adhoc(provider: Arc<dyn LlmProvider>, label: String, info: &braid_llm::catalogue::ModelInfo) -> Fallback {
        Fallback {
            provider,
            label,
            model: info.id.clone(),
            context_window: info.context_window,
            max_output_tokens: info.max_output_tokens,
            vision: info.vision,
            tools: info.tools,
            encoding: info.tokenizer.into(),
        }
    }

    /// The built-in model (a GGUF run in-process), labelled as what it is.
    pub fn built_in(opened: OpenedModel) -> Fallback {
        Fallback {
            provider: opened.provider,
            model: opened.model,
            label: opened.label,
            context_window: opened.context_window,
            max_output_tokens: 1_024,
            vision: false,
            // A model on this machine is small: tools go with the messages
            // that call for them ("as needed"), not with every question.
            tools: false,
            encoding: TokenEncoding::Estimate,
        }
    }

    /// An echo-like provider (tests script their own) under the echo's name.
    pub fn echo(provider: Arc<dyn LlmProvider>) -> Fallback {
        Fallback {
            provider,
            model: "echo".to_owned(),
            label: "built-in echo".to_owned(),
            context_window: 8_192,
            max_output_tokens: 1_024,
            vision: false,
            tools: true,
            encoding: TokenEncoding::O200k,
        }
    }
}
