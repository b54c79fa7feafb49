//! Reads. Loading checks what it reads, so corruption is reported with the
//! context (and message) it is in.

use crate::{ContextListing, ContextMeta, LoadedContext, Store, StoreError};
use braid_core::invariants::check_conversation;
use braid_core::{codec, Branch, ContextState, Conversation, PipelineConfig};
use braid_protocol::{BranchId, BranchLabel, ContextId, ContextStatus, MessageId, Timestamp};
use rusqlite::{params, OptionalExtension};
use std::collections::HashMap;

impl Store {
    /// Every context, most recently updated first. A context whose status
    /// cannot be read is listed as Failed rather than hidden.
    pub fn list_contexts(&self) -> Result<Vec<ContextListing>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.id, c.title, c.working_dir, c.created_at, c.updated_at, c.status_json,
                    (SELECT COUNT(*) FROM messages m WHERE m.context_id = c.id), c.model_json, c.pinned,
                    c.active_branch
             FROM contexts c WHERE NOT iif(json_valid(c.state_json), json_type(c.state_json, '$.config.child') IS NOT NULL, 0)
             ORDER BY c.updated_at DESC, c.id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                ContextMeta {
                    id: ContextId(r.get(0)?),
                    title: r.get(1)?,
                    working_dir: r.get(2)?,
                    created_at: Timestamp(r.get(3)?),
                    updated_at: Timestamp(r.get(4)?),
                    model: model_choice(r.get(7)?),
                    pinned: r.get(8)?,
                },
                r.get::<_, String>(5)?,
                r.get::<_, u64>(6)?,
                BranchId(r.get(9)?),
            ))
        })?;
        let mut branches = self.branch_labels()?;
        let mut out = Vec::new();
        for row in rows {
            let (meta, status_json, message_count, active_branch) = row?;
            let status = serde_json::from_str(&status_json).unwrap_or_else(|e| ContextStatus::Failed {
                error_code: braid_protocol::FailureCode::Storage,
                message: format!("context {}: unreadable state: {e}", meta.id),
                recoverable: false,
            });
            let branches = branches.remove(&meta.id).unwrap_or_default();
            out.push(ContextListing { meta, status, message_count, branches, active_branch });
        }
        Ok(out)
    }

    /// A conversation's sub-agents, oldest first (the list leaves them
    /// out); a child whose stored state cannot be read is skipped.
    pub fn children_of(&self, parent: &ContextId) -> Result<Vec<braid_protocol::ChildSummary>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, json_extract(state_json, '$.config.child'), status_json, json_extract(state_json, '$.child.outcome'),
                    json_extract(state_json, '$.child.returned') FROM contexts
             WHERE iif(json_valid(state_json), json_extract(state_json, '$.config.child.parent') = ?1, 0)
             ORDER BY created_at, id",
        )?;
        let rows = stmt.query_map([&parent.0], |r| {
            let text = |i| r.get::<_, Option<String>>(i);
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?, text(3)?, text(4)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, child, status, outcome, returned) = row?;
            if let (Ok(child), Ok(status)) = (serde_json::from_str(&child), serde_json::from_str(&status)) {
                let outcome = outcome.and_then(|o| serde_json::from_str(&o).ok());
                let returned = returned.and_then(|o| serde_json::from_str(&o).ok());
                out.push(braid_protocol::ChildSummary { context_id: ContextId(id), child, status, outcome, returned });
            }
        }
        Ok(out)
    }

    /// Every context's branches, oldest first: one query for the whole list.
    fn branch_labels(&self) -> Result<HashMap<ContextId, Vec<BranchLabel>>, StoreError> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT context_id, id, name FROM branches ORDER BY context_id, created_at, id")?;
        let mut out: HashMap<ContextId, Vec<BranchLabel>> = HashMap::new();
        let rows = stmt
            .query_map([], |r| Ok((ContextId(r.get(0)?), BranchLabel { id: BranchId(r.get(1)?), name: r.get(2)? })))?;
        for row in rows {
            let (context, label) = row?;
            out.entry(context).or_default().push(label);
        }
        Ok(out)
    }

    /// Ids of contexts not stored as Idle (recovery candidates).
    pub(crate) fn busy_contexts(&self) -> Result<Vec<ContextId>, StoreError> {
        let mut stmt = self.conn.prepare_cached("SELECT id FROM contexts WHERE status <> '\"idle\"' ORDER BY id")?;
        let ids = stmt.query_map([], |r| r.get::<_, String>(0))?.collect::<Result<Vec<_>, _>>()?;
        Ok(ids.into_iter().map(ContextId).collect())
    }

    /// The conversation's own folder (a branch may work in a copy of it).
    pub fn folder_of(&self, id: &ContextId) -> Result<String, StoreError> {
        let mut stmt = self.conn.prepare_cached("SELECT working_dir FROM contexts WHERE id = ?1")?;
        let found = stmt.query_row(params![id.0], |r| r.get(0)).optional()?;
        found.ok_or_else(|| StoreError::NotFound(id.clone()))
    }

    pub fn load_context(&self, id: &ContextId) -> Result<LoadedContext, StoreError> {
        let row = self
            .conn
            .prepare_cached(
                "SELECT title, working_dir, created_at, updated_at, active_branch, state_json, model_json, pinned
                 FROM contexts WHERE id = ?1",
            )?
            .query_row(params![id.0], |r| {
                Ok((
                    ContextMeta {
                        id: id.clone(),
                        title: r.get(0)?,
                        working_dir: r.get(1)?,
                        created_at: Timestamp(r.get(2)?),
                        updated_at: Timestamp(r.get(3)?),
                        model: model_choice(r.get(6)?),
                        pinned: r.get(7)?,
                    },
                    BranchId(r.get(4)?),
                    r.get::<_, String>(5)?,
                ))
            })
            .optional()?;
        let Some((meta, active, state_json)) = row else { return Err(StoreError::NotFound(id.clone())) };
        let state: ContextState =
            serde_json::from_str(&state_json).map_err(|e| StoreError::corrupt(id, format!("unreadable state: {e}")))?;

        let mut messages = Vec::new();
        let mut stmt =
            self.conn.prepare_cached("SELECT id, created_at, json FROM messages WHERE context_id = ?1 ORDER BY id")?;
        let mut rows = stmt.query(params![id.0])?;
        while let Some(r) = rows.next()? {
            let message_id = MessageId(r.get(0)?);
            let created_at = Timestamp(r.get(1)?);
            let json: String = r.get(2)?;
            let m = codec::decode(&json, message_id, created_at).map_err(|e| StoreError::CorruptMessage {
                context: id.clone(),
                message: message_id,
                reason: e.to_string(),
            })?;
            messages.push(m);
        }

        let mut members: HashMap<String, Vec<MessageId>> = HashMap::new();
        let mut stmt = self.conn.prepare_cached(
            "SELECT branch_id, message_id FROM branch_messages WHERE context_id = ?1 ORDER BY branch_id, position",
        )?;
        let mut rows = stmt.query(params![id.0])?;
        while let Some(r) = rows.next()? {
            members.entry(r.get(0)?).or_default().push(MessageId(r.get(1)?));
        }

        let mut branches = Vec::new();
        let mut stmt = self.conn.prepare_cached(
            "SELECT id, name, parent, fork_point, system_prompt, pipeline_json, created_at, model_json, folder FROM branches WHERE context_id = ?1",
        )?;
        let mut rows = stmt.query(params![id.0])?;
        while let Some(r) = rows.next()? {
            let branch_id: String = r.get(0)?;
            let pipeline = r
                .get::<_, Option<String>>(5)?
                .map(|p| serde_json::from_str::<PipelineConfig>(&p))
                .transpose()
                .map_err(|e| StoreError::corrupt(id, format!("branch {branch_id}: unreadable pipeline config: {e}")))?;
            branches.push(Branch {
                message_ids: members.remove(&branch_id).unwrap_or_default(),
                id: BranchId(branch_id),
                name: r.get(1)?,
                parent: r.get::<_, Option<String>>(2)?.map(BranchId),
                fork_point: r.get::<_, Option<u64>>(3)?.map(MessageId),
                system_prompt: r.get(4)?,
                pipeline,
                model: model_choice(r.get(7)?),
                folder: r.get(8)?,
                created_at: Timestamp(r.get(6)?),
            });
        }
        let conversation = Conversation::from_parts(messages, branches, active);
        check_conversation(&conversation).map_err(|v| StoreError::corrupt(id, v))?;
        // States stored before the machine handed out branch ids start
        // past the branches already there.
        let mut state = state;
        state.next_branch_id = state.next_branch_id.max(conversation.free_branch_number());
        Ok(LoadedContext { meta, state, conversation })
    }
}

/// A model choice that cannot be read falls back to the default model
/// rather than hiding the conversation.
fn model_choice(json: Option<String>) -> Option<braid_protocol::ModelChoice> {
    let json = json?;
    serde_json::from_str(&json)
        .map_err(|e| tracing::warn!(error = %e, "unreadable model choice; using the default model"))
        .ok()
}
