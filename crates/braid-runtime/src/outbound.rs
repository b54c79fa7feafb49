//! The one place a request to a model is finished. Whatever made it — a
//! turn, a summary with the user's instructions, a title, an image's
//! description, a merge's summary — its every text (the system prompt,
//! the messages, the tools' descriptions) goes through the secret filter
//! here, and only a [`Finished`] request can be sent: the executors that
//! stream (`llm_task`, `complete`) take nothing else, and
//! `scripts/check-requests.sh` fails the build if a provider is asked
//! anywhere but there.

use crate::secret_mask::SecretMask;
use braid_llm::LlmRequest;
use braid_protocol::Message;
use std::collections::BTreeSet;
use std::sync::Arc;

/// The secret filter as a request made off the conversation's task
/// carries it: on (the runtime's), or off for a workspace whose secrets
/// the user lets go as they are.
#[derive(Clone)]
pub(crate) struct Filter(Option<Arc<SecretMask>>);

impl Filter {
    pub(crate) fn new(secrets: &Arc<SecretMask>, on: bool) -> Filter {
        Filter(on.then(|| secrets.clone()))
    }

    /// For a request that holds nothing of anyone's words (an image and
    /// Braid's own question about it).
    pub(crate) fn none() -> Filter {
        Filter(None)
    }

    pub(crate) fn finish(&self, request: LlmRequest) -> Finished {
        finish(request, self.0.as_deref())
    }

    /// Loose texts counted beside a finished request (its system prompt's
    /// parts, one by one), hidden as the request's own are.
    pub(crate) fn hide_texts(&self, texts: &mut [String]) {
        if let Some(secrets) = self.0.as_deref() {
            for text in texts {
                secrets.hide(text);
            }
        }
    }
}

/// A request with its secrets hidden, ready to send.
pub struct Finished {
    request: LlmRequest,
    /// The placeholders that stand in its texts.
    hidden: BTreeSet<String>,
}

/// `secrets`: the filter, or `None` where the user lets this workspace's
/// secrets go as they are (`show_secrets_in`).
pub(crate) fn finish(mut request: LlmRequest, secrets: Option<&SecretMask>) -> Finished {
    // What a tool printed and the model was not given stays behind, whatever
    // a provider makes of a message.
    for m in &mut request.messages {
        m.meta.withheld = None;
    }
    let mut hidden = BTreeSet::new();
    if let Some(mask) = secrets {
        if let Some(system) = request.system.as_mut() {
            hidden.extend(mask.hide(system));
        }
        hidden.extend(mask.hide_messages(&mut request.messages));
        for tool in &mut request.tools {
            hidden.extend(mask.hide(&mut tool.description));
        }
    }
    Finished { request, hidden }
}

impl Finished {
    pub fn request(&self) -> &LlmRequest {
        &self.request
    }

    /// The placeholders that stand in the request.
    pub fn hidden(&self) -> &BTreeSet<String> {
        &self.hidden
    }

    /// The messages, for attaching the pixels of their images (no text
    /// is added after the filter).
    pub fn messages_mut(&mut self) -> &mut Vec<Message> {
        &mut self.request.messages
    }

    /// What the provider is given.
    pub(crate) fn into_request(self) -> LlmRequest {
        self.request
    }
}
