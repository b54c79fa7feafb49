//! Results too large for the model's window: the whole text is saved in
//! the app's data folder and the model gets its head and how to read the
//! rest in ranges, with `read_mcp_result`.

use crate::{failure, success, Tool, ToolContext};
use braid_core::machine::ToolOutcome;
use braid_protocol::Permission;
use futures::future::BoxFuture;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// About 25,000 tokens at four characters a token.
pub const DEFAULT_CAP_CHARS: usize = 100_000;
/// What the model sees of an overflowing result at first.
const HEAD_CHARS: usize = 8_000;
/// The most one read returns.
const MAX_READ: usize = 40_000;

#[derive(Debug, Clone)]
pub struct ResultStore {
    dir: PathBuf,
    cap: usize,
}

impl ResultStore {
    pub fn new(dir: PathBuf, cap: usize) -> ResultStore {
        ResultStore { dir, cap }
    }

    /// `text` as it is when it fits under the cap; otherwise saved, and its
    /// head with the way to read on.
    pub fn fit(&self, text: String) -> String {
        let chars = text.chars().count();
        if chars <= self.cap {
            return text;
        }
        let id: String = Sha256::digest(text.as_bytes()).iter().take(8).map(|b| format!("{b:02x}")).collect();
        let saved =
            std::fs::create_dir_all(&self.dir).and_then(|_| std::fs::write(self.dir.join(format!("{id}.txt")), &text));
        let head: String = text.chars().take(HEAD_CHARS).collect();
        match saved {
            Ok(()) => format!(
                "{head}\n\n[The result is {chars} characters (about {} tokens), more than fits: the first {HEAD_CHARS} are \
                 above. Read on with read_mcp_result {{\"id\": \"{id}\", \"offset\": {HEAD_CHARS}, \"length\": 20000}}.]",
                chars / 4
            ),
            Err(e) => format!("{head}\n\n[The result is {chars} characters; only the first {HEAD_CHARS} are shown (it could not be saved: {e}).]"),
        }
    }

    fn read(&self, id: &str, offset: usize, length: usize) -> Result<String, String> {
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!("{id:?} is not a result id; use the id the cut result gave"));
        }
        let text = std::fs::read_to_string(self.dir.join(format!("{id}.txt")))
            .map_err(|_| format!("there is no saved result {id}"))?;
        let total = text.chars().count();
        if offset >= total {
            return Err(format!("the result has {total} characters; offset {offset} is past its end"));
        }
        let part: String = text.chars().skip(offset).take(length.min(MAX_READ)).collect();
        let end = offset + part.chars().count();
        Ok(format!("[characters {offset}–{end} of {total}]\n{part}"))
    }
}

/// Reads a saved, too-large MCP result in ranges.
pub struct ReadMcpResult(pub ResultStore);

impl Tool for ReadMcpResult {
    fn name(&self) -> &str {
        "read_mcp_result"
    }
    fn description(&self) -> &str {
        "Read part of an MCP tool result that was too large to show whole: give the id it named, the character offset to start at, and how many characters (at most 40000)."
    }
    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "id": { "type": "string", "description": "The id the cut result named" },
                "offset": { "type": "integer", "minimum": 0, "description": "First character to read" },
                "length": { "type": "integer", "minimum": 1, "maximum": MAX_READ, "description": "How many characters" }
            },
            "required": ["id", "offset"]
        })
    }
    fn permission(&self) -> Permission {
        Permission::Read
    }
    fn examples(&self) -> Vec<Value> {
        vec![json!({ "id": "3f2a9c1d0b7e6a55", "offset": 8000, "length": 20000 })]
    }
    fn run<'a>(&'a self, args: Value, _ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        Box::pin(async move {
            let id = args.get("id").and_then(Value::as_str).unwrap_or_default();
            let offset = args.get("offset").and_then(Value::as_u64).unwrap_or(0) as usize;
            let length = args.get("length").and_then(Value::as_u64).unwrap_or(20_000) as usize;
            match self.0.read(id, offset, length) {
                Ok(text) => success(text),
                Err(e) => failure(e),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_result_over_the_cap_is_saved_and_read_in_ranges() {
        let dir = tempfile::tempdir().unwrap();
        let store = ResultStore::new(dir.path().to_owned(), 10_000);
        assert_eq!(store.fit("small".into()), "small");
        let big: String = (0..3000).map(|i| format!("{i:04} ")).collect();
        let cut = store.fit(big.clone());
        assert!(cut.starts_with("0000 0001") && cut.len() < 9_000, "{}", &cut[cut.len() - 200..]);
        let id = cut.split("\"id\": \"").nth(1).unwrap().split('"').next().unwrap();
        let part = store.read(id, 8_000, 10).unwrap();
        assert_eq!(part, format!("[characters 8000–8010 of 15000]\n{}", &big[8_000..8_010]));
        assert!(store.read(id, 20_000, 5).unwrap_err().contains("past its end"));
        assert!(store.read("../../etc/passwd", 0, 5).unwrap_err().contains("not a result id"));
    }
}
