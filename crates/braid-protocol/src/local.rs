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
}

/// How the built-in model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LocalModelSettings {
    /// Tokens in the window (a model trained on fewer gets its own).
    pub context: u32,
    /// CPU threads for reading the prompt and writing the answer.
    pub threads: u32,
}

impl LocalModelSettings {
    /// The smallest and largest window offered.
    pub const CONTEXT_RANGE: (u32, u32) = (512, 131_072);

    /// Why these settings cannot be used on a machine with `cores` cores.
    pub fn check(&self, cores: u32) -> Result<(), String> {
        let (lo, hi) = Self::CONTEXT_RANGE;
        if !(lo..=hi).contains(&self.context) {
            return Err(format!("the window must be {lo} to {hi} tokens, not {}", self.context));
        }
        if !(1..=cores.max(1)).contains(&self.threads) {
            return Err(format!("threads must be 1 to {} (this machine's cores), not {}", cores.max(1), self.threads));
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_outside_the_machine_or_the_range_are_refused_with_the_range() {
        let ok = LocalModelSettings { context: 4096, threads: 2 };
        assert_eq!(ok.check(2), Ok(()));
        let e = LocalModelSettings { threads: 3, ..ok }.check(2).unwrap_err();
        assert!(e.contains("1 to 2"), "{e}");
        assert!(LocalModelSettings { threads: 0, ..ok }.check(2).is_err());
        let e = LocalModelSettings { context: 100, ..ok }.check(2).unwrap_err();
        assert!(e.contains("512 to 131072"), "{e}");
        assert!(LocalModelSettings { context: 131_073, ..ok }.check(2).is_err());
    }
}
