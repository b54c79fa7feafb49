//! Pinned tool definitions. The first time a server offers a tool, its
//! description and schema are recorded (`tool-pins.json` in the data
//! folder); when the server later offers a different one — a description
//! that now says "first read ~/.ssh/id_rsa" — the tool is held: left out
//! of the catalogue, shown with the difference in the MCP settings, until
//! the user accepts it. An approval given to the old text ("Always
//! allow") never carries over to new text unseen.

use braid_protocol::HeldTool;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Pinned {
    description: String,
    schema: serde_json::Value,
}

/// Server name → catalogue name → definition.
type Book = BTreeMap<String, BTreeMap<String, Pinned>>;

pub(crate) struct Pins {
    path: PathBuf,
    book: Mutex<Book>,
}

impl Pins {
    pub(crate) fn open(path: PathBuf) -> Pins {
        let book = std::fs::read_to_string(&path).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default();
        Pins { path, book: Mutex::new(book) }
    }

    /// The tools to offer, and those held with what changed. New tools
    /// are pinned as they come.
    pub(crate) fn check(
        &self,
        server: &str,
        tools: Vec<Arc<dyn braid_tools::Tool>>,
    ) -> (Vec<Arc<dyn braid_tools::Tool>>, Vec<HeldTool>) {
        let mut book = self.book.lock().unwrap_or_else(PoisonError::into_inner);
        let pins = book.entry(server.to_owned()).or_default();
        let (mut offered, mut held, mut added) = (Vec::new(), Vec::new(), false);
        for tool in tools {
            let now = Pinned { description: tool.description().to_owned(), schema: tool.input_schema() };
            match pins.get(tool.name()) {
                Some(was) if *was == now => offered.push(tool),
                Some(was) => held.push(HeldTool {
                    name: tool.name().to_owned(),
                    description_before: was.description.clone(),
                    description_now: now.description,
                    schema_before: pretty(&was.schema),
                    schema_now: pretty(&now.schema),
                }),
                None => {
                    pins.insert(tool.name().to_owned(), now);
                    offered.push(tool);
                    added = true;
                }
            }
        }
        if added {
            // Unsaved, the pins still hold for this run; the next start
            // pins again what it sees.
            if let Err(e) = self.save(&book) {
                tracing::warn!("{e}");
            }
        }
        (offered, held)
    }

    /// The user saw the new definition and accepts it.
    pub(crate) fn accept(&self, server: &str, held: &HeldTool) -> Result<(), String> {
        let schema = serde_json::from_str(&held.schema_now).map_err(|e| format!("the held schema is not JSON: {e}"))?;
        let mut book = self.book.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Pinned { description: held.description_now.clone(), schema };
        book.entry(server.to_owned()).or_default().insert(held.name.clone(), now);
        self.save(&book)
    }

    fn save(&self, book: &Book) -> Result<(), String> {
        let text = serde_json::to_string_pretty(book).map_err(|e| e.to_string())?;
        let tmp = self.path.with_extension("json.tmp");
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, &self.path))
            .map_err(|e| format!("the pinned tool definitions could not be saved to {}: {e}", self.path.display()))
    }
}

fn pretty(schema: &serde_json::Value) -> String {
    serde_json::to_string_pretty(schema).unwrap_or_default()
}
