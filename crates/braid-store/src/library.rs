//! Finding conversations again: pins, and full-text search (SQLite FTS5)
//! over titles and the text of questions and answers.

use crate::{Store, StoreError};
use braid_protocol::{BranchId, ContextId, MessageId, Timestamp};
use rusqlite::params;

/// Where a match sits in a snippet: the text between these marks matched.
pub const HIT_START: char = '\u{2}';
pub const HIT_END: char = '\u{3}';

/// One match: a conversation's title (no message), or a message in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRow {
    pub context_id: ContextId,
    pub title: String,
    pub message_id: Option<MessageId>,
    /// A branch holding the message (the one in use when it does).
    pub branch: Option<BranchId>,
    /// The matching words with some around them, hits between
    /// [`HIT_START`] and [`HIT_END`].
    pub snippet: String,
    pub at: Timestamp,
}

impl Store {
    /// Titles that contain `query`, then the messages that hold all its
    /// words (the last may be the start of a word), best first; at most
    /// `limit` in all.
    pub fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchRow>, StoreError> {
        let Some(fts) = fts_query(query) else { return Ok(Vec::new()) };
        let limit = limit.clamp(1, 200) as i64;
        let mut out = Vec::new();
        let like = format!("%{}%", query.trim().replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
        let mut titles = self.conn.prepare_cached(
            "SELECT id, title, updated_at FROM contexts WHERE title LIKE ?1 ESCAPE '\\' ORDER BY updated_at DESC LIMIT ?2",
        )?;
        for row in titles.query_map(params![like, limit], |r| {
            let title: String = r.get(1)?;
            Ok(SearchRow {
                context_id: ContextId(r.get(0)?),
                snippet: mark(&title, query.trim()),
                title,
                message_id: None,
                branch: None,
                at: Timestamp(r.get(2)?),
            })
        })? {
            out.push(row?);
        }
        let mut messages = self.conn.prepare_cached(
            "SELECT t.context_id, c.title, t.message_id,
                    (SELECT bm.branch_id FROM branch_messages bm
                     WHERE bm.context_id = t.context_id AND bm.message_id = t.message_id
                     ORDER BY bm.branch_id = c.active_branch DESC LIMIT 1),
                    snippet(message_search, 0, char(2), char(3), '…', 16), m.created_at
             FROM message_search
             JOIN message_text t ON t.rowid = message_search.rowid
             JOIN contexts c ON c.id = t.context_id
             JOIN messages m ON m.context_id = t.context_id AND m.id = t.message_id
             WHERE message_search MATCH ?1
             ORDER BY rank LIMIT ?2",
        )?;
        let left = limit - out.len() as i64;
        for row in messages.query_map(params![fts, left], |r| {
            Ok(SearchRow {
                context_id: ContextId(r.get(0)?),
                title: r.get(1)?,
                message_id: Some(MessageId(r.get(2)?)),
                branch: r.get::<_, Option<String>>(3)?.map(BranchId),
                snippet: r.get(4)?,
                at: Timestamp(r.get(5)?),
            })
        })? {
            out.push(row?);
        }
        Ok(out)
    }
}

/// The user's words as an FTS5 query: each a quoted phrase (so no word is
/// read as an operator), all required, the last also as a prefix (so the
/// list narrows while typing). `None` when there is no word.
fn fts_query(query: &str) -> Option<String> {
    let words: Vec<String> = query.split_whitespace().map(|w| format!("\"{}\"", w.replace('"', "\"\""))).collect();
    let (last, rest) = words.split_last()?;
    Some(rest.iter().cloned().chain([format!("{last}*")]).collect::<Vec<_>>().join(" "))
}

/// `title` with the first case-insensitive occurrence of `query` marked.
fn mark(title: &str, query: &str) -> String {
    let lower = title.to_lowercase();
    let whole = |at: &usize| {
        lower.len() == title.len() && title.is_char_boundary(*at) && title.is_char_boundary(*at + query.len())
    };
    match lower.find(&query.to_lowercase()).filter(whole) {
        Some(at) => {
            let end = at + query.len();
            format!("{}{HIT_START}{}{HIT_END}{}", &title[..at], &title[at..end], &title[end..])
        }
        None => title.to_owned(),
    }
}
