//! The models folder: GGUF files the built-in model can run (the starter
//! put there by the set-up step, and any the user imports), beside the
//! read-only folders a package ships (the installed app's starter); which
//! one is the default (named in the folder's `default` file); and how the
//! model runs (`settings.json`).

use braid_protocol::LocalModelSettings;
use std::path::{Path, PathBuf};

/// The starter model's file name (SmolLM2-135M-Instruct, Q4_1).
pub const STARTER: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";

/// The file naming the default model.
const DEFAULT: &str = "default";
/// The file holding the window and threads the user chose.
const SETTINGS: &str = "settings.json";
/// Every layer on the GPU (llama.cpp takes as many as the model has).
pub const ALL_LAYERS: u32 = 999;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFile {
    /// The file name, which is how the model is named.
    pub name: String,
    pub path: PathBuf,
    pub bytes: u64,
    /// In a folder that ships with Braid, not the user's.
    pub bundled: bool,
    /// A link to another app's file, run in place.
    pub linked: bool,
}

/// The GGUF files of one folder, by name.
fn list_one(dir: &Path, bundled: bool) -> Vec<ModelFile> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut out: Vec<ModelFile> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let meta = std::fs::metadata(e.path()).ok()?;
            let linked = e.file_type().is_ok_and(|t| t.is_symlink());
            (meta.is_file() && is_gguf_name(&name)).then(|| ModelFile {
                path: e.path(),
                bytes: meta.len(),
                name,
                bundled,
                linked,
            })
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn is_gguf_name(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".gguf")
}

/// The user's models in `dir`, then those of the `bundled` folders that
/// no file of the same name hides.
pub fn list(dir: &Path, bundled: &[PathBuf]) -> Vec<ModelFile> {
    let mut all = list_one(dir, false);
    for b in bundled {
        for m in list_one(b, true) {
            if !all.iter().any(|a| a.name == m.name) {
                all.push(m);
            }
        }
    }
    all
}

/// The model to run: the one `default` names, else the starter, else the
/// first there is.
pub fn choose(dir: &Path, bundled: &[PathBuf]) -> Option<ModelFile> {
    choose_from(dir, &list(dir, bundled)).cloned()
}

/// As [`choose`], among models already listed.
pub fn choose_from<'a>(dir: &Path, all: &'a [ModelFile]) -> Option<&'a ModelFile> {
    let named = default_name(dir);
    let pick = |name: &str| all.iter().find(|m| m.name == name);
    named.as_deref().and_then(pick).or_else(|| pick(STARTER)).or_else(|| all.first())
}

fn default_name(dir: &Path) -> Option<String> {
    std::fs::read_to_string(dir.join(DEFAULT)).ok().map(|t| t.trim().to_owned())
}

/// Makes `name` (a model on the shelf) the default.
pub fn set_default(dir: &Path, bundled: &[PathBuf], name: &str) -> Result<(), String> {
    let Some(model) = list(dir, bundled).into_iter().find(|m| m.name == name) else {
        return Err(format!("there is no model {name:?} in {}", dir.display()));
    };
    readable(&model.path)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("could not make {}: {e}", dir.display()))?;
    std::fs::write(dir.join(DEFAULT), name).map_err(|e| format!("could not save the default model: {e}"))
}

/// Copies the GGUF file `from` into `dir` under its own name: linked when
/// the two share a file system (instant, whatever the size), else copied
/// to a `.part` file renamed when whole, so a half copy is never listed.
pub fn import(dir: &Path, bundled: &[PathBuf], from: &Path) -> Result<ModelFile, String> {
    let shown = from.display();
    let name = from.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if !from.is_file() {
        return Err(format!("{shown} is not a file"));
    }
    if !is_gguf_name(&name) {
        return Err(format!("{shown} is not a .gguf file: Braid runs models in the GGUF format"));
    }
    readable(from)?;
    if list(dir, bundled).iter().any(|m| m.name == name) {
        return Err(format!("a model named {name} is already there; rename the file to import it too"));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("could not make {}: {e}", dir.display()))?;
    let target = dir.join(&name);
    if std::fs::hard_link(from, &target).is_err() {
        let part = dir.join(format!("{name}.part"));
        let copied = std::fs::copy(from, &part).and_then(|_| std::fs::rename(&part, &target));
        if let Err(e) = copied {
            let _ = std::fs::remove_file(&part);
            return Err(format!("could not copy {shown} into {}: {e}", dir.display()));
        }
    }
    let bytes = std::fs::metadata(&target).map_or(0, |m| m.len());
    Ok(ModelFile { name, path: target, bytes, bundled: false, linked: false })
}

/// Refuses a file whose header Braid cannot read (not GGUF, crafted, cut
/// short), in the header reader's words: llama.cpp would fail on it with
/// "null result", so it is never put on the shelf or made the default.
pub(crate) fn readable(from: &Path) -> Result<(), String> {
    crate::gguf::Shape::read(from).map(drop)
}

/// Puts another app's GGUF file `from` on the shelf in place: a link named
/// `name`, so nothing is copied and removing it leaves the file.
pub fn link(dir: &Path, bundled: &[PathBuf], from: &Path, name: &str) -> Result<ModelFile, String> {
    let shown = from.display();
    readable(from)?;
    if name.contains(['/', '\\']) || !is_gguf_name(name) {
        return Err(format!("{name:?} is not a model file name"));
    }
    if list(dir, bundled).iter().any(|m| m.name == name) {
        return Err(format!("a model named {name} is already on the shelf"));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("could not make {}: {e}", dir.display()))?;
    let target = dir.join(name);
    let from = std::fs::canonicalize(from).map_err(|e| format!("could not read {shown}: {e}"))?;
    link_file(&from, &target).map_err(|e| format!("could not link {shown} into {}: {e}", dir.display()))?;
    let bytes = std::fs::metadata(&target).map_or(0, |m| m.len());
    Ok(ModelFile { name: name.to_owned(), path: target, bytes, bundled: false, linked: true })
}

#[cfg(unix)]
fn link_file(from: &Path, to: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(from, to)
}

#[cfg(not(unix))]
fn link_file(from: &Path, to: &Path) -> std::io::Result<()> {
    std::os::windows::fs::symlink_file(from, to)
}

/// Deletes the user's model `name` (one that ships with Braid stays); the
/// default goes back to the starter if it named it.
pub fn remove(dir: &Path, bundled: &[PathBuf], name: &str) -> Result<(), String> {
    let Some(model) = list(dir, bundled).into_iter().find(|m| m.name == name) else {
        return Err(format!("there is no model {name:?} to remove"));
    };
    if model.bundled {
        return Err(format!("{name} ships with Braid and stays; choose another model as the default instead"));
    }
    std::fs::remove_file(&model.path).map_err(|e| format!("could not remove {name}: {e}"))?;
    if default_name(dir).as_deref() == Some(name) {
        let _ = std::fs::remove_file(dir.join(DEFAULT));
    }
    Ok(())
}

/// A window of 4,096 tokens and a thread per core but one, at most 8. The
/// core left keeps the machine's other work going, and keeps the model's
/// own pace when that work is busy: llama.cpp's threads wait for each
/// other at every step, so one thread that loses its core stalls them all
/// (on 2 cores, both threads beside a busy build wrote 8× slower than
/// idle; one thread, as fast as idle — docs/PERFORMANCE.md).
pub fn fitted() -> LocalModelSettings {
    LocalModelSettings {
        context: 4096,
        threads: cores().saturating_sub(1).clamp(1, 8),
        unload_after_minutes: LocalModelSettings::default_unload(),
        gpu_layers: if crate::engine::gpu_offload() { ALL_LAYERS } else { 0 },
    }
}

pub fn cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u32)
}

/// The saved settings, else those fitted to the machine (also when the
/// saved ones no longer fit it, as after moving to a smaller machine).
pub fn settings(dir: &Path) -> LocalModelSettings {
    std::fs::read(dir.join(SETTINGS))
        .ok()
        .and_then(|bytes| serde_json::from_slice::<LocalModelSettings>(&bytes).ok())
        .filter(|s| s.check(cores()).is_ok())
        .unwrap_or_else(fitted)
}

pub fn save_settings(dir: &Path, settings: LocalModelSettings) -> Result<(), String> {
    settings.check(cores())?;
    std::fs::create_dir_all(dir).map_err(|e| format!("could not make {}: {e}", dir.display()))?;
    let text = serde_json::to_vec_pretty(&settings).map_err(|e| e.to_string())?;
    std::fs::write(dir.join(SETTINGS), text).map_err(|e| format!("could not save the model's settings: {e}"))
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

    fn folder(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("braid-models-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_default_is_the_one_named_else_the_starter_else_the_first() {
        let dir = folder("default");
        assert_eq!(choose(&dir, &[]), None);
        let header = crate::crafted::readable();
        std::fs::write(dir.join("b.gguf"), &header).unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        assert_eq!(choose(&dir, &[]).unwrap().name, "b.gguf");
        std::fs::write(dir.join(STARTER), "s").unwrap();
        assert_eq!(choose(&dir, &[]).unwrap().name, STARTER);
        set_default(&dir, &[], "b.gguf").unwrap();
        assert_eq!(choose(&dir, &[]).unwrap().name, "b.gguf");
        assert!(set_default(&dir, &[], "nope.gguf").unwrap_err().contains("no model"));
        assert!(set_default(&dir, &[], STARTER).unwrap_err().contains("not a GGUF model Braid can read"));
        let listed = list(&dir, &[]);
        let names: Vec<(&str, u64)> = listed.iter().map(|m| (m.name.as_str(), m.bytes)).collect();
        assert_eq!(names, [(STARTER, 1), ("b.gguf", header.len() as u64)]);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(label(STARTER), "SmolLM2-135M-Instruct (Q4_1)");
        assert_eq!(label("mistral-7b-instruct.Q5_K_M.gguf"), "mistral-7b-instruct (Q5_K_M)");
    }

    #[test]
    fn import_takes_gguf_files_only_once_and_remove_spares_what_ships() {
        let (dir, shipped, outside) = (folder("shelf"), folder("shipped"), folder("outside"));
        std::fs::write(shipped.join(STARTER), "GGUFstarter").unwrap();
        let bundled = [shipped.clone()];
        assert!(choose(&dir, &bundled).unwrap().bundled);

        let fake = outside.join("notes.gguf");
        std::fs::write(&fake, "hello").unwrap();
        assert!(import(&dir, &bundled, &fake).unwrap_err().contains("not a GGUF model"));
        let txt = outside.join("m.bin");
        std::fs::write(&txt, "GGUF").unwrap();
        assert!(import(&dir, &bundled, &txt).unwrap_err().contains("not a .gguf file"));
        assert!(import(&dir, &bundled, &outside.join("gone.gguf")).unwrap_err().contains("not a file"));
        let real = outside.join("tiny.Q8_0.gguf");
        let header = crate::crafted::readable();
        std::fs::write(&real, &header).unwrap();
        let got = import(&dir, &bundled, &real).unwrap();
        assert_eq!((got.name.as_str(), got.bytes, got.bundled), ("tiny.Q8_0.gguf", header.len() as u64, false));
        let cut = outside.join("cut.gguf");
        std::fs::write(&cut, crate::crafted::truncated()).unwrap();
        assert!(import(&dir, &bundled, &cut).unwrap_err().contains("cut short"));
        assert!(import(&dir, &bundled, &real).unwrap_err().contains("already there"));
        assert!(real.exists(), "the user's file stays where it was");

        set_default(&dir, &bundled, "tiny.Q8_0.gguf").unwrap();
        assert!(remove(&dir, &bundled, STARTER).unwrap_err().contains("ships with Braid"));
        assert!(remove(&dir, &bundled, "../x.gguf").unwrap_err().contains("no model"));
        remove(&dir, &bundled, "tiny.Q8_0.gguf").unwrap();
        assert_eq!(choose(&dir, &bundled).unwrap().name, STARTER, "the default went with the file");
        for d in [dir, shipped, outside] {
            std::fs::remove_dir_all(d).unwrap();
        }
    }

    #[test]
    fn settings_are_saved_checked_and_fitted_when_missing() {
        let dir = folder("settings");
        assert_eq!(settings(&dir), fitted());
        let mine = LocalModelSettings { context: 2048, threads: 1, ..fitted() };
        save_settings(&dir, mine).unwrap();
        assert_eq!(settings(&dir), mine);
        let too_many = LocalModelSettings { context: 2048, threads: cores() + 1, ..fitted() };
        assert!(save_settings(&dir, too_many).unwrap_err().contains("threads"));
        assert_eq!(settings(&dir), mine, "a refused change leaves the saved one");
        std::fs::write(dir.join(SETTINGS), "{not json").unwrap();
        assert_eq!(settings(&dir), fitted());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
