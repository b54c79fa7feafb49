//! One request whose answer nobody watches arrive: a summary, an image's
//! description. No context, no events: the whole text or why there is none.

use crate::outbound::Finished;
use braid_llm::{LlmProvider, ResponseAssembler};
use futures::StreamExt;

/// One request whose answer nobody watches arrive (a summary, an image's
/// description): its whole text, trimmed, or why there is none.
pub async fn complete_text(provider: &dyn LlmProvider, request: Finished) -> Result<String, String> {
    let mut stream = provider.stream(request.into_request());
    let mut assembler = ResponseAssembler::new();
    while let Some(item) = stream.next().await {
        let event = item.map_err(|e| e.to_string())?;
        assembler.push(&event);
        if assembler.is_finished() {
            break;
        }
    }
    drop(stream);
    let response = assembler.finish(provider.name()).map_err(|e| e.to_string())?;
    Ok(response.text.trim().to_owned())
}
