//! Counts of messages by a model's own tokenizer, for models Braid has no
//! tokenizer for: asked of the model's server once per message, kept here
//! so a restart does not ask again for every message of a long
//! conversation.

use crate::{Store, StoreError};
use braid_protocol::{ContextId, MessageId};
use rusqlite::params;
use std::collections::HashMap;

/// Per message: the length of the text counted and the model's count.
pub type ModelCounts = HashMap<MessageId, (usize, u32)>;

impl Store {
    /// The counts `model` made of a conversation's messages.
    pub fn model_counts(&self, context: &ContextId, model: &str) -> Result<ModelCounts, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT message_id, text_len, count FROM model_counts WHERE context_id = ?1 AND model = ?2",
        )?;
        let rows = stmt.query_map(params![context.0, model], |r| {
            Ok((MessageId(r.get::<_, i64>(0)? as u64), (r.get::<_, i64>(1)? as usize, r.get::<_, i64>(2)? as u32)))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Keeps counts `model` made (replacing older ones of the same messages).
    pub fn save_model_counts(
        &mut self,
        context: &ContextId,
        model: &str,
        counts: &[(MessageId, usize, u32)],
    ) -> Result<(), StoreError> {
        let tx = crate::write_transaction(&mut self.conn)?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR REPLACE INTO model_counts (context_id, model, message_id, text_len, count)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for (id, len, count) in counts {
                stmt.execute(params![context.0, model, id.0 as i64, *len as i64, i64::from(*count)])?;
            }
        }
        tx.commit()?;
        Ok(())
    }
}
