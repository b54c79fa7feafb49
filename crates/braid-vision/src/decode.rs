//! Bytes → pixels, upright. Only the formats users paste and drop are
//! accepted; everything else is refused with its name.

use crate::VisionError;
use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};
use std::io::Cursor;

/// Larger than any screen or camera users share; keeps a malicious header
/// from asking for gigabytes.
const MAX_SIDE: u32 = 16_384;
const MAX_ALLOC: u64 = 1024 * 1024 * 1024;

pub struct Decoded {
    /// Upright: EXIF orientation already applied.
    pub image: DynamicImage,
    pub format: ImageFormat,
    /// True when the EXIF orientation changed the pixels.
    pub reoriented: bool,
}

impl Decoded {
    pub fn media_type(&self) -> &'static str {
        media_type(self.format)
    }
}

pub fn media_type(format: ImageFormat) -> &'static str {
    match format {
        ImageFormat::Png => "image/png",
        ImageFormat::Jpeg => "image/jpeg",
        ImageFormat::WebP => "image/webp",
        ImageFormat::Gif => "image/gif",
        _ => "application/octet-stream",
    }
}

/// The media type of stored bytes, from their header alone (no decoding:
/// they were checked when stored).
pub fn media_type_of(bytes: &[u8]) -> Result<&'static str, VisionError> {
    sniff(bytes).map(media_type)
}

/// The format of these bytes, if it is one Braid reads.
pub fn sniff(bytes: &[u8]) -> Result<ImageFormat, VisionError> {
    match image::guess_format(bytes) {
        Ok(f @ (ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::WebP | ImageFormat::Gif)) => Ok(f),
        Ok(other) => Err(VisionError::Unsupported(format!("{other:?}"))),
        Err(_) if bytes.is_empty() => Err(VisionError::Corrupt("it is empty".into())),
        Err(_) => Err(VisionError::Unsupported("unknown format".into())),
    }
}

pub fn decode(bytes: &[u8]) -> Result<Decoded, VisionError> {
    let format = sniff(bytes)?;
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(classify)?;
    let orientation = decoder.orientation().unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut image = DynamicImage::from_decoder(decoder).map_err(classify)?;
    let reoriented = orientation != image::metadata::Orientation::NoTransforms;
    image.apply_orientation(orientation);
    Ok(Decoded { image, format, reoriented })
}

fn classify(e: image::ImageError) -> VisionError {
    match e {
        image::ImageError::Limits(l) => VisionError::TooLarge(format!("{l} (at most {MAX_SIDE} px a side)")),
        image::ImageError::Unsupported(u) => VisionError::Unsupported(u.to_string()),
        other => VisionError::Corrupt(other.to_string()),
    }
}
