//! The models folder: GGUF files the built-in model can run (the starter
//! put there by the set-up step, and any the user imports), and which one
//! is the default (named in the folder's `default` file).

use std::path::{Path, PathBuf};

/// The starter model's file name (SmolLM2-135M-Instruct, Q4_1).
pub const STARTER: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";

/// The file naming the default model.
const DEFAULT: &str = "default";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFile {
    /// The file name, which is how the model is named.
    pub name: String,
    pub path: PathBuf,
    pub bytes: u64,
}

/// The GGUF files in `dir`, by name.
pub fn list(dir: &Path) -> Vec<ModelFile> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<ModelFile> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let meta = e.metadata().ok()?;
            (meta.is_file() && name.to_ascii_lowercase().ends_with(".gguf")).then(|| ModelFile {
                path: e.path(),
                bytes: meta.len(),
                name,
            })
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The model to run: the one `default` names, else the starter, else the
/// first there is.
pub fn choose(dir: &Path) -> Option<ModelFile> {
    let all = list(dir);
    let named = std::fs::read_to_string(dir.join(DEFAULT)).ok().map(|t| t.trim().to_owned());
    let pick = |name: &str| all.iter().find(|m| m.name == name).cloned();
    named.as_deref().and_then(pick).or_else(|| pick(STARTER)).or_else(|| all.first().cloned())
}

/// Makes `name` (a file in `dir`) the default.
pub fn set_default(dir: &Path, name: &str) -> Result<(), String> {
    if !list(dir).iter().any(|m| m.name == name) {
        return Err(format!("there is no model {name:?} in {}", dir.display()));
    }
    std::fs::write(dir.join(DEFAULT), name).map_err(|e| format!("could not save the default model: {e}"))
}

/// A short label for a model file: "SmolLM2-135M-Instruct (Q4_1)".
pub fn label(name: &str) -> String {
    let stem = name.strip_suffix(".gguf").unwrap_or(name);
    match stem.rsplit_once('.') {
        Some((model, quant)) if quant.starts_with(['Q', 'q', 'F', 'f', 'I']) => format!("{model} ({quant})"),
        _ => stem.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn the_default_is_the_one_named_else_the_starter_else_the_first() {
        let dir = std::env::temp_dir().join(format!("braid-models-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(choose(&dir), None);
        std::fs::write(dir.join("b.gguf"), "bb").unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        assert_eq!(choose(&dir).unwrap().name, "b.gguf");
        std::fs::write(dir.join(STARTER), "s").unwrap();
        assert_eq!(choose(&dir).unwrap().name, STARTER);
        set_default(&dir, "b.gguf").unwrap();
        assert_eq!(choose(&dir).unwrap().name, "b.gguf");
        assert!(set_default(&dir, "nope.gguf").unwrap_err().contains("no model"));
        let listed = list(&dir);
        let names: Vec<(&str, u64)> = listed.iter().map(|m| (m.name.as_str(), m.bytes)).collect();
        assert_eq!(names, [(STARTER, 1), ("b.gguf", 2)]);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(label(STARTER), "SmolLM2-135M-Instruct (Q4_1)");
        assert_eq!(label("mistral-7b-instruct.Q5_K_M.gguf"), "mistral-7b-instruct (Q5_K_M)");
    }
}
