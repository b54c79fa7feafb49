//! Images, the pure part: how an image is read (vision or OCR) for a given
//! model and mode, what a request carries for it, and how large it may be
//! for each provider. Decoding, resizing and OCR live in `braid-vision`.

use braid_protocol::{ImageMode, ImageSource, Message, MessageType, ProviderKind, Role};

/// What a provider accepts for one image. Larger images are scaled down
/// (never up) to `max_long_edge` and re-encoded until under `max_bytes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimits {
    pub max_long_edge: u32,
    /// Of the encoded image (before Base64).
    pub max_bytes: u64,
}

/// Per provider, from their documentation: OpenAI scales anything past
/// 2048 px down itself (so larger only costs upload time); Anthropic
/// recommends at most 1568 px on the long edge and refuses images over
/// 5 MB; Gemini tiles up to 3072 px and caps an inline request at 20 MB.
pub fn limits_for(kind: ProviderKind) -> ImageLimits {
    match kind {
        ProviderKind::OpenAiCompatible => ImageLimits { max_long_edge: 2048, max_bytes: 8 * 1024 * 1024 },
        ProviderKind::Anthropic => ImageLimits { max_long_edge: 1568, max_bytes: 5 * 1024 * 1024 - 64 * 1024 },
        ProviderKind::Gemini => ImageLimits { max_long_edge: 3072, max_bytes: 7 * 1024 * 1024 },
    }
}

/// The size an image is sent at: the aspect ratio kept, the long edge at
/// most `max_long_edge`, never enlarged, never 0.
pub fn fit_within(width: u32, height: u32, max_long_edge: u32) -> (u32, u32) {
    let long = width.max(height);
    if long <= max_long_edge || long == 0 {
        return (width.max(1), height.max(1));
    }
    let scale = f64::from(max_long_edge) / f64::from(long);
    let w = (f64::from(width) * scale).round().max(1.0) as u32;
    let h = (f64::from(height) * scale).round().max(1.0) as u32;
    (w.min(max_long_edge), h.min(max_long_edge))
}

/// The next, smaller long edge to try when an encoded image is still over
/// the byte limit (three quarters, at least 64 px).
pub fn shrink_step(long_edge: u32) -> Option<u32> {
    let next = long_edge * 3 / 4;
    (next >= 64 && next < long_edge).then_some(next)
}

/// How an image is read when it is added (or read again).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadPlan {
    /// The model looks at it and its description is stored.
    Vision,
    /// Tesseract reads its text; `fallback` says why, when vision was
    /// asked for or would have been used.
    Ocr { fallback: Option<String> },
    /// Nothing can read it as asked: the reason is stored on the message.
    Refuse(String),
}

/// `mode` × what the model can do. `Vision` with a model that cannot see
/// is refused (the user asked for it explicitly); `Auto` falls back to OCR
/// and says so.
pub fn plan(mode: ImageMode, model: &str, model_sees: bool) -> ReadPlan {
    match (mode, model_sees) {
        (ImageMode::Ocr, _) => ReadPlan::Ocr { fallback: None },
        (ImageMode::Vision | ImageMode::Auto, true) => ReadPlan::Vision,
        (ImageMode::Auto, false) => {
            ReadPlan::Ocr { fallback: Some(format!("{model} cannot see images, so their text was read with OCR")) }
        }
        (ImageMode::Vision, false) => ReadPlan::Refuse(format!(
            "{model} cannot see images. Choose a model with vision, or read this image with OCR (Auto or OCR mode)."
        )),
    }
}

/// After the model failed to describe the image: `Auto` goes on with OCR,
/// `Vision` stops with the model's error.
pub fn after_vision_failure(mode: ImageMode, error: &str) -> ReadPlan {
    match mode {
        ImageMode::Vision => ReadPlan::Refuse(format!("The model could not look at the image: {error}")),
        ImageMode::Auto | ImageMode::Ocr => {
            ReadPlan::Ocr { fallback: Some(format!("vision failed ({error}), so the text was read with OCR")) }
        }
    }
}

/// What the model is asked when it looks at an image for the first time.
pub const VISION_INSTRUCTIONS: &str = "Describe this image for someone who cannot see it: what it shows, its \
layout, and every piece of text in it, transcribed exactly (code and error messages verbatim). Be complete but \
concise. Do not speculate beyond what is visible.";

/// Whether a request to this model sends the image itself (and its bytes
/// must be attached), rather than what was read from it.
pub fn sends_pixels(mode: ImageMode, source: &ImageSource, model_sees: bool) -> bool {
    model_sees && mode != ImageMode::Ocr && !matches!(source, ImageSource::FilePath { .. })
}

/// What an image sent as pixels costs, by OpenAI's published rule (fit in
/// 2048 px, shortest side to 768 px, 170 tokens per 512 px tile plus 85);
/// Anthropic's (pixels / 750) and Gemini's (258 per 768 px tile) come out
/// close or lower, so one estimate serves. `None` when the model gets the
/// image's text instead (or its size is unknown).
pub fn pixel_tokens(body: &MessageType, model_sees: bool) -> Option<u32> {
    let MessageType::Image { source, mode, .. } = body else { return None };
    let ImageSource::Stored(s) = source else { return None };
    if !sends_pixels(*mode, source, model_sees) {
        return None;
    }
    let (w, h) = fit_within(s.width, s.height, 2048);
    let short = w.min(h).max(1);
    let scale = if short > 768 { 768.0 / f64::from(short) } else { 1.0 };
    let (w, h) = ((f64::from(w) * scale).ceil() as u32, (f64::from(h) * scale).ceil() as u32);
    Some(85 + 170 * w.div_ceil(512) * h.div_ceil(512) + crate::tokens::PER_MESSAGE)
}

/// The text a model that does not get the pixels receives for an image,
/// marked with where it came from.
pub fn image_as_text(body: &MessageType) -> Option<String> {
    let MessageType::Image { source, vision_analysis, recognized_text, ocr_confidence, error, .. } = body else {
        return None;
    };
    let name = match source {
        ImageSource::Stored(s) => s.name.clone().unwrap_or_else(|| format!("{}×{} image", s.width, s.height)),
        ImageSource::FilePath { path } => path.clone(),
        ImageSource::Url { url } => url.clone(),
        ImageSource::Base64 { media_type, .. } => media_type.clone(),
    };
    // What was read from an image is the image's words, not the user's:
    // a screenshot can hold instructions as well as a web page.
    let text = match (vision_analysis, recognized_text, error) {
        (Some(a), _, _) => {
            let described = crate::untrusted::block(&format!("description of the image {name}"), a);
            format!("[Image {name}, as described by a model that could see it]\n{described}")
        }
        (None, Some(t), _) if t.trim().is_empty() => format!("[Image {name}: OCR found no text in it]"),
        (None, Some(t), _) => {
            let conf = ocr_confidence.map(|c| format!(", confidence {c:.0} %")).unwrap_or_default();
            let read = crate::untrusted::block(&format!("text in the image {name}"), t);
            format!("[Image {name}: text recognised by OCR{conf}; layout and pictures are not included]\n{read}")
        }
        (None, None, Some(e)) => format!("[Image {name} could not be read: {e}]"),
        (None, None, None) => format!("[Image {name}: not read yet]"),
    };
    Some(text)
}

/// The text recognised in an image, sent beside its pixels.
pub fn ocr_beside_pixels(text: &str) -> String {
    format!("Text recognised in the image (OCR):\n{}", crate::untrusted::block("text in the image", text))
}

/// The request's view of images: those the model sees stay Image messages
/// (without their stored text: the pixels say it); the others become user
/// text with what was read from them.
pub fn for_request(messages: Vec<Message>, model_sees: bool) -> Vec<Message> {
    messages
        .into_iter()
        .map(|mut m| {
            if let MessageType::Image { source, mode, vision_analysis, recognized_text, .. } = &mut m.body {
                if sends_pixels(*mode, source, model_sees) {
                    *vision_analysis = None;
                    *recognized_text = None;
                    return m;
                }
                let text = image_as_text(&m.body).unwrap_or_default();
                m.body = MessageType::text(Role::User, text);
            }
            m
        })
        .collect()
}
