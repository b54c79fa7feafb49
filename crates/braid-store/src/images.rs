//! Which stored images a conversation refers to, and whether any other
//! still does: deleting a conversation deletes the screenshots only it
//! used. Messages and queued state keep images as `{"kind":"stored","id":…}`.

use crate::{Store, StoreError};
use braid_protocol::ContextId;
use rusqlite::{params, OptionalExtension};
use serde_json::Value;

impl Store {
    /// Ids of the stored images this context's messages and queue refer to.
    pub fn image_ids(&self, context: &ContextId) -> Result<Vec<String>, StoreError> {
        let mut ids = Vec::new();
        let mut stmt = self.conn.prepare(
            "SELECT json FROM messages WHERE context_id = ?1 AND kind = 'image'
             UNION ALL SELECT state_json FROM contexts WHERE id = ?1",
        )?;
        let rows = stmt.query_map(params![context.0], |r| r.get::<_, String>(0))?;
        for json in rows {
            if let Ok(value) = serde_json::from_str::<Value>(&json?) {
                stored_ids(&value, &mut ids);
            }
        }
        ids.sort();
        ids.dedup();
        Ok(ids)
    }

    /// Whether any message or queued message still refers to this image.
    pub fn image_in_use(&self, id: &str) -> Result<bool, StoreError> {
        // Ids are 64 hex digits: nothing else in the JSON contains one by chance.
        let pattern = format!("%{id}%");
        let found: Option<i64> = self
            .conn
            .query_row(
                "SELECT 1 FROM messages WHERE kind = 'image' AND json LIKE ?1
                 UNION ALL SELECT 1 FROM contexts WHERE state_json LIKE ?1 LIMIT 1",
                params![pattern],
                |r| r.get(0),
            )
            .optional()?;
        Ok(found.is_some())
    }
}

fn stored_ids(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if map.get("kind").and_then(Value::as_str) == Some("stored") {
                if let Some(id) = map.get("id").and_then(Value::as_str) {
                    out.push(id.to_owned());
                }
            }
            map.values().for_each(|v| stored_ids(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| stored_ids(v, out)),
        _ => {}
    }
}
