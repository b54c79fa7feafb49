//! Braid's images: decoding (PNG, JPEG, WebP, GIF's first frame) with EXIF
//! orientation, scaling and re-encoding to a provider's limits, a store that
//! keeps each image once by content hash, and OCR with Tesseract on one warm
//! worker thread. What to do with an image is decided in
//! `braid_core::vision`; this crate does the work.

mod decode;
mod error;
mod ocr;
mod prepare;
mod store;

pub use decode::{decode, media_type_of, sniff, Decoded};
pub use error::VisionError;
pub use ocr::{limit_ocr_threads, Ocr, OcrText};
pub use prepare::{prepare, Prepared};
pub use store::{ImageStore, MAX_IMAGE_BYTES};
