//! MCP resources in play: which to read for a new message. A resource the
//! branch already holds serves from there while it is fresh; one older
//! than the freshness limit, or one its server said changed, is read
//! again, mentioned or not, so what the model is sent stays current. The
//! copy read last stands for the older ones (see [`superseded`]).

use braid_protocol::{Message, MessageId, MessageType, Timestamp};
use std::collections::BTreeMap;

/// How long a resource read into a conversation is used before it is
/// read again.
pub const FRESH_FOR_MS: u64 = 60 * 60 * 1000;

/// A resource by its server and URI.
pub type ResourceKey = (String, String);

/// The resources to read for a message that mentions `mentions`, given
/// the branch's `messages`, when each server last said a resource changed
/// (`updated`), and the time: mentions not held, then held ones gone
/// stale or changed since they were read, each once, in that order.
pub fn to_read<'a>(
    messages: impl IntoIterator<Item = &'a Message>,
    mentions: &[ResourceKey],
    updated: &BTreeMap<ResourceKey, Timestamp>,
    now: Timestamp,
    fresh_for_ms: u64,
) -> Vec<ResourceKey> {
    let held = latest(messages);
    let stale = |key: &ResourceKey, at: Timestamp| {
        updated.get(key).is_some_and(|changed| *changed >= at) || at.ms_until(now) >= fresh_for_ms
    };
    let mut out: Vec<ResourceKey> = Vec::new();
    for key in mentions.iter().chain(held.keys()) {
        let wanted = match held.get(key) {
            None => true,
            Some((at, _)) => stale(key, *at),
        };
        if wanted && !out.contains(key) {
            out.push(key.clone());
        }
    }
    out
}

/// Each resource the messages hold: when its latest copy was read, and
/// that copy's message.
fn latest<'a>(messages: impl IntoIterator<Item = &'a Message>) -> BTreeMap<ResourceKey, (Timestamp, MessageId)> {
    let mut held = BTreeMap::new();
    for m in messages {
        if let MessageType::McpResource { server_name, resource_uri, retrieved_at, .. } = &m.body {
            held.insert((server_name.clone(), resource_uri.clone()), (*retrieved_at, m.id));
        }
    }
    held
}

/// The resource messages a later copy of the same resource stands for:
/// they are not sent.
pub fn superseded<'a>(messages: impl IntoIterator<Item = &'a Message> + Clone) -> Vec<MessageId> {
    let latest = latest(messages.clone());
    messages
        .into_iter()
        .filter(|m| match &m.body {
            MessageType::McpResource { server_name, resource_uri, .. } => {
                latest.get(&(server_name.clone(), resource_uri.clone())).is_some_and(|(_, id)| *id != m.id)
            }
            _ => false,
        })
        .map(|m| m.id)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(id: u64, uri: &str, at_ms: u64) -> Message {
        let body = MessageType::McpResource {
            server_name: "docs".into(),
            resource_uri: uri.into(),
            content: "x".into(),
            mime_type: None,
            retrieved_at: Timestamp(at_ms),
        };
        Message::new(MessageId(id), Timestamp(at_ms), body)
    }

    fn key(uri: &str) -> ResourceKey {
        ("docs".into(), uri.into())
    }

    #[test]
    fn held_resources_serve_while_fresh_and_are_read_again_when_stale_or_changed() {
        let hour = FRESH_FOR_MS;
        let messages = [resource(1, "a://1", 0), resource(2, "a://2", hour / 2)];
        let (at, none) = (Timestamp, BTreeMap::new());
        // Fresh: a mention of a held resource reads nothing; a new one is read.
        assert_eq!(to_read(&messages, &[key("a://1"), key("a://3")], &none, at(hour - 1), hour), [key("a://3")]);
        // An hour on, the first is stale, mentioned or not.
        assert_eq!(to_read(&messages, &[], &none, at(hour), hour), [key("a://1")]);
        assert_eq!(to_read(&messages, &[key("a://1")], &none, at(hour), hour), [key("a://1")]);
        // The server said the second changed after it was read: read again,
        // once; a change told before it was read is in the copy held.
        let changed = BTreeMap::from([(key("a://2"), at(hour / 2 + 1))]);
        assert_eq!(to_read(&messages, &[key("a://2")], &changed, at(hour / 2 + 9), hour), [key("a://2")]);
        let before = BTreeMap::from([(key("a://2"), at(hour / 2 - 1))]);
        assert!(to_read(&messages, &[], &before, at(hour / 2 + 9), hour).is_empty());
    }

    #[test]
    fn the_copy_read_last_stands_for_the_older_ones() {
        let messages = [resource(1, "a://1", 0), resource(2, "a://2", 5), resource(3, "a://1", 9)];
        assert_eq!(superseded(&messages), [MessageId(1)]);
        assert!(superseded(&messages[..2]).is_empty());
    }
}
