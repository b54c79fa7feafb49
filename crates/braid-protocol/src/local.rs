//! The built-in model's shelf as clients see and edit it: the GGUF files
//! Braid runs in-process, which one answers when no provider is set up,
//! and how it runs (its window and threads).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A GGUF file on the shelf.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LocalModel {
    /// The file name, which is how the model is named.
    pub name: String,
    /// "SmolLM2-135M-Instruct (Q4_1)".
    pub label: String,
    pub bytes: u64,
    /// The one that answers.
    pub default: bool,
    /// Shipped with Braid (the installed package's starter): it cannot be
    /// removed, only replaced as the default.
    pub bundled: bool,
    /// Another app's file run in place (a link): removing it from the
    /// shelf leaves the file.
    #[serde(default)]
    pub linked: bool,
    /// What it would take at the window set, from its header.
    #[serde(default)]
    pub memory: Option<MemoryEstimate>,
    /// Why its header cannot be read (a crafted or cut-short file): it is
    /// not loaded, and cannot be made the default.
    #[serde(default)]
    pub unreadable: Option<String>,
}

/// Memory a model needs before it is loaded (weights, KV cache for the
/// window, compute buffers), and how that fits what is free.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MemoryEstimate {
    pub bytes: u64,
    pub fit: MemoryFit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum MemoryFit {
    /// With a quarter of the free memory to spare.
    Fits,
    /// Within the free memory, with little left for anything else.
    Tight,
    TooBig,
}

/// A GGUF file another app on this machine keeps (LM Studio, Jan,
/// Ollama), which Braid can run in place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct FoundModel {
    /// "LM Studio", "Jan" or "Ollama".
    pub app: String,
    /// Its name once on the shelf.
    pub name: String,
    pub path: String,
    pub bytes: u64,
    /// Already on the shelf (linked or imported).
    pub on_shelf: bool,
    #[serde(default)]
    pub memory: Option<MemoryEstimate>,
    /// Why its header cannot be read: it is listed, never offered.
    #[serde(default)]
    pub unreadable: Option<String>,
}

/// How the built-in model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LocalModelSettings {
    /// Tokens in the window (a model trained on fewer gets its own).
    pub context: u32,
    /// CPU threads for reading the prompt and writing the answer.
    pub threads: u32,
    /// Minutes without a question after which the model leaves memory,
    /// loaded again by the next one (0: it stays).
    #[serde(default = "LocalModelSettings::default_unload")]
    pub unload_after_minutes: u32,
    /// Layers run on the GPU (0: all on the CPU), where this build has a
    /// GPU backend (`LocalModelsView::gpu`).
    #[serde(default)]
    pub gpu_layers: u32,
}

impl LocalModelSettings {
    /// The smallest and largest window offered.
    pub const CONTEXT_RANGE: (u32, u32) = (512, 131_072);
    /// A day, at most.
    pub const MAX_UNLOAD_MINUTES: u32 = 24 * 60;

    pub fn default_unload() -> u32 {
        30
    }

    /// Why these settings cannot be used on a machine with `cores` cores.
    pub fn check(&self, cores: u32) -> Result<(), String> {
        let (lo, hi) = Self::CONTEXT_RANGE;
        if !(lo..=hi).contains(&self.context) {
            return Err(format!("the window must be {lo} to {hi} tokens, not {}", self.context));
        }
        if !(1..=cores.max(1)).contains(&self.threads) {
            return Err(format!("threads must be 1 to {} (this machine's cores), not {}", cores.max(1), self.threads));
        }
        if self.unload_after_minutes > Self::MAX_UNLOAD_MINUTES {
            return Err(format!(
                "unload after at most {} minutes (a day), or 0 to keep the model loaded",
                Self::MAX_UNLOAD_MINUTES
            ));
        }
        Ok(())
    }
}

/// The shelf: answered by every command that reads or changes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LocalModelsView {
    /// The folder imported models are copied to.
    pub dir: String,
    pub models: Vec<LocalModel>,
    pub settings: LocalModelSettings,
    /// Fitted to this machine: what "Reset" goes back to.
    pub defaults: LocalModelSettings,
    pub cores: u32,
    /// Models other apps downloaded, found where they keep them.
    #[serde(default)]
    pub found: Vec<FoundModel>,
    /// This build offloads layers to a GPU (built with a GPU backend and
    /// a device found).
    #[serde(default)]
    pub gpu: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_outside_the_machine_or_the_range_are_refused_with_the_range() {
        let ok = LocalModelSettings { context: 4096, threads: 2, unload_after_minutes: 30, gpu_layers: 0 };
        assert_eq!(ok.check(2), Ok(()));
        let e = LocalModelSettings { threads: 3, ..ok }.check(2).unwrap_err();
        assert!(e.contains("1 to 2"), "{e}");
        assert!(LocalModelSettings { threads: 0, ..ok }.check(2).is_err());
        let e = LocalModelSettings { context: 100, ..ok }.check(2).unwrap_err();
        assert!(e.contains("512 to 131072"), "{e}");
        assert!(LocalModelSettings { context: 131_073, ..ok }.check(2).is_err());
        let e = LocalModelSettings { unload_after_minutes: 1441, ..ok }.check(2).unwrap_err();
        assert!(e.contains("at most 1440 minutes"), "{e}");
        let old: LocalModelSettings = serde_json::from_str(r#"{"context":2048,"threads":1}"#).unwrap();
        assert_eq!((old.unload_after_minutes, old.gpu_layers), (30, 0), "settings saved before these fields read");
    }
}
