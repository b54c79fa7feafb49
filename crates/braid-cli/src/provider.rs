//! Connecting the CLI to a real model server given on the command line.

use crate::args::Args;
use braid_llm::secrets::Secrets;
use braid_llm::settings::adhoc;
use braid_runtime::{Fallback, RuntimeConfig};
use std::sync::Arc;

/// The server's model with its real window, output limit and vision (from
/// the catalogue or the server), so requests are fitted to the model.
pub async fn connect(args: &Args, url: &str, config: &mut RuntimeConfig) -> Result<Fallback, String> {
    let secrets = Secrets::new(args.db.parent().unwrap_or(std::path::Path::new(".")));
    let (provider, info) = adhoc(args.kind, url, args.model.as_deref(), &secrets)
        .await
        .map_err(|e| format!("cannot use {url}: {e}; check --base-url, or pass --model"))?;
    config.model = info.id.clone();
    config.max_tokens = info.max_output_tokens.min(4_096);
    let seeing = if info.vision { "sees images" } else { "text only; images are read with OCR" };
    eprintln!("braid: using {} at {url} (context window {} tokens, {seeing})", info.id, info.context_window);
    Ok(Fallback::adhoc(Arc::new(provider), url.to_owned(), &info))
}
