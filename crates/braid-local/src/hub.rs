//! Hugging Face's public model API (or a mirror of it at the endpoint the
//! user sets): searching GGUF repositories, listing a repository's files
//! with their sizes and SHA-256, and reading a file's header with a range
//! request so its memory is known before a byte of weights is fetched.

use crate::gguf::{self, Shape};
use braid_protocol::{HubFile, HubModel, HubRepo};
use futures::StreamExt;
use serde::Deserialize;
use std::time::Duration;

/// How long an API call may take (a download's body has no limit).
const API_TIMEOUT: Duration = Duration::from_secs(20);
/// Header bytes read first; a large vocabulary needs the second try.
const HEADER_TRIES: [usize; 2] = [4 << 20, 48 << 20];
/// The longest silence in any body from the hub (an answer, a header, a
/// download): past it a download tries again and anything else says so.
pub const IDLE: Duration = Duration::from_secs(15);
/// The most an answer may be: a search for 30 repositories with their tags
/// is ~60 KB, a repository of thousands of files ~1 MB.
const JSON_CAP: usize = 8 << 20;
/// Repositories a search shows, whatever the hub sends.
const PAGE: usize = 30;

#[derive(Clone)]
pub struct Hub {
    pub endpoint: String,
    /// Made on first use: making it reads the system's certificates
    /// (~40 ms), which every start paid on the window's thread.
    client: std::sync::OnceLock<reqwest::Client>,
}

impl Hub {
    pub fn new(endpoint: &str) -> Hub {
        Hub { endpoint: endpoint.trim_end_matches('/').to_owned(), client: std::sync::OnceLock::new() }
    }

    pub fn file_url(&self, repo: &str, file: &str) -> String {
        format!("{}/{repo}/resolve/main/{file}", self.endpoint)
    }

    pub fn client(&self) -> &reqwest::Client {
        self.client.get_or_init(|| {
            // Connecting has its own limit so "nothing answers" comes
            // quickly; a body may take as long as the file needs, but no
            // read waits longer than IDLE.
            reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(10))
                .read_timeout(IDLE)
                .user_agent(concat!("braid/", env!("CARGO_PKG_VERSION")))
                .build()
                .unwrap_or_default()
        })
    }

    /// GGUF repositories whose name holds `query`, most downloaded first.
    pub async fn search(&self, query: &str) -> Result<Vec<HubModel>, String> {
        let query = query.trim();
        let url = format!("{}/api/models", self.endpoint);
        let page = PAGE.to_string();
        let mut params = vec![("filter", "gguf"), ("sort", "downloads"), ("direction", "-1"), ("limit", &page)];
        if !query.is_empty() {
            params.push(("search", query));
        }
        for field in ["downloads", "likes", "tags", "gated", "lastModified"] {
            params.push(("expand", field));
        }
        let found: Vec<ApiModel> = self.get_json(&url, &params, "the search", JSON_CAP).await?;
        Ok(found.into_iter().take(PAGE).map(ApiModel::summary).collect())
    }

    /// A repository's GGUF files with their memory at a window of
    /// `context` tokens against `available` bytes.
    pub async fn repo(&self, repo: &str, context: u32, available: Option<u64>) -> Result<HubRepo, String> {
        let (info, mut files) = self.listing(repo).await?;
        files.sort_by_key(|f| f.bytes);
        let mut note = None;
        // Every quantisation of one model has the same shape: one header,
        // read from the smallest file, sizes them all.
        if let Some(first) = files.first() {
            match self.shape(repo, &first.file, first.bytes).await {
                Ok(shape) => {
                    for f in &mut files {
                        f.memory = Some(gguf::memory_of(&shape.sized(f.bytes), context, available));
                    }
                }
                // A header Braid reads as crafted or broken: none of the
                // repository's files is offered (llama.cpp could not load
                // them either).
                Err(Header::Unreadable(e)) => {
                    files.clear();
                    note = Some(format!("its models cannot be used: {e}"));
                }
                Err(Header::NotRead(e)) => note = Some(format!("no memory estimate: {e}")),
            }
        } else {
            note = Some("this repository has no single-file GGUF model".to_owned());
        }
        Ok(HubRepo { repo: info.repo, licence: info.licence, gated: info.gated, files, note })
    }

    /// A repository's single-file GGUF models with their sizes and
    /// checksums (no memory estimate).
    pub async fn files(&self, repo: &str) -> Result<Vec<HubFile>, String> {
        Ok(self.listing(repo).await?.1)
    }

    async fn listing(&self, repo: &str) -> Result<(HubModel, Vec<HubFile>), String> {
        check_repo(repo)?;
        let url = format!("{}/api/models/{repo}", self.endpoint);
        let info: ApiModel = self.get_json(&url, &[("blobs", "true")], &format!("model {repo}"), JSON_CAP).await?;
        let files = info
            .siblings
            .iter()
            .filter(|s| is_single_gguf(&s.rfilename))
            .map(|s| HubFile {
                quant: quant(&s.rfilename),
                bytes: s.lfs.as_ref().map(|l| l.size).or(s.size).unwrap_or(0),
                sha256: s.lfs.as_ref().map(|l| l.sha256.clone()),
                file: s.rfilename.clone(),
                memory: None,
                on_shelf: false,
            })
            .collect();
        Ok((info.summary(), files))
    }

    /// The model's shape, from the first megabytes of one of its files.
    async fn shape(&self, repo: &str, file: &str, size: u64) -> Result<Shape, Header> {
        for want in HEADER_TRIES {
            let prefix = self.prefix(&self.file_url(repo, file), want).await.map_err(Header::NotRead)?;
            match Shape::from_prefix(&prefix, size) {
                Ok(shape) => return Ok(shape),
                Err(Some(e)) => {
                    return Err(Header::Unreadable(format!("{file} is not a GGUF model Braid can read: {e}")))
                }
                Err(None) if prefix.len() < want => {
                    return Err(Header::Unreadable(format!("{file} ends inside its header")))
                }
                Err(None) => {}
            }
        }
        Err(Header::NotRead(format!("{file}'s header is larger than {} MB", HEADER_TRIES[1] >> 20)))
    }

    /// Up to `want` bytes from the start of `url` (a server that ignores
    /// the range sends the whole file: the rest is not read).
    async fn prefix(&self, url: &str, want: usize) -> Result<Vec<u8>, String> {
        let range = format!("bytes=0-{}", want - 1);
        let response = self.client().get(url).header(reqwest::header::RANGE, range).send().await;
        let response = self.checked(response, "the file's header").await?;
        let mut body = response.bytes_stream();
        let mut out = Vec::with_capacity(want.min(8 << 20));
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| self.failed(&e))?;
            out.extend_from_slice(&chunk[..chunk.len().min(want - out.len())]);
            if out.len() >= want {
                break;
            }
        }
        Ok(out)
    }

    /// `what` read as JSON: at most `cap` bytes, never waiting longer
    /// than [`IDLE`] for the next piece, whatever the hub sends.
    async fn get_json<T: serde::de::DeserializeOwned>(
        &self,
        url: &str,
        params: &[(&str, &str)],
        what: &str,
        cap: usize,
    ) -> Result<T, String> {
        let url =
            reqwest::Url::parse_with_params(url, params).map_err(|e| format!("{url} is not a web address: {e}"))?;
        let response = self.checked(self.client().get(url).timeout(API_TIMEOUT).send().await, what).await?;
        let cannot = |e: &dyn std::fmt::Display| {
            format!("{} answered {what} with something Braid cannot read: {e}", self.host())
        };
        let text = braid_llm::http::capped_text(response, cap).await.map_err(|e| cannot(&e))?;
        serde_json::from_str(&text).map_err(|e| cannot(&e))
    }

    /// The response when it is a success, else what went wrong in words.
    pub async fn checked(
        &self,
        response: Result<reqwest::Response, reqwest::Error>,
        what: &str,
    ) -> Result<reqwest::Response, String> {
        let response = response.map_err(|e| self.failed(&e))?;
        let status = response.status();
        if status.is_success() || status == reqwest::StatusCode::RANGE_NOT_SATISFIABLE {
            return Ok(response);
        }
        Err(status_words(status.as_u16(), what, &self.endpoint))
    }

    pub fn failed(&self, e: &reqwest::Error) -> String {
        if e.is_connect() {
            format!(
                "nothing answers at {} — is this machine online? (A mirror can be set in Settings → Built-in model.)",
                self.host()
            )
        } else if e.is_timeout() {
            format!("{} did not answer in time; try again", self.host())
        } else {
            format!("the connection to {} broke off: {e}", self.host())
        }
    }

    fn host(&self) -> &str {
        self.endpoint.split("://").nth(1).unwrap_or(&self.endpoint)
    }
}

/// An HTTP status in words, for `what` was asked.
pub fn status_words(status: u16, what: &str, endpoint: &str) -> String {
    match status {
        401 | 403 => format!(
            "{what} is gated: its licence must be accepted on {endpoint} first, and Braid downloads only models open to all"
        ),
        404 => format!("the hub does not have {what}"),
        429 => "the hub asks Braid to slow down (too many requests); try again in a minute".to_owned(),
        s if s >= 500 => format!("the hub failed ({s}) on {what}; try again later"),
        s => format!("the hub refused {what} ({s})"),
    }
}

/// Why a remote file's header gave no shape.
enum Header {
    /// Read, and refused: the file is crafted, broken or not GGUF.
    Unreadable(String),
    /// Not read (the hub failed, or the header is larger than Braid reads).
    NotRead(String),
}

/// `owner/name`, as the hub spells repository names.
pub fn check_repo(repo: &str) -> Result<(), String> {
    let part = |p: &str| {
        !p.is_empty() && !p.starts_with('.') && p.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
    };
    match repo.split_once('/') {
        Some((owner, name)) if part(owner) && part(name) => Ok(()),
        _ => Err(format!("{repo:?} is not a hub repository (owner/name)")),
    }
}

/// A GGUF model in one file: split models (`-00001-of-00003`) and vision
/// projectors (`mmproj`) are not offered.
pub fn is_single_gguf(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.ends_with(".gguf") && !name.contains("-of-0") && !name.starts_with("mmproj") && !path.contains("..")
}

/// "Q4_K_M" from "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf".
pub fn quant(path: &str) -> Option<String> {
    let name = path.rsplit('/').next()?;
    let stem = name.get(..name.len().checked_sub(5)?).filter(|_| name.to_ascii_lowercase().ends_with(".gguf"))?;
    stem.rsplit(['-', '.']).find_map(|t| {
        let up = t.to_ascii_uppercase();
        let is = (up.starts_with('Q') || up.starts_with("IQ")) && up.chars().any(|c| c.is_ascii_digit())
            || ["F16", "BF16", "F32"].contains(&up.as_str());
        is.then_some(up)
    })
}

#[derive(Deserialize)]
struct ApiModel {
    id: String,
    #[serde(default)]
    downloads: u64,
    #[serde(default)]
    likes: u64,
    #[serde(default)]
    tags: Vec<String>,
    /// `false`, "auto" or "manual".
    #[serde(default)]
    gated: serde_json::Value,
    #[serde(default, rename = "lastModified")]
    last_modified: Option<String>,
    #[serde(default, rename = "cardData")]
    card: Option<Card>,
    #[serde(default)]
    siblings: Vec<Sibling>,
}

#[derive(Deserialize)]
struct Card {
    #[serde(default)]
    license: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Sibling {
    rfilename: String,
    #[serde(default)]
    size: Option<u64>,
    #[serde(default)]
    lfs: Option<Lfs>,
}

#[derive(Deserialize)]
struct Lfs {
    sha256: String,
    size: u64,
}

impl ApiModel {
    fn summary(self) -> HubModel {
        let from_card = self.card.and_then(|c| c.license).and_then(|l| l.as_str().map(str::to_owned));
        let from_tags = self.tags.iter().find_map(|t| t.strip_prefix("license:").map(str::to_owned));
        HubModel {
            repo: self.id,
            downloads: self.downloads,
            likes: self.likes,
            licence: from_card.or(from_tags),
            gated: !matches!(self.gated, serde_json::Value::Bool(false) | serde_json::Value::Null),
            updated: self.last_modified,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantisations_are_read_from_the_file_names() {
        assert_eq!(quant("Qwen2.5-1.5B-Instruct-Q4_K_M.gguf").as_deref(), Some("Q4_K_M"));
        assert_eq!(quant("SmolLM2-135M-Instruct.Q4_1.gguf").as_deref(), Some("Q4_1"));
        assert_eq!(quant("sub/model-IQ4_XS.gguf").as_deref(), Some("IQ4_XS"));
        assert_eq!(quant("phi-3-mini-4k-instruct-fp16.gguf"), None);
        assert_eq!(quant("Llama-3.2-1B-Instruct-f16.gguf").as_deref(), Some("F16"));
    }

    #[test]
    fn split_models_projectors_and_other_files_are_not_offered() {
        assert!(is_single_gguf("a/Qwen-Q4_K_M.gguf"));
        assert!(!is_single_gguf("Qwen-Q4_K_M-00001-of-00003.gguf"));
        assert!(!is_single_gguf("mmproj-model-f16.gguf"));
        assert!(!is_single_gguf("README.md"));
        assert!(!is_single_gguf("../x.gguf"));
    }

    #[test]
    fn repository_names_are_owner_slash_name() {
        assert!(check_repo("bartowski/Qwen2.5-0.5B-Instruct-GGUF").is_ok());
        for bad in ["", "qwen", "a/b/c", "../x", "a/.hidden", "a /b"] {
            assert!(check_repo(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_gated_repository_and_its_licence_are_read_from_either_field() {
        let m: ApiModel =
            serde_json::from_str(r#"{"id":"a/b","gated":"manual","tags":["gguf","license:llama3.2"]}"#).unwrap();
        let s = m.summary();
        assert!(s.gated);
        assert_eq!(s.licence.as_deref(), Some("llama3.2"));
        let m: ApiModel =
            serde_json::from_str(r#"{"id":"a/b","gated":false,"cardData":{"license":"apache-2.0"}}"#).unwrap();
        assert!(!m.summary().gated);
    }

    #[test]
    fn statuses_are_said_in_words() {
        assert!(status_words(401, "x", "https://huggingface.co").contains("gated"));
        assert!(status_words(429, "x", "e").contains("slow down"));
        assert!(status_words(503, "x", "e").contains("503"));
    }
}
