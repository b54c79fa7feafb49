//! Connecting the CLI to a real model server given on the command line.

use crate::args::Args;
use braid_llm::secrets::Secrets;
use braid_llm::settings::adhoc;
use braid_llm::LlmProvider;
use braid_runtime::RuntimeConfig;
use std::sync::Arc;

pub async fn connect(args: &Args, url: &str, config: &mut RuntimeConfig) -> Result<Arc<dyn LlmProvider>, String> {
    let secrets = Secrets::new(args.db.parent().unwrap_or(std::path::Path::new(".")));
    let (provider, info) = adhoc(args.kind, url, args.model.as_deref(), &secrets)
        .await
        .map_err(|e| format!("cannot use {url}: {e}; check --base-url, or pass --model"))?;
    config.model = info.id.clone();
    config.max_tokens = info.max_output_tokens.min(4_096);
    eprintln!("braid: using {} at {url} (context window {} tokens)", info.id, info.context_window);
    Ok(Arc::new(provider))
}
