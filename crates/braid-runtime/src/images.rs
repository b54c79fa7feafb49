//! Images for contexts: the store (by content hash, beside the database),
//! the warm OCR engine, reading an image as its mode and the model say
//! (vision analysis or OCR, with fallbacks), and attaching pixels, scaled to
//! the provider's limits, to requests for models that see.

use crate::providers::Resolved;
use base64::Engine as _;
use braid_core::vision::{self, ImageLimits, ReadPlan};
use braid_llm::LlmRequest;
use braid_protocol::{
    ImageData, ImageMode, ImageSource, Message, MessageId, MessageType, Role, StoredImage, Timestamp,
};
use braid_vision::{ImageStore, Ocr, Prepared, VisionError};
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

/// Prepared images kept for the next requests (a conversation sends the
/// same screenshot with every turn).
const PREPARED_KEPT: usize = 16;

/// What the model may write about one image.
const VISION_OUTPUT: u32 = 1024;

type PreparedKey = (String, u32, u64);

pub struct Images {
    store: ImageStore,
    ocr: Ocr,
    prepared: Mutex<VecDeque<(PreparedKey, Arc<Prepared>)>>,
}

impl Images {
    pub fn open(dir: PathBuf) -> Result<Images, VisionError> {
        Ok(Images { store: ImageStore::open(dir)?, ocr: Ocr::start("eng"), prepared: Mutex::default() })
    }

    /// `store_image`: Base64 in, checked and kept.
    pub async fn put(self: &Arc<Self>, data: String, name: Option<String>) -> Result<StoredImage, String> {
        let this = self.clone();
        run_blocking(move || {
            let comma = data.find(',').filter(|_| data.starts_with("data:")).map_or(0, |i| i + 1);
            let bytes = B64
                .decode(data[comma..].trim().as_bytes())
                .map_err(|e| format!("the image data is not valid Base64 ({e})"))?;
            this.store.put(&bytes, name).map_err(|e| e.to_string())
        })
        .await
    }

    /// A workspace image (an `@image` mention) kept in the store, so the
    /// conversation holds exactly what was sent even if the file changes.
    pub async fn store_file(self: &Arc<Self>, path: &str, workspace: &Path) -> Result<StoredImage, String> {
        let bytes = self.bytes_of(&ImageSource::FilePath { path: path.to_owned() }, workspace).await?;
        let (this, name) = (self.clone(), Path::new(path).file_name().map(|n| n.to_string_lossy().into_owned()));
        run_blocking(move || this.store.put(&bytes, name).map_err(|e| e.to_string())).await
    }

    /// `read_image`: the stored bytes, Base64.
    pub async fn get(self: &Arc<Self>, id: String) -> Result<ImageData, String> {
        let this = self.clone();
        run_blocking(move || {
            let bytes = this.store.get(&id).map_err(|e| e.to_string())?;
            let media_type = braid_vision::media_type_of(&bytes).map_err(|e| e.to_string())?.to_owned();
            Ok(ImageData { media_type, data: B64.encode(bytes) })
        })
        .await
    }

    pub fn older_than(&self, age: std::time::Duration) -> Vec<String> {
        self.store.older_than(age)
    }

    pub fn remove(&self, id: &str) {
        if let Err(e) = self.store.remove(id) {
            tracing::warn!(image = id, error = %e, "could not delete an image no message uses");
        }
    }

    async fn bytes_of(self: &Arc<Self>, source: &ImageSource, workspace: &Path) -> Result<Vec<u8>, String> {
        match source {
            ImageSource::Stored(s) => {
                let (this, id) = (self.clone(), s.id.clone());
                run_blocking(move || this.store.get(&id).map_err(|e| e.to_string())).await
            }
            ImageSource::FilePath { path } => {
                let path = braid_workspace::paths::confine(workspace, path).map_err(|e| e.to_string())?;
                tokio::fs::read(&path).await.map_err(|e| format!("cannot read {}: {e}", path.display()))
            }
            ImageSource::Base64 { data, .. } => B64.decode(data.as_bytes()).map_err(|e| e.to_string()),
            ImageSource::Url { .. } => {
                Err("Braid reads images it stores; download this one and attach the file to read it".to_owned())
            }
        }
    }

    /// The image scaled and encoded within `limits` (cached by content).
    async fn prepared(
        self: &Arc<Self>,
        source: &ImageSource,
        workspace: &Path,
        limits: ImageLimits,
    ) -> Result<Arc<Prepared>, String> {
        let key = match source {
            ImageSource::Stored(s) => Some((s.id.clone(), limits.max_long_edge, limits.max_bytes)),
            _ => None,
        };
        if let Some(hit) = key.as_ref().and_then(|k| self.cached(k)) {
            return Ok(hit);
        }
        let bytes = self.bytes_of(source, workspace).await?;
        let prepared =
            Arc::new(run_blocking(move || braid_vision::prepare(&bytes, limits).map_err(|e| e.to_string())).await?);
        if let Some(k) = key {
            let mut cache = self.prepared.lock().unwrap_or_else(PoisonError::into_inner);
            cache.push_back((k, prepared.clone()));
            while cache.len() > PREPARED_KEPT {
                cache.pop_front();
            }
        }
        Ok(prepared)
    }

    fn cached(&self, key: &PreparedKey) -> Option<Arc<Prepared>> {
        let cache = self.prepared.lock().unwrap_or_else(PoisonError::into_inner);
        cache.iter().find(|(k, _)| k == key).map(|(_, p)| p.clone())
    }

    /// Replaces every image the model will look at by its pixels, as the
    /// provider takes them (Base64 within its limits).
    pub async fn attach_pixels(
        self: &Arc<Self>,
        messages: &mut [Message],
        workspace: &Path,
        limits: ImageLimits,
    ) -> Result<(), String> {
        for m in messages.iter_mut() {
            if let MessageType::Image { source, .. } = &mut m.body {
                if matches!(source, ImageSource::Stored(_) | ImageSource::FilePath { .. }) {
                    let p = self.prepared(source, workspace, limits).await?;
                    *source = ImageSource::Base64 { media_type: p.media_type.to_owned(), data: B64.encode(&p.bytes) };
                }
            }
        }
        Ok(())
    }

    /// Reads one Image message as its mode and the model say, and returns
    /// it with the analysis or text (or the error) filled in.
    pub async fn read(
        self: &Arc<Self>,
        mut body: MessageType,
        model: Option<&Resolved>,
        workspace: &Path,
    ) -> MessageType {
        let MessageType::Image { source, mode, .. } = &body else { return body };
        let (source, mode) = (source.clone(), *mode);
        let (name, sees) = model.map_or(("The model".to_owned(), false), |r| (r.model.clone(), r.view.vision));
        let mut plan = vision::plan(mode, &name, sees);
        let mut outcome = Outcome::default();
        if plan == ReadPlan::Vision {
            match self.look(&source, model, workspace).await {
                Ok(text) => {
                    outcome.analysis = Some(text);
                    outcome.used = Some(ImageMode::Vision);
                }
                Err(e) => plan = vision::after_vision_failure(mode, &e),
            }
        }
        match plan {
            ReadPlan::Vision => {}
            ReadPlan::Ocr { fallback } => {
                outcome.fallback = fallback;
                match self.bytes_of(&source, workspace).await {
                    Ok(bytes) => match self.ocr.read(bytes).await {
                        Ok(read) => {
                            outcome.text = Some(read.text);
                            outcome.confidence = Some(read.confidence);
                            outcome.language = Some(read.language);
                            outcome.used = Some(ImageMode::Ocr);
                        }
                        Err(e) => outcome.error = Some(e.to_string()),
                    },
                    Err(e) => outcome.error = Some(e),
                }
            }
            ReadPlan::Refuse(why) => outcome.error = Some(why),
        }
        if let MessageType::Image {
            vision_analysis,
            recognized_text,
            ocr_confidence,
            language,
            error,
            used,
            fallback,
            ..
        } = &mut body
        {
            *vision_analysis = outcome.analysis;
            *recognized_text = outcome.text;
            *ocr_confidence = outcome.confidence;
            *language = outcome.language;
            *error = outcome.error;
            *used = outcome.used;
            *fallback = outcome.fallback;
        }
        body
    }

    /// Asks the model to describe the image; its words are kept so later
    /// turns (and models that cannot see) have them.
    async fn look(
        self: &Arc<Self>,
        source: &ImageSource,
        model: Option<&Resolved>,
        workspace: &Path,
    ) -> Result<String, String> {
        let r = model.ok_or("no model")?;
        let limits = vision::limits_for(r.kind);
        let mut image = Message::new(MessageId(0), Timestamp(0), MessageType::image(source.clone(), ImageMode::Vision));
        self.attach_pixels(std::slice::from_mut(&mut image), workspace, limits).await?;
        let ask = Message::new(MessageId(1), Timestamp(0), MessageType::text(Role::User, "Describe this image."));
        let request = LlmRequest {
            model: r.model.clone(),
            system: Some(vision::VISION_INSTRUCTIONS.to_owned()),
            messages: vec![image, ask],
            tools: Vec::new(),
            tool_choice: None,
            max_tokens: Some(VISION_OUTPUT.min(r.max_output_tokens)),
            temperature: None,
        };
        let text = crate::complete::complete_text(r.provider.as_ref(), crate::outbound::Filter::none().finish(request))
            .await?;
        if text.is_empty() {
            return Err("the model described nothing".to_owned());
        }
        Ok(text.to_owned())
    }
}

#[derive(Default)]
struct Outcome {
    analysis: Option<String>,
    text: Option<String>,
    confidence: Option<f32>,
    language: Option<String>,
    error: Option<String>,
    used: Option<ImageMode>,
    fallback: Option<String>,
}

async fn run_blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, String> + Send + 'static) -> Result<T, String> {
    tokio::task::spawn_blocking(f).await.map_err(|e| format!("image work stopped: {e}"))?
}
