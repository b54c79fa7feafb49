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
];

pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

pub fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let found: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::FutureSchema { found, known: SCHEMA_VERSION });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as u32 + 1)?;
        tx.commit()?;
        tracing::info!(version = i + 1, "database migrated");
    }
    Ok(())
}
