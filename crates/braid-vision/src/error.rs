use thiserror::Error;

#[derive(Debug, Error)]
pub enum VisionError {
    #[error("this is not an image Braid can read ({0}); use PNG, JPEG, WebP or GIF")]
    Unsupported(String),
    #[error("the image is damaged or incomplete: {0}")]
    Corrupt(String),
    #[error("the image is too large: {0}")]
    TooLarge(String),
    #[error("there is no stored image {0}")]
    NotFound(String),
    #[error("could not encode the image: {0}")]
    Encode(String),
    #[error("OCR is not available: {0}")]
    OcrUnavailable(String),
    #[error("OCR failed: {0}")]
    Ocr(String),
    #[error("OCR was cancelled")]
    Cancelled,
    #[error("image store: {0}")]
    Io(#[from] std::io::Error),
}
