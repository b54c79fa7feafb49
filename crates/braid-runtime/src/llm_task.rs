//! One LLM request: streams from the provider and reports core events to
//! its context. Aborting the task drops the stream, which
//! closes the connection; a stop signal instead reports what arrived.

use crate::images::Images;
use crate::outbound::Finished;
use crate::report::Reports;
use braid_core::llm::LlmFailure;
use braid_core::machine::Event;
use braid_core::vision::ImageLimits;
use braid_llm::{LlmProvider, ProviderEvent, ResponseAssembler};
use braid_protocol::{Notice, NoticeCode, RequestId};
use futures::StreamExt;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::oneshot;

pub struct LlmTask {
    pub request_id: RequestId,
    pub handle: tokio::task::JoinHandle<()>,
    pub stop: Option<oneshot::Sender<()>>,
}

/// Images in the request that need their pixels attached before sending.
pub struct Pixels {
    pub images: Arc<Images>,
    pub workspace: PathBuf,
    pub limits: ImageLimits,
}

pub fn spawn(
    provider: Arc<dyn LlmProvider>,
    mut request: Finished,
    request_id: RequestId,
    reports: Reports,
    pixels: Option<Pixels>,
    seen: crate::seen::SentEntry,
) -> LlmTask {
    let (stop_tx, stop_rx) = oneshot::channel();
    let handle = tokio::spawn(async move {
        if let Some(p) = pixels {
            if let Err(e) = p.images.attach_pixels(request.messages_mut(), &p.workspace, p.limits).await {
                let failure = LlmFailure::fatal(
                    braid_protocol::FailureCode::ImageUnreadable,
                    format!("An image could not be prepared: {e}"),
                );
                reports.event(Event::LlmFailed { request_id, failure });
                return;
            }
        }
        drive(provider, request, request_id, reports, stop_rx, seen).await
    });
    LlmTask { request_id, handle, stop: Some(stop_tx) }
}

async fn drive(
    provider: Arc<dyn LlmProvider>,
    request: Finished,
    request_id: RequestId,
    reports: Reports,
    mut stop: oneshot::Receiver<()>,
    seen: crate::seen::SentEntry,
) {
    let send = |event: Event| {
        // The context may be gone (deleted, shut down): nothing to tell.
        reports.event(event);
    };
    send(Event::LlmRequestStarted { request_id });
    let mut stream = provider.stream(request.into_request());
    let mut assembler = ResponseAssembler::new();
    loop {
        let item = tokio::select! {
            biased;
            _ = &mut stop => {
                drop(stream);
                send(Event::LlmCompleted { request_id, response: assembler.interrupted() });
                return;
            }
            item = stream.next() => item,
        };
        match item {
            Some(Ok(ProviderEvent::Connected)) => send(Event::LlmConnected { request_id }),
            Some(Ok(ProviderEvent::TextDelta(text))) => {
                assembler.push_text(&text);
                send(Event::LlmDelta { request_id, text });
            }
            Some(Ok(ProviderEvent::SentAgainWithoutTools)) => seen.tools_dropped(),
            Some(Ok(ProviderEvent::Note(text))) => {
                reports.notice(Notice::new(NoticeCode::StreamingUnavailable, text));
            }
            Some(Ok(event)) => {
                assembler.push(&event);
                if assembler.is_finished() {
                    break;
                }
            }
            Some(Err(error)) => {
                send(Event::LlmFailed { request_id, failure: error.to_failure() });
                return;
            }
            None => break,
        }
    }
    drop(stream);
    match assembler.finish(provider.name()) {
        Ok(response) => send(Event::LlmCompleted { request_id, response }),
        Err(error) => send(Event::LlmFailed { request_id, failure: error.to_failure() }),
    }
}
