//! Writes. Each public call is one transaction, so a crash leaves either
//! all of a transition's changes or none.

use crate::{ContextMeta, FileRow, Store, StoreError};
use braid_core::codec;
use braid_core::machine::Effect;
use braid_core::{Branch, BranchDeletion, ContextState, Conversation};
use braid_protocol::{BranchId, ContextId, Message, MessageId, Role, Timestamp};
use rusqlite::{params, Transaction};

fn json<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Encode(e.to_string()))
}

fn role_name(message: &Message) -> Option<&'static str> {
    message.body.role().map(|r| match r {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
    })
}

fn insert_message(tx: &Transaction<'_>, context: &ContextId, m: &Message) -> Result<(), StoreError> {
    let encoded = codec::encode(m).map_err(|e| StoreError::Encode(e.to_string()))?;
    tx.prepare_cached(
        "INSERT INTO messages (context_id, id, kind, role, created_at, schema_version, json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![context.0, m.id.0, m.body.kind().tag(), role_name(m), m.created_at.0, m.schema_version, encoded])?;
    Ok(())
}

fn update_message(tx: &Transaction<'_>, context: &ContextId, m: &Message) -> Result<(), StoreError> {
    let encoded = codec::encode(m).map_err(|e| StoreError::Encode(e.to_string()))?;
    tx.prepare_cached("UPDATE messages SET kind = ?3, role = ?4, json = ?5 WHERE context_id = ?1 AND id = ?2")?
        .execute(params![context.0, m.id.0, m.body.kind().tag(), role_name(m), encoded])?;
    Ok(())
}

fn write_state(
    tx: &Transaction<'_>,
    context: &ContextId,
    state: &ContextState,
    now: Timestamp,
) -> Result<(), StoreError> {
    let status = state.status.kind();
    let changed = tx
        .prepare_cached(
            "UPDATE contexts SET status = ?2, status_json = ?3, state_json = ?4, updated_at = ?5 WHERE id = ?1",
        )?
        .execute(params![context.0, json(&status)?, json(&state.status)?, json(state)?, now.0])?;
    if changed == 0 {
        return Err(StoreError::NotFound(context.clone()));
    }
    Ok(())
}

fn write_meta(tx: &Transaction<'_>, meta: &crate::ContextMeta) -> Result<(), StoreError> {
    let model = meta.model.as_ref().map(json).transpose()?;
    tx.prepare_cached(
        "UPDATE contexts SET title = ?2, working_dir = ?3, model_json = ?4, pinned = ?5, updated_at = ?6 WHERE id = ?1",
    )?
    .execute(params![meta.id.0, meta.title, meta.working_dir, model, meta.pinned, meta.updated_at.0])?;
    Ok(())
}

fn write_branch(tx: &Transaction<'_>, context: &ContextId, b: &Branch) -> Result<(), StoreError> {
    let pipeline = b.pipeline.as_ref().map(json).transpose()?;
    tx.prepare_cached(
        "INSERT INTO branches (context_id, id, name, parent, fork_point, system_prompt, pipeline_json, created_at, model_json, folder)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         ON CONFLICT (context_id, id) DO UPDATE SET name = ?3, system_prompt = ?6, pipeline_json = ?7, model_json = ?9, folder = ?10",
    )?
    .execute(params![
        context.0,
        b.id.0,
        b.name,
        b.parent.as_ref().map(|p| &p.0),
        b.fork_point.map(|m| m.0),
        b.system_prompt,
        pipeline,
        b.created_at.0,
        b.model.as_ref().map(json).transpose()?,
        b.folder
    ])?;
    tx.prepare_cached("DELETE FROM branch_messages WHERE context_id = ?1 AND branch_id = ?2")?
        .execute(params![context.0, b.id.0])?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO branch_messages (context_id, branch_id, position, message_id) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (pos, id) in b.message_ids.iter().enumerate() {
        insert.execute(params![context.0, b.id.0, pos as i64, id.0])?;
    }
    Ok(())
}

fn delete_branch(tx: &Transaction<'_>, context: &ContextId, d: &BranchDeletion) -> Result<(), StoreError> {
    tx.prepare_cached("DELETE FROM branch_messages WHERE context_id = ?1 AND branch_id = ?2")?
        .execute(params![context.0, d.id.0])?;
    tx.prepare_cached("DELETE FROM branches WHERE context_id = ?1 AND id = ?2")?.execute(params![context.0, d.id.0])?;
    let mut orphan = tx.prepare_cached("DELETE FROM messages WHERE context_id = ?1 AND id = ?2")?;
    for m in &d.orphans {
        orphan.execute(params![context.0, m.0])?;
    }
    tx.prepare_cached("UPDATE branches SET parent = ?3 WHERE context_id = ?1 AND parent = ?2")?.execute(params![
        context.0,
        d.id.0,
        d.parent.as_ref().map(|p| p.0.as_str())
    ])?;
    Ok(())
}

fn set_branch_messages(
    tx: &Transaction<'_>,
    context: &ContextId,
    branch: &BranchId,
    ids: &[MessageId],
) -> Result<(), StoreError> {
    tx.prepare_cached("DELETE FROM branch_messages WHERE context_id = ?1 AND branch_id = ?2")?
        .execute(params![context.0, branch.0])?;
    let mut insert = tx.prepare_cached(
        "INSERT INTO branch_messages (context_id, branch_id, position, message_id) VALUES (?1, ?2, ?3, ?4)",
    )?;
    for (pos, id) in ids.iter().enumerate() {
        insert.execute(params![context.0, branch.0, pos as i64, id.0])?;
    }
    Ok(())
}

fn append_to_branch(
    tx: &Transaction<'_>,
    context: &ContextId,
    branch: &BranchId,
    position: usize,
    m: &Message,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO branch_messages (context_id, branch_id, position, message_id) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![context.0, branch.0, position as i64, m.id.0])?;
    Ok(())
}

impl Store {
    /// Stores a new context with everything it holds.
    pub fn create_context(
        &mut self,
        meta: &ContextMeta,
        state: &ContextState,
        conversation: &Conversation,
    ) -> Result<(), StoreError> {
        let tx = self.write()?;
        tx.prepare_cached(
            "INSERT INTO contexts (id, title, working_dir, created_at, updated_at, active_branch, status, status_json, state_json, model_json, pinned)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, '', '', '', ?7, ?8)",
        )?
        .execute(params![meta.id.0, meta.title, meta.working_dir, meta.created_at.0, meta.updated_at.0, conversation.active_branch().0, model_json(meta)?, meta.pinned])?;
        write_all(&tx, &meta.id, state, conversation, meta.updated_at)?;
        tx.commit()?;
        Ok(())
    }

    /// Replaces everything stored for an existing context.
    pub fn save_context(
        &mut self,
        meta: &ContextMeta,
        state: &ContextState,
        conversation: &Conversation,
    ) -> Result<(), StoreError> {
        let tx = self.write()?;
        let changed = tx
            .prepare_cached(
                "UPDATE contexts SET title = ?2, active_branch = ?3, updated_at = ?4, model_json = ?5 WHERE id = ?1",
            )?
            .execute(params![
                meta.id.0,
                meta.title,
                conversation.active_branch().0,
                meta.updated_at.0,
                model_json(meta)?
            ])?;
        if changed == 0 {
            return Err(StoreError::NotFound(meta.id.clone()));
        }
        tx.prepare_cached("DELETE FROM branches WHERE context_id = ?1")?.execute(params![meta.id.0])?;
        tx.prepare_cached("DELETE FROM messages WHERE context_id = ?1")?.execute(params![meta.id.0])?;
        write_all(&tx, &meta.id, state, conversation, meta.updated_at)?;
        tx.commit()?;
        Ok(())
    }

    /// Writes what one transition changed, in one transaction: the state
    /// and the persistence effects, already applied to `conversation`.
    /// Called before any other effect of the transition runs.
    pub fn persist(
        &mut self,
        context: &ContextId,
        state: &ContextState,
        conversation: &Conversation,
        effects: &[Effect],
        now: Timestamp,
    ) -> Result<(), StoreError> {
        self.persist_with_files(context, state, conversation, effects, &[], now)
    }

    /// [`Store::persist`], with the file records the transition's tool
    /// result (or reference) made, in the same transaction.
    pub fn persist_with_files(
        &mut self,
        context: &ContextId,
        state: &ContextState,
        conversation: &Conversation,
        effects: &[Effect],
        files: &[FileRow],
        now: Timestamp,
    ) -> Result<(), StoreError> {
        if !effects.iter().any(Effect::is_persistence) && files.is_empty() {
            return Ok(());
        }
        let tx = self.write()?;
        crate::files::write_files(&tx, context, files)?;
        for effect in effects {
            match effect {
                Effect::AppendMessage(m) => {
                    insert_message(&tx, context, m)?;
                    let branch = conversation.branch_of(m.id).and_then(|b| conversation.branch(b));
                    if let Some(b) = branch {
                        let position = b.message_ids.iter().rposition(|id| *id == m.id).unwrap_or(b.message_ids.len());
                        append_to_branch(&tx, context, &b.id, position, m)?;
                    }
                }
                Effect::UpdateMessage(m) => update_message(&tx, context, m)?,
                Effect::SetActiveBranch(b) => {
                    tx.prepare_cached("UPDATE contexts SET active_branch = ?2 WHERE id = ?1")?
                        .execute(params![context.0, b.0])?;
                }
                Effect::CreateBranch(b) => write_branch(&tx, context, b)?,
                Effect::RenameBranch { branch, name } => {
                    tx.prepare_cached("UPDATE branches SET name = ?3 WHERE context_id = ?1 AND id = ?2")?
                        .execute(params![context.0, branch.0, name])?;
                }
                Effect::SetBranchPrompt { branch, system_prompt } => {
                    tx.prepare_cached("UPDATE branches SET system_prompt = ?3 WHERE context_id = ?1 AND id = ?2")?
                        .execute(params![context.0, branch.0, system_prompt])?;
                }
                Effect::DeleteBranch(d) => delete_branch(&tx, context, d)?,
                // The list as the effect has it: the appends after it in
                // this transition add their own rows.
                Effect::SetBranchModel { branch, model } => {
                    let model = model.as_ref().map(json).transpose()?;
                    tx.prepare_cached("UPDATE branches SET model_json = ?3 WHERE context_id = ?1 AND id = ?2")?
                        .execute(params![context.0, branch.0, model])?;
                }
                Effect::SetBranchFolder { branch, folder } => {
                    tx.prepare_cached("UPDATE branches SET folder = ?3 WHERE context_id = ?1 AND id = ?2")?
                        .execute(params![context.0, branch.0, folder])?;
                }
                Effect::SetBranchMessages { branch, ids } => set_branch_messages(&tx, context, branch, ids)?,
                Effect::RecordCheckpoint(cp) => crate::checkpoints::write_checkpoint(&tx, context, cp, now)?,
                _ => {}
            }
        }
        write_state(&tx, context, state, now)?;
        // After the state: its write moves the change time, and the
        // fields' own (kept by a pin) is the one that stays.
        for effect in effects {
            if let Effect::SaveMeta(meta) = effect {
                write_meta(&tx, meta)?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Deletes a context and everything in it.
    pub fn delete_context(&mut self, context: &ContextId) -> Result<(), StoreError> {
        let tx = self.write()?;
        // Explicit deletes: branch_messages rows of a corrupted context may
        // not match their branches, and must go too.
        tx.execute("DELETE FROM branch_messages WHERE context_id = ?1", params![context.0])?;
        tx.execute("DELETE FROM file_records WHERE context_id = ?1", params![context.0])?;
        tx.execute("DELETE FROM messages WHERE context_id = ?1", params![context.0])?;
        tx.execute("DELETE FROM branches WHERE context_id = ?1", params![context.0])?;
        let n = tx.execute("DELETE FROM contexts WHERE id = ?1", params![context.0])?;
        if n == 0 {
            return Err(StoreError::NotFound(context.clone()));
        }
        tx.commit()?;
        Ok(())
    }

    /// Adds messages (e.g. from recovery) to the active branch and saves the
    /// state, in one transaction.
    pub(crate) fn append_and_save(
        &mut self,
        context: &ContextId,
        state: &ContextState,
        conversation: &Conversation,
        added: &[Message],
        now: Timestamp,
    ) -> Result<(), StoreError> {
        let effects: Vec<Effect> = added.iter().cloned().map(Effect::AppendMessage).collect();
        self.persist(context, state, conversation, &effects, now)
    }
}

fn write_all(
    tx: &Transaction<'_>,
    context: &ContextId,
    state: &ContextState,
    conversation: &Conversation,
    now: Timestamp,
) -> Result<(), StoreError> {
    for m in conversation.pool() {
        insert_message(tx, context, m)?;
    }
    for b in conversation.branches() {
        write_branch(tx, context, b)?;
    }
    write_state(tx, context, state, now)
}

fn model_json(meta: &ContextMeta) -> Result<Option<String>, StoreError> {
    meta.model.as_ref().map(serde_json::to_string).transpose().map_err(|e| StoreError::corrupt(&meta.id, e.to_string()))
}
