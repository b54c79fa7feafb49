//! The model hub as clients see it: GGUF repositories found on Hugging
//! Face (or the mirror the user sets), the files each offers with what
//! they would take in memory here, the models recommended for this
//! machine, and downloads onto the built-in model's shelf.

use crate::local::{MemoryEstimate, MemoryFit};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A repository found by a search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HubModel {
    /// "owner/name".
    pub repo: String,
    pub downloads: u64,
    pub likes: u64,
    /// "apache-2.0", as the repository states it.
    pub licence: Option<String>,
    /// Its licence must be accepted on the hub before it can be fetched.
    pub gated: bool,
    /// When it last changed (ISO 8601), where the hub says.
    pub updated: Option<String>,
}

/// One repository's GGUF files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HubRepo {
    pub repo: String,
    pub licence: Option<String>,
    pub gated: bool,
    pub files: Vec<HubFile>,
    /// Why the files carry no memory estimate, when they do not.
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct HubFile {
    /// Its path in the repository.
    pub file: String,
    pub bytes: u64,
    /// The repository's SHA-256 of it, checked before it is offered.
    pub sha256: Option<String>,
    /// "Q4_K_M", read from its name.
    pub quant: Option<String>,
    /// At the built-in model's window, against the memory free now.
    pub memory: Option<MemoryEstimate>,
    /// A file of this name is on the shelf already.
    pub on_shelf: bool,
}

/// What Braid reads of this machine to choose models for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MachineShape {
    pub memory: u64,
    pub available: u64,
    pub cores: u32,
    /// A GPU's own memory, where one is found.
    pub gpu_memory: Option<u64>,
}

/// A model Braid suggests, from a short list chosen for their answers at
/// their size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Recommended {
    pub repo: String,
    pub file: String,
    /// "Qwen2.5 1.5B Instruct".
    pub label: String,
    /// What it is good for, in a few words.
    pub about: String,
    pub bytes: u64,
    pub fit: MemoryFit,
    /// Slower than a reader reads on this machine's cores.
    pub slow: bool,
    /// The one Braid would choose here.
    pub pick: bool,
    pub on_shelf: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Recommendations {
    pub machine: MachineShape,
    pub models: Vec<Recommended>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum DownloadState {
    /// Waiting for another download to finish.
    Queued,
    Running,
    /// Checking the whole file against the repository's checksum.
    Verifying,
    /// Stopped by the user; what came stays and the rest follows on Resume.
    Paused,
    /// Stopped by an error it names; Resume tries again.
    Failed,
    /// On the shelf.
    Done,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Download {
    pub id: String,
    pub repo: String,
    pub file: String,
    /// Its name on the shelf.
    pub name: String,
    pub bytes: u64,
    /// Bytes on disk so far.
    pub done: u64,
    /// Bytes per second over the last seconds (0 when not running).
    pub speed: u64,
    pub eta_seconds: Option<u64>,
    pub state: DownloadState,
    pub error: Option<String>,
    /// Becomes the model that answers once it is on the shelf.
    pub use_when_done: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DownloadsView {
    /// The hub searched and downloaded from.
    pub endpoint: String,
    pub downloads: Vec<Download>,
}

impl DownloadsView {
    /// The hub Braid uses unless the user sets another.
    pub const DEFAULT_ENDPOINT: &'static str = "https://huggingface.co";
}
