//! An image as a provider receives it: upright, no larger than its limits,
//! encoded. The original bytes go as they are when they already fit.

use crate::decode::{decode, media_type, sniff};
use crate::VisionError;
use braid_core::vision::{fit_within, shrink_step, ImageLimits};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::{CompressionType, FilterType as PngFilter, PngEncoder};
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat};

#[derive(Debug, Clone)]
pub struct Prepared {
    pub media_type: &'static str,
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

pub fn prepare(bytes: &[u8], limits: ImageLimits) -> Result<Prepared, VisionError> {
    let format = sniff(bytes)?;
    let decoded = decode(bytes)?;
    let (w, h) = (decoded.image.width(), decoded.image.height());
    let fits = w.max(h) <= limits.max_long_edge && bytes.len() as u64 <= limits.max_bytes;
    // GIFs are re-encoded anyway: only their first frame is meant.
    if fits && !decoded.reoriented && format != ImageFormat::Gif {
        return Ok(Prepared { media_type: media_type(format), bytes: bytes.to_vec(), width: w, height: h });
    }
    // Photos stay JPEG; screenshots and diagrams stay lossless so that
    // small text remains legible, unless that does not fit.
    let photo = format == ImageFormat::Jpeg;
    let mut long = limits.max_long_edge.min(w.max(h));
    loop {
        let (tw, th) = fit_within(w, h, long);
        let scaled = if (tw, th) == (w, h) {
            decoded.image.clone()
        } else {
            decoded.image.resize_exact(tw, th, FilterType::Triangle)
        };
        let attempt = if photo { encode_jpeg(&scaled)? } else { encode_png(&scaled)? };
        if attempt.bytes.len() as u64 <= limits.max_bytes {
            return Ok(attempt);
        }
        let jpeg = encode_jpeg(&scaled)?;
        if jpeg.bytes.len() as u64 <= limits.max_bytes {
            return Ok(jpeg);
        }
        long = shrink_step(long)
            .ok_or_else(|| VisionError::TooLarge(format!("still over {} bytes at 64 px", limits.max_bytes)))?;
    }
}

fn encode_png(image: &DynamicImage) -> Result<Prepared, VisionError> {
    let mut bytes = Vec::new();
    // Fast compression: a 2048 px screenshot encodes in tens of
    // milliseconds instead of hundreds, for a slightly larger upload.
    let encoder = PngEncoder::new_with_quality(&mut bytes, CompressionType::Fast, PngFilter::Adaptive);
    let image = if image.color().has_alpha() { image.to_rgba8().into() } else { DynamicImage::from(image.to_rgb8()) };
    image.write_with_encoder(encoder).map_err(|e| VisionError::Encode(e.to_string()))?;
    Ok(Prepared { media_type: "image/png", bytes, width: image.width(), height: image.height() })
}

fn encode_jpeg(image: &DynamicImage) -> Result<Prepared, VisionError> {
    let mut bytes = Vec::new();
    let rgb = DynamicImage::from(image.to_rgb8());
    rgb.write_with_encoder(JpegEncoder::new_with_quality(&mut bytes, 85))
        .map_err(|e| VisionError::Encode(e.to_string()))?;
    Ok(Prepared { media_type: "image/jpeg", bytes, width: rgb.width(), height: rgb.height() })
}
