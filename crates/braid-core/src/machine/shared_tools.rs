//! The context's tool catalogue, shared between states, stored as a list.

use braid_protocol::ToolSpec;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

pub fn serialize<S: Serializer>(tools: &Arc<[ToolSpec]>, s: S) -> Result<S::Ok, S::Error> {
    tools.as_ref().serialize(s)
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<[ToolSpec]>, D::Error> {
    Vec::<ToolSpec>::deserialize(d).map(Arc::from)
}
