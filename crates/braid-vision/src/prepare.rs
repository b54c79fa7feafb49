//! An image as a provider receives it: upright, no larger than its limits,
//! encoded. The original bytes go as they are when they already fit.

use crate::decode::{decode, media_type, sniff};
use crate::VisionError;
use braid_core::vision::{fit_within, shrink_step, ImageLimits};
use fast_image_resize::{FilterType as ResizeFilter, ResizeAlg, ResizeOptions, Resizer};
use image::codecs::png::{CompressionType, FilterType as PngFilter, PngEncoder};
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
    let image = eight_bit(decoded.image);
    // Photos stay JPEG; screenshots and diagrams stay lossless so that
    // small text remains legible, unless that does not fit.
    let photo = format == ImageFormat::Jpeg;
    let mut long = limits.max_long_edge.min(w.max(h));
    loop {
        let (tw, th) = fit_within(w, h, long);
        let scaled = if (tw, th) == (w, h) { image.clone() } else { scale(&image, tw, th)? };
        let attempt = if photo { encode_jpeg(&scaled)? } else { encode_png(&scaled)? };
        if attempt.bytes.len() as u64 <= limits.max_bytes {
            return Ok(attempt);
        }
        if !photo {
            let jpeg = encode_jpeg(&scaled)?;
            if jpeg.bytes.len() as u64 <= limits.max_bytes {
                return Ok(jpeg);
            }
        }
        long = shrink_step(long)
            .ok_or_else(|| VisionError::TooLarge(format!("still over {} bytes at 64 px", limits.max_bytes)))?;
    }
}

/// Providers take 8 bits a channel. Screenshots already are; 16-bit
/// images (ImageMagick writes them) are narrowed here directly, which is
/// many times faster than image's general conversion.
fn eight_bit(image: DynamicImage) -> DynamicImage {
    fn narrow(v: &[u16]) -> Vec<u8> {
        v.iter().map(|&x| (x >> 8) as u8).collect()
    }
    let (w, h) = (image.width(), image.height());
    let narrowed = match &image {
        DynamicImage::ImageLuma16(b) => image::GrayImage::from_raw(w, h, narrow(b.as_raw())).map(DynamicImage::from),
        DynamicImage::ImageLumaA16(b) => {
            image::GrayAlphaImage::from_raw(w, h, narrow(b.as_raw())).map(DynamicImage::from)
        }
        DynamicImage::ImageRgb16(b) => image::RgbImage::from_raw(w, h, narrow(b.as_raw())).map(DynamicImage::from),
        DynamicImage::ImageRgba16(b) => image::RgbaImage::from_raw(w, h, narrow(b.as_raw())).map(DynamicImage::from),
        DynamicImage::ImageLuma8(_)
        | DynamicImage::ImageLumaA8(_)
        | DynamicImage::ImageRgb8(_)
        | DynamicImage::ImageRgba8(_) => return image,
        _ => None,
    };
    narrowed.unwrap_or_else(|| DynamicImage::from(image.into_rgba8()))
}

/// Bilinear with SIMD: sharp enough for text at the sizes providers take,
/// several times faster than image's own filters.
fn scale(image: &DynamicImage, width: u32, height: u32) -> Result<DynamicImage, VisionError> {
    let mut out = DynamicImage::new(width, height, image.color());
    let options = ResizeOptions::new().resize_alg(ResizeAlg::Convolution(ResizeFilter::Bilinear));
    Resizer::new().resize(image, &mut out, &options).map_err(|e| VisionError::Encode(e.to_string()))?;
    Ok(out)
}

fn encode_png(image: &DynamicImage) -> Result<Prepared, VisionError> {
    let mut bytes = Vec::new();
    // Fast compression: a 2048 px screenshot encodes in milliseconds
    // instead of tens, for a slightly larger upload.
    let encoder = PngEncoder::new_with_quality(&mut bytes, CompressionType::Fast, PngFilter::Adaptive);
    image.write_with_encoder(encoder).map_err(|e| VisionError::Encode(e.to_string()))?;
    Ok(Prepared { media_type: "image/png", bytes, width: image.width(), height: image.height() })
}

fn encode_jpeg(image: &DynamicImage) -> Result<Prepared, VisionError> {
    let (w, h) = (image.width(), image.height());
    let too_big = || VisionError::TooLarge(format!("{w}×{h} is too large for JPEG"));
    let (w16, h16) = (u16::try_from(w).map_err(|_| too_big())?, u16::try_from(h).map_err(|_| too_big())?);
    let (pixels, color) = match image {
        DynamicImage::ImageLuma8(b) => (std::borrow::Cow::Borrowed(b.as_raw()), jpeg_encoder::ColorType::Luma),
        DynamicImage::ImageRgb8(b) => (std::borrow::Cow::Borrowed(b.as_raw()), jpeg_encoder::ColorType::Rgb),
        other => (std::borrow::Cow::Owned(other.to_rgb8().into_raw()), jpeg_encoder::ColorType::Rgb),
    };
    let mut bytes = Vec::new();
    jpeg_encoder::Encoder::new(&mut bytes, 85)
        .encode(&pixels, w16, h16, color)
        .map_err(|e| VisionError::Encode(e.to_string()))?;
    Ok(Prepared { media_type: "image/jpeg", bytes, width: w, height: h })
}
