//! The schema and its migrations, numbered by `PRAGMA user_version`. A
//! migration runs in one transaction with the version bump; never edit a
//! released migration, add a new one.

use crate::StoreError;
use rusqlite::Connection;

const MIGRATIONS: &[&str] = &[
    // 1: contexts, branches, messages, branch membership.
    r#"
    CREATE TABLE contexts (
        id            TEXT PRIMARY KEY,
        title         TEXT NOT NULL,
        working_dir   TEXT NOT NULL,
        created_at    INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL,
        active_branch TEXT NOT NULL,
        status        TEXT NOT NULL,   -- state kind, indexed for recovery
        status_json   TEXT NOT NULL,   -- ContextStatus, for the context list
        state_json    TEXT NOT NULL    -- the whole ContextState
    );
    CREATE INDEX contexts_status ON contexts(status);
    CREATE TABLE branches (
        context_id    TEXT NOT NULL REFERENCES contexts(id) ON DELETE CASCADE,
        id            TEXT NOT NULL,
        name          TEXT NOT NULL,
        parent        TEXT,
        fork_point    INTEGER,
        system_prompt TEXT,
        pipeline_json TEXT,
        created_at    INTEGER NOT NULL,
        PRIMARY KEY (context_id, id)
    ) WITHOUT ROWID;
    CREATE TABLE messages (
        context_id     TEXT NOT NULL REFERENCES contexts(id) ON DELETE CASCADE,
        id             INTEGER NOT NULL,
        kind           TEXT NOT NULL,
        role           TEXT,
        created_at     INTEGER NOT NULL,
        schema_version INTEGER NOT NULL,
        json           TEXT NOT NULL,
        PRIMARY KEY (context_id, id)
    ) WITHOUT ROWID;
    CREATE TABLE branch_messages (
        context_id TEXT NOT NULL,
        branch_id  TEXT NOT NULL,
        position   INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (context_id, branch_id, position),
        FOREIGN KEY (context_id, branch_id) REFERENCES branches(context_id, id) ON DELETE CASCADE
    ) WITHOUT ROWID;
    "#,
    // 2: a conversation's own model choice (JSON ModelChoice; NULL = the default).
    "ALTER TABLE contexts ADD COLUMN model_json TEXT;",
    // 3: a branch's own model choice (JSON ModelChoice; NULL = the conversation's).
    "ALTER TABLE branches ADD COLUMN model_json TEXT;",
    // 4: what the agent read and wrote, per conversation (file freshness):
    // times in ms since the epoch, hash as the bits
    // of a u64, mtime and ctime (status change) in ns.
    r#"
    CREATE TABLE file_records (
        context_id  TEXT NOT NULL REFERENCES contexts(id) ON DELETE CASCADE,
        path        TEXT NOT NULL,
        read_at     INTEGER,
        edit_at     INTEGER,
        mtime_ns    INTEGER,
        size        INTEGER NOT NULL,
        hash        INTEGER NOT NULL,
        ctime_ns    INTEGER,
        last_access INTEGER NOT NULL,
        PRIMARY KEY (context_id, path)
    ) WITHOUT ROWID;
    "#,
    // 5: pinned conversations, and full-text search over the text of the
    // questions and answers (FTS5 over a table the triggers keep, so a
    // message leaving the pool leaves the index), filled for what exists.
    // A row whose JSON is unreadable is left out, never an error: loading
    // reports it, with the context it is in.
    r#"
    ALTER TABLE contexts ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE message_text (
        rowid      INTEGER PRIMARY KEY,
        context_id TEXT NOT NULL,
        message_id INTEGER NOT NULL,
        text       TEXT NOT NULL,
        UNIQUE (context_id, message_id)
    );
    CREATE VIRTUAL TABLE message_search USING fts5(
        text, content = 'message_text', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER message_text_added AFTER INSERT ON message_text BEGIN
        INSERT INTO message_search (rowid, text) VALUES (new.rowid, new.text);
    END;
    CREATE TRIGGER message_text_removed AFTER DELETE ON message_text BEGIN
        INSERT INTO message_search (message_search, rowid, text) VALUES ('delete', old.rowid, old.text);
    END;
    CREATE TRIGGER message_added AFTER INSERT ON messages WHEN new.kind = 'text' BEGIN
        INSERT INTO message_text (context_id, message_id, text)
        SELECT new.context_id, new.id, coalesce(group_concat(json_extract(p.value, '$.text'), ''), '')
        FROM json_each(iif(json_valid(new.json), new.json, '{}'), '$.body.parts') AS p GROUP BY new.id;
    END;
    CREATE TRIGGER message_changed AFTER UPDATE OF json ON messages BEGIN
        DELETE FROM message_text WHERE context_id = old.context_id AND message_id = old.id;
        INSERT INTO message_text (context_id, message_id, text)
        SELECT new.context_id, new.id, coalesce(group_concat(json_extract(p.value, '$.text'), ''), '')
        FROM json_each(iif(json_valid(new.json), new.json, '{}'), '$.body.parts') AS p WHERE new.kind = 'text' GROUP BY new.id;
    END;
    CREATE TRIGGER message_removed AFTER DELETE ON messages BEGIN
        DELETE FROM message_text WHERE context_id = old.context_id AND message_id = old.id;
    END;
    INSERT INTO message_text (context_id, message_id, text)
    SELECT m.context_id, m.id,
           (SELECT coalesce(group_concat(json_extract(p.value, '$.text'), ''), '') FROM json_each(iif(json_valid(m.json), m.json, '{}'), '$.body.parts') AS p)
    FROM messages m WHERE m.kind = 'text' AND json_valid(m.json);
    "#,
    // 6: checkpoints, what each turn (or the user between turns, or a
    // restore) changed in the workspace; the contents are in the
    // checkpoint store's folder, named by hash.
    r#"
    CREATE TABLE checkpoints (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        context_id TEXT NOT NULL REFERENCES contexts(id) ON DELETE CASCADE,
        message_id INTEGER NOT NULL,
        json       TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX checkpoints_by_context ON checkpoints (context_id, id);
    "#,
    // 7: a branch's own copy of the workspace (NULL: the conversation's
    // folder).
    "ALTER TABLE branches ADD COLUMN folder TEXT;",
    // 8: counts of messages by a model's own tokenizer (asked of its
    // server once per message and model), so a long conversation is not
    // counted again after a restart. `text_len` tells a message changed
    // since (an image read again).
    r#"
    CREATE TABLE model_counts (
        context_id TEXT NOT NULL REFERENCES contexts(id) ON DELETE CASCADE,
        model      TEXT NOT NULL,
        message_id INTEGER NOT NULL,
        text_len   INTEGER NOT NULL,
        count      INTEGER NOT NULL,
        PRIMARY KEY (context_id, model, message_id)
    ) WITHOUT ROWID;
    "#,
];

pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

pub fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let found: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::FutureSchema { found, known: SCHEMA_VERSION });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = crate::write_transaction(conn)?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as u32 + 1)?;
        tx.commit()?;
        tracing::info!(version = i + 1, "database migrated");
    }
    Ok(())
}
