//! One generation on the model's worker thread: the model's chat template
//! renders the turns, the part of the prompt the kept context does not
//! already hold is decoded in batches, tokens are sampled (under a grammar
//! when a tool call is required) and each piece goes out as a provider
//! event at once. The receiver going away (Cancel) stops it at the next
//! token.

use crate::chat::{self, Turn};
use braid_core::llm::{StopReason, Usage};
use braid_llm::{LlmError, LlmRequest, ProviderEvent};
use braid_protocol::LocalModelSettings;
use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use std::num::NonZeroU32;
use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

pub type Events = mpsc::Sender<Result<ProviderEvent, LlmError>>;

/// The answer's length when the request sets none.
const DEFAULT_MAX_TOKENS: u32 = 1024;
/// Prompt tokens decoded at once, at most.
const BATCH: usize = 512;
/// The first chunk of a prompt; the next ones are sized by its pace.
const FIRST_CHUNK: usize = 32;
/// About how long a chunk of the prompt takes: a Cancel waits at most this
/// long while a big model reads a long prompt.
const CHUNK_TIME: Duration = Duration::from_millis(100);

/// llama.cpp's backend, started once for the process (it may not be
/// started twice), its logs sent to tracing rather than stderr.
fn backend() -> Result<&'static LlamaBackend, LlmError> {
    static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    BACKEND
        .get_or_init(|| {
            llama_cpp_2::send_logs_to_tracing(llama_cpp_2::LogOptions::default());
            LlamaBackend::init().map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| failed(format!("llama.cpp did not start: {e}")))
}

/// Whether this build offloads to a GPU: built with a GPU backend (the
/// `vulkan` or `cuda` feature) and a device found.
pub fn gpu_offload() -> bool {
    backend().is_ok_and(|b| b.supports_gpu_offload())
}

pub fn failed(message: String) -> LlmError {
    LlmError::Local { message }
}

/// A model loaded from its GGUF file, with its chat template.
pub struct Loaded {
    pub model: LlamaModel,
    template: Option<LlamaChatTemplate>,
}

impl Loaded {
    /// Loads the file with `gpu_layers` of its layers on the GPU (none
    /// where the build has no GPU backend).
    pub fn load(path: &Path, gpu_layers: u32) -> Result<Loaded, LlmError> {
        let backend = backend()?;
        if !path.is_file() {
            return Err(failed(format!("the model file {} does not exist", path.display())));
        }
        let gpu_layers = if backend.supports_gpu_offload() { gpu_layers } else { 0 };
        let params = LlamaModelParams::default().with_n_gpu_layers(gpu_layers);
        let model = LlamaModel::load_from_file(backend, path, &params)
            .map_err(|e| failed(format!("could not load {}: {e}", path.display())))?;
        let template = model.chat_template(None).ok();
        Ok(Loaded { model, template })
    }

    /// Tokens of `text` as this model counts them.
    pub fn count(&self, text: &str) -> u32 {
        self.model.vocab().tokenize(text.as_bytes(), false, true).len() as u32
    }

    /// The prompt: the turns in the model's own template, ready for the
    /// assistant's answer (ChatML when the file carries no template).
    fn prompt(&self, turns: &[Turn]) -> Result<String, LlmError> {
        let chatml = || {
            let mut p: String = turns.iter().map(|(r, t)| format!("<|im_start|>{r}\n{t}<|im_end|>\n")).collect();
            p.push_str("<|im_start|>assistant\n");
            p
        };
        let Some(template) = &self.template else { return Ok(chatml()) };
        let messages = turns
            .iter()
            .map(|(role, text)| LlamaChatMessage::new((*role).to_owned(), text.replace('\0', "")))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| failed(format!("a message could not be prepared: {e}")))?;
        Ok(self.model.apply_chat_template(template, &messages, true).unwrap_or_else(|_| chatml()))
    }
}

/// A context kept between answers with what its cache holds: the next
/// answer decodes only what follows the prefix it shares (the system turn
/// and the conversation so far), not the whole prompt again.
pub struct Session<'m> {
    ctx: LlamaContext<'m>,
    cached: Vec<LlamaToken>,
}

/// Runs `request` to its end (or until `tx` is dropped), sending every
/// event through `tx`; `session` is made on first use and kept.
pub fn generate<'m>(
    loaded: &'m Loaded,
    session: &mut Option<Session<'m>>,
    request: &LlmRequest,
    settings: &LocalModelSettings,
    tx: &Events,
) {
    if let Err(e) = run(loaded, session, request, settings, tx) {
        let _ = tx.blocking_send(Err(e));
    }
}

fn run<'m>(
    loaded: &'m Loaded,
    session: &mut Option<Session<'m>>,
    request: &LlmRequest,
    settings: &LocalModelSettings,
    tx: &Events,
) -> Result<(), LlmError> {
    let send = |event: ProviderEvent| tx.blocking_send(Ok(event)).is_ok();
    let model = &loaded.model;
    let prompt = loaded.prompt(&chat::turns(request))?;
    let tokens = model.vocab().tokenize(prompt.as_bytes(), true, true);
    let n_ctx = settings.context.min(model.n_ctx_train().max(512));
    if tokens.len() as u32 + 8 > n_ctx {
        return Err(LlmError::ContextLengthExceeded {
            message: format!("the prompt is {} tokens and the built-in model's window {n_ctx}", tokens.len()),
        });
    }
    let s = match session {
        Some(s) => s,
        None => session.insert(Session::new(model, n_ctx, settings)?),
    };
    if !send(ProviderEvent::Connected) {
        return Ok(());
    }
    let mut batch = LlamaBatch::new(BATCH, 1);
    if !s.read_prompt(&mut batch, &tokens, tx)? {
        return Ok(()); // cancelled while reading
    }
    let budget = request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS).min(n_ctx - tokens.len() as u32);
    let tools = chat::callable(request);
    let Some((text, produced, stop)) = s.write_answer(loaded, &mut batch, request, &tools, budget, tx)? else {
        return Ok(()); // cancelled while writing
    };
    let stop = match (stop, chat::parse_call(&text, &tools)) {
        (Answer::Held(_), Some((name, arguments))) => {
            send(ProviderEvent::ToolCallDelta { index: 0, id: Some(call_id()), name: Some(name), arguments });
            StopReason::ToolUse
        }
        (Answer::Held(_), None) if chat::must_call(request) => {
            return Err(failed(format!("the model did not write a valid tool call: {text}")));
        }
        (Answer::Held(stop), None) => {
            send(ProviderEvent::TextDelta(text));
            stop
        }
        (Answer::Shown(stop), _) => stop,
    };
    send(ProviderEvent::Usage(Usage { prompt_tokens: tokens.len() as u32, completion_tokens: produced }));
    send(ProviderEvent::Finished(stop));
    Ok(())
}

/// How an answer ended (and why): streamed as text, or held back because
/// it may be a tool call.
enum Answer {
    Shown(StopReason),
    Held(StopReason),
}

impl<'m> Session<'m> {
    fn new(model: &'m LlamaModel, n_ctx: u32, settings: &LocalModelSettings) -> Result<Session<'m>, LlmError> {
        let threads = settings.threads as i32;
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(n_ctx))
            .with_n_batch(BATCH as u32)
            .with_n_threads(threads)
            .with_n_threads_batch(threads);
        let ctx =
            model.new_context(backend()?, params).map_err(|e| failed(format!("no context for the model: {e}")))?;
        Ok(Session { ctx, cached: Vec::new() })
    }

    /// Decodes what the cache lacks of `tokens` (at least the last token,
    /// for its logits), in chunks sized to take about [`CHUNK_TIME`] so a
    /// Cancel is seen between them; `false` when cancelled. The cache
    /// holds exactly what was decoded, either way.
    fn read_prompt(&mut self, batch: &mut LlamaBatch, tokens: &[LlamaToken], tx: &Events) -> Result<bool, LlmError> {
        let keep =
            self.cached.iter().zip(tokens).take_while(|(a, b)| a == b).count().min(tokens.len().saturating_sub(1));
        self.ctx.clear_kv_cache_seq(Some(0), Some(keep as u32), None).map_err(|e| failed(format!("the cache: {e}")))?;
        self.cached.truncate(keep);
        let mut chunk = FIRST_CHUNK;
        while self.cached.len() < tokens.len() {
            if tx.is_closed() {
                return Ok(false);
            }
            let from = self.cached.len();
            let part = &tokens[from..(from + chunk).min(tokens.len())];
            batch.clear();
            for (i, token) in part.iter().enumerate() {
                let at = from + i;
                let last = at + 1 == tokens.len();
                batch.add(*token, at as i32, &[0], last).map_err(|e| failed(format!("the batch is full: {e}")))?;
            }
            let started = Instant::now();
            self.ctx.decode(batch).map_err(|e| failed(format!("llama.cpp could not read the prompt: {e}")))?;
            self.cached.extend_from_slice(part);
            let per_token = started.elapsed() / part.len() as u32;
            chunk = (CHUNK_TIME.as_nanos() / per_token.as_nanos().max(1)).clamp(FIRST_CHUNK as u128, BATCH as u128)
                as usize;
        }
        Ok(true)
    }

    /// Samples the answer token by token, streaming each piece (a reply
    /// that may be a tool call is held back until it is known); `None`
    /// when cancelled.
    fn write_answer(
        &mut self,
        loaded: &Loaded,
        batch: &mut LlamaBatch,
        request: &LlmRequest,
        tools: &[&braid_llm::ToolDefinition],
        budget: u32,
        tx: &Events,
    ) -> Result<Option<(String, u32, Answer)>, LlmError> {
        let vocab = loaded.model.vocab();
        let forced = chat::must_call(request);
        let mut sampler = sampler(&loaded.model, request, tools, forced)?;
        let (mut produced, mut pending, mut text) = (0u32, Vec::<u8>::new(), String::new());
        // A forced call is never shown as text.
        let mut holding = forced;
        let mut stop = StopReason::MaxTokens;
        while produced < budget {
            let token = sampler.sample(&self.ctx, batch.n_tokens() - 1);
            if vocab.is_eog(token) {
                stop = StopReason::EndTurn;
                break;
            }
            produced += 1;
            pending.extend(vocab.token_to_piece(token, false, None));
            // A piece may end inside a character: it waits for the rest.
            let piece = match std::str::from_utf8(&pending) {
                Err(e) if e.error_len().is_none() => String::new(),
                decoded => {
                    let piece = decoded.map_or_else(|_| String::from_utf8_lossy(&pending).into_owned(), str::to_owned);
                    pending.clear();
                    piece
                }
            };
            if !piece.is_empty() {
                if text.trim().is_empty() && !tools.is_empty() && piece.trim_start().starts_with('{') {
                    holding = true;
                }
                text.push_str(&piece);
                if !holding && tx.blocking_send(Ok(ProviderEvent::TextDelta(piece))).is_err() {
                    return Ok(None);
                }
            }
            if forced && chat::parse_call(&text, tools).is_some() {
                stop = StopReason::EndTurn;
                break;
            }
            batch.clear();
            batch
                .add(token, self.cached.len() as i32, &[0], true)
                .map_err(|e| failed(format!("the batch is full: {e}")))?;
            self.ctx.decode(batch).map_err(|e| failed(format!("llama.cpp could not go on: {e}")))?;
            self.cached.push(token);
            if tx.is_closed() {
                return Ok(None);
            }
        }
        Ok(Some((text, produced, if holding { Answer::Held(stop) } else { Answer::Shown(stop) })))
    }
}

/// An id no other call has: the time, to the nanosecond.
fn call_id() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("call_{nanos:x}")
}

/// Greedy unless a temperature is asked for, with a mild repeat penalty;
/// a required tool call adds the grammar that allows nothing else.
fn sampler(
    model: &LlamaModel,
    request: &LlmRequest,
    tools: &[&braid_llm::ToolDefinition],
    forced: bool,
) -> Result<LlamaSampler, LlmError> {
    let mut chain = Vec::new();
    if forced {
        let grammar = LlamaSampler::grammar(model, &chat::call_grammar(tools), "root")
            .map_err(|e| failed(format!("the tool-call grammar was refused: {e}")))?;
        chain.push(grammar);
    }
    // A small model repeats itself: a mild penalty on the last tokens
    // (llama-cpp-python's default), not where the grammar decides.
    if !forced {
        chain.push(LlamaSampler::penalties(model.n_vocab(), 64, 1.1, 0.0, 0.0));
    }
    match request.temperature.filter(|t| *t > 0.0) {
        Some(t) => {
            chain.push(LlamaSampler::temp(t as f32));
            chain.push(LlamaSampler::dist(0x5eed));
        }
        None => chain.push(LlamaSampler::greedy()),
    }
    Ok(LlamaSampler::chain_simple(chain))
}
