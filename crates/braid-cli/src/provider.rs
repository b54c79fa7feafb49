//! Connecting the CLI to a real model server given on the command line.

use crate::args::Args;
use braid_llm::catalogue::{list_models, Catalogue};
use braid_llm::secrets::Secrets;
use braid_llm::{HttpProvider, LlmProvider, ProviderKind, Timeouts};
use braid_runtime::RuntimeConfig;
use std::sync::Arc;

fn kind_id(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::OpenAiCompatible => "openai",
        ProviderKind::Anthropic => "anthropic",
        ProviderKind::Gemini => "gemini",
    }
}

pub async fn connect(args: &Args, url: &str, config: &mut RuntimeConfig) -> Result<Arc<dyn LlmProvider>, String> {
    let secrets = Secrets::new(args.db.parent().unwrap_or(std::path::Path::new(".")));
    let key = secrets.get(kind_id(args.kind)).map_err(|e| e.to_string())?.map(|(k, _)| k);
    let model = match &args.model {
        Some(m) => m.clone(),
        None => list_models(args.kind, url, key.as_ref(), url)
            .await
            .map_err(|e| format!("could not list the models of {url}: {e}; pass --model"))?
            .into_iter()
            .next()
            .ok_or_else(|| format!("{url} lists no models; pass --model"))?,
    };
    let info = Catalogue::new(&[]).or_default(&model, args.kind);
    config.model = model.clone();
    config.max_tokens = info.max_output_tokens.min(4_096);
    eprintln!("braid: using {model} at {url} (context window {} tokens)", info.context_window);
    let provider = HttpProvider::new(args.kind, url, url, key, Timeouts::default()).map_err(|e| e.to_string())?;
    Ok(Arc::new(provider))
}
