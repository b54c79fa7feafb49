//! Models the user already has: GGUF files other apps downloaded, found
//! where those apps keep them, offered to run in place (a link on the
//! shelf; the file is never copied or moved).
//!
//! - LM Studio: `~/.lmstudio/models/<publisher>/<repo>/<file>.gguf` (and
//!   the older `~/.cache/lm-studio/models`).
//! - Jan: `~/jan/models/<id>/<file>.gguf` (Jan 0.5) and
//!   `<data>/Jan/data/llamacpp/models/<id>/model.gguf` (Jan 0.6 on).
//! - Ollama: `~/.ollama/models` (or `$OLLAMA_MODELS`, or the system
//!   service's `/usr/share/ollama/.ollama/models`): a manifest per
//!   `<model>/<tag>` names its layers; the one of media type
//!   `application/vnd.ollama.image.model` is a GGUF blob.

use std::path::{Path, PathBuf};

/// A GGUF file another app keeps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// "LM Studio", "Jan" or "Ollama".
    pub app: &'static str,
    /// The name it would have on the shelf (`llama3.2-3b.gguf`).
    pub name: String,
    pub path: PathBuf,
    pub bytes: u64,
}

/// Where to look: the user's home and the places the environment moves.
#[derive(Debug, Clone, Default)]
pub struct Roots {
    pub home: Option<PathBuf>,
    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    pub data: Option<PathBuf>,
    /// `$OLLAMA_MODELS`.
    pub ollama: Option<PathBuf>,
    /// The Ollama system service's folder, when it is installed.
    pub ollama_system: Option<PathBuf>,
}

impl Roots {
    /// This user's, from the environment.
    pub fn from_env() -> Roots {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let data = std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(".local/share")));
        Roots {
            home,
            data,
            ollama: std::env::var_os("OLLAMA_MODELS").map(PathBuf::from),
            ollama_system: Some(PathBuf::from("/usr/share/ollama/.ollama/models")),
        }
    }
}

/// Every model found, by app then path; the same file seen twice (a link)
/// is listed once.
pub fn discover(roots: &Roots) -> Vec<Found> {
    let mut found = Vec::new();
    if let Some(home) = &roots.home {
        for dir in [home.join(".lmstudio/models"), home.join(".cache/lm-studio/models")] {
            gguf_files(&dir, 3, &mut |path, bytes| found.push(named("LM Studio", path, bytes)));
        }
        gguf_files(&home.join("jan/models"), 2, &mut |path, bytes| found.push(named("Jan", path, bytes)));
    }
    if let Some(data) = &roots.data {
        for dir in [data.join("Jan/data/llamacpp/models"), data.join("Jan/data/models")] {
            gguf_files(&dir, 3, &mut |path, bytes| found.push(named("Jan", path, bytes)));
        }
    }
    let ollama =
        [roots.ollama.clone(), roots.home.as_ref().map(|h| h.join(".ollama/models")), roots.ollama_system.clone()];
    for dir in ollama.into_iter().flatten() {
        found.extend(ollama_models(&dir));
    }
    let mut seen = std::collections::HashSet::new();
    found.retain(|f| seen.insert(std::fs::canonicalize(&f.path).unwrap_or_else(|_| f.path.clone())));
    found
}

/// The shelf name of a file found by name: its own, or its folder's when
/// the file is just `model.gguf` (Jan 0.6).
fn named(app: &'static str, path: PathBuf, bytes: u64) -> Found {
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match path.parent().and_then(Path::file_name) {
        Some(folder) if file.eq_ignore_ascii_case("model.gguf") => format!("{}.gguf", folder.to_string_lossy()),
        _ => file,
    };
    Found { app, name, path, bytes }
}

/// Calls `each` with every GGUF file under `dir`, at most `depth` folders
/// down, in name order. Vision projectors (`mmproj-…`) and partial
/// downloads are not models.
fn gguf_files(dir: &Path, depth: u32, each: &mut dyn FnMut(PathBuf, u64)) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let Ok(meta) = std::fs::metadata(&path) else { continue };
        let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        if meta.is_dir() && depth > 0 && !name.starts_with('.') {
            gguf_files(&path, depth - 1, each);
        } else if meta.is_file() && name.ends_with(".gguf") && !name.starts_with("mmproj") && is_gguf(&path) {
            each(path, meta.len());
        }
    }
}

/// Whether `path` is a plain file that starts as a GGUF file does (a pipe
/// or a device under a model's name is not, and is never waited on).
fn is_gguf(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 4];
    braid_workspace::plain::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && &magic == b"GGUF"
}

/// An Ollama manifest is a few hundred bytes of JSON.
const MAX_MANIFEST: u64 = 1 << 20;

/// Ollama's models: each manifest under `manifests/<registry>/<namespace>/
/// <model>/<tag>` names its model layer by digest, a file in `blobs`.
fn ollama_models(dir: &Path) -> Vec<Found> {
    let mut out = Vec::new();
    let mut manifests = Vec::new();
    collect_files(&dir.join("manifests"), 4, &mut manifests);
    manifests.sort();
    for manifest in manifests {
        let read = braid_workspace::plain::read(&manifest, MAX_MANIFEST);
        let Some(digest) = read.ok().and_then(|b| model_layer(&b)) else { continue };
        let blob = dir.join("blobs").join(digest.replace(':', "-"));
        let Ok(meta) = std::fs::metadata(&blob) else { continue };
        if !meta.is_file() || !is_gguf(&blob) {
            continue;
        }
        let tag = manifest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let model = manifest.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
        let name = format!("{}-{tag}.gguf", model.unwrap_or_default()).replace([':', '/'], "-");
        out.push(Found { app: "Ollama", name, path: blob, bytes: meta.len() });
    }
    out
}

fn collect_files(dir: &Path, depth: u32, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.flatten().map(|e| e.path()) {
        if path.is_dir() && depth > 0 {
            collect_files(&path, depth - 1, out);
        } else if path.is_file() {
            out.push(path);
        }
    }
}

/// The digest of a manifest's model layer.
fn model_layer(manifest: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(manifest).ok()?;
    v.get("layers")?
        .as_array()?
        .iter()
        .find(|l| l.get("mediaType").and_then(|m| m.as_str()) == Some("application/vnd.ollama.image.model"))?
        .get("digest")?
        .as_str()
        .filter(|d| d.starts_with("sha256:") && d[7..].chars().all(|c| c.is_ascii_hexdigit()))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file that starts like a GGUF model.
    fn model(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b"GGUF\x03\0\0\0 and the rest").unwrap();
    }

    fn temp() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "braid-discover-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn models_of_lm_studio_jan_and_ollama_are_found_where_each_keeps_them() {
        let home = temp();
        let data = home.join(".local/share");
        // LM Studio: publisher / repo / file, a vision projector beside it.
        model(
            &home.join(
                ".lmstudio/models/lmstudio-community/Qwen2.5-0.5B-Instruct-GGUF/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf",
            ),
        );
        model(&home.join(".lmstudio/models/lmstudio-community/Qwen2.5-0.5B-Instruct-GGUF/mmproj-model-f16.gguf"));
        model(&home.join(".cache/lm-studio/models/TheBloke/phi-2-GGUF/phi-2.Q4_0.gguf"));
        // A download in progress is not a model yet.
        std::fs::write(home.join(".lmstudio/models/lmstudio-community/partial.gguf"), b"\0\0\0\0").unwrap();
        // Jan 0.5 and Jan 0.6.
        model(&home.join("jan/models/tinyllama-1.1b/tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf"));
        std::fs::write(home.join("jan/models/tinyllama-1.1b/model.json"), b"{}").unwrap();
        model(&data.join("Jan/data/llamacpp/models/Llama-3.2-1B-Instruct-Q8_0/model.gguf"));
        // Ollama: a manifest naming its model layer among others.
        let ollama = home.join(".ollama/models");
        let digest = "sha256:6a0746a1ec1aef3e7ec53868f220ff6e389f6f8ef87a01d77c96807de94ca2aa";
        let manifest = serde_json::json!({
            "schemaVersion": 2,
            "config": {"mediaType": "application/vnd.docker.container.image.v1+json", "digest": "sha256:00"},
            "layers": [
                {"mediaType": "application/vnd.ollama.image.model", "digest": digest, "size": 20},
                {"mediaType": "application/vnd.ollama.image.template", "digest": "sha256:11", "size": 3},
            ],
        });
        std::fs::create_dir_all(ollama.join("manifests/registry.ollama.ai/library/llama3.2")).unwrap();
        std::fs::write(ollama.join("manifests/registry.ollama.ai/library/llama3.2/1b"), manifest.to_string()).unwrap();
        model(&ollama.join(format!("blobs/{}", digest.replace(':', "-"))));
        // A manifest whose blob is gone finds nothing.
        std::fs::write(
            ollama.join("manifests/registry.ollama.ai/library/llama3.2/3b"),
            manifest.to_string().replace("6a07", "ffff"),
        )
        .unwrap();

        let roots = Roots { home: Some(home.clone()), data: Some(data), ollama: None, ollama_system: None };
        let found: Vec<(&str, String)> = discover(&roots).iter().map(|f| (f.app, f.name.clone())).collect();
        assert_eq!(
            found,
            [
                ("LM Studio", "Qwen2.5-0.5B-Instruct-Q4_K_M.gguf".to_owned()),
                ("LM Studio", "phi-2.Q4_0.gguf".to_owned()),
                ("Jan", "tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf".to_owned()),
                ("Jan", "Llama-3.2-1B-Instruct-Q8_0.gguf".to_owned()),
                ("Ollama", "llama3.2-1b.gguf".to_owned()),
            ]
        );
        std::fs::remove_dir_all(&home).unwrap();
    }

    /// Pipes, devices, links that loop and sparse giants under the names
    /// models and manifests have: the scan neither waits on one nor reads
    /// one whole, and lists only files that start as models do.
    #[test]
    fn odd_files_where_models_are_kept_are_passed_over_at_once() {
        let home = temp();
        let fifo = |p: &Path| {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            assert!(std::process::Command::new("mkfifo").arg(p).status().unwrap().success());
        };
        let jan = home.join("jan/models");
        model(&jan.join("real/real.gguf"));
        fifo(&jan.join("pipe/model.gguf"));
        std::os::unix::fs::symlink("/dev/zero", jan.join("real/zero.gguf")).unwrap();
        // A folder that links to its parent, again and again.
        let lms = home.join(".lmstudio/models/pub");
        std::fs::create_dir_all(&lms).unwrap();
        std::os::unix::fs::symlink(&lms, lms.join("again")).unwrap();
        std::os::unix::fs::symlink(lms.join("loop.gguf"), lms.join("loop.gguf")).unwrap();
        // 1 TB that holds nothing but a model's first bytes.
        let giant = lms.join("giant.gguf");
        std::fs::write(&giant, b"GGUF\x03\0\0\0").unwrap();
        std::fs::OpenOptions::new().write(true).open(&giant).unwrap().set_len(1 << 40).unwrap();
        // Ollama: a manifest that is a pipe, one that is 4 GB of nothing,
        // and a good manifest whose blob is a pipe.
        let ollama = home.join(".ollama/models");
        let tags = ollama.join("manifests/registry.ollama.ai/library/m");
        fifo(&tags.join("pipe"));
        std::fs::File::create(tags.join("sparse")).unwrap().set_len(4 << 30).unwrap();
        let digest = "sha256:6a0746a1ec1aef3e7ec53868f220ff6e389f6f8ef87a01d77c96807de94ca2aa";
        let layer =
            serde_json::json!({"layers": [{"mediaType": "application/vnd.ollama.image.model", "digest": digest}]});
        std::fs::write(tags.join("ok"), layer.to_string()).unwrap();
        fifo(&ollama.join(format!("blobs/{}", digest.replace(':', "-"))));

        let roots = Roots { home: Some(home.clone()), data: None, ollama: None, ollama_system: None };
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(discover(&roots)).unwrap());
        let found = rx.recv_timeout(std::time::Duration::from_secs(20)).expect("the scan waited on an odd file");
        let names: Vec<(&str, &str, u64)> = found.iter().map(|f| (f.app, f.name.as_str(), f.bytes)).collect();
        assert_eq!(names, [("LM Studio", "giant.gguf", 1 << 40), ("Jan", "real.gguf", 21)]);
        std::fs::remove_dir_all(&home).unwrap();
    }

    #[test]
    fn nothing_installed_finds_nothing() {
        let home = temp();
        let roots =
            Roots { home: Some(home.clone()), data: Some(home.join("data")), ollama: None, ollama_system: None };
        assert!(discover(&roots).is_empty());
        std::fs::remove_dir_all(&home).unwrap();
    }
}
