//! Decoding, orientation, scaling to each provider's limits, and the store.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use braid_core::vision::{limits_for, ImageLimits};
use braid_protocol::ProviderKind;
use braid_vision::{decode, prepare, ImageStore, VisionError};

#[test]
fn every_format_decodes_and_a_gif_gives_its_first_frame() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.png", "a.jpg", "a.webp", "a.gif"] {
        let bytes = std::fs::read(common::magick(dir.path(), name, &["-size", "320x200", "xc:red"])).unwrap();
        let d = decode(&bytes).unwrap();
        assert_eq!((d.image.width(), d.image.height()), (320, 200), "{name}");
    }
    // Two frames, red then blue: the first one counts.
    let gif = common::magick(dir.path(), "anim.gif", &["-size", "40x40", "xc:red", "-size", "40x40", "xc:blue"]);
    let d = decode(&std::fs::read(gif).unwrap()).unwrap();
    let px = d.image.to_rgb8().get_pixel(5, 5).0;
    assert!(px[0] > 200 && px[2] < 50, "first frame is red, got {px:?}");
}

#[test]
fn exif_orientation_is_applied() {
    let dir = tempfile::tempdir().unwrap();
    // 300×100 pixels stored, EXIF says "rotate 90° clockwise to view"
    // (orientation 6, as phones write it), in an APP1 segment after SOI.
    let jpg = std::fs::read(common::magick(dir.path(), "o.jpg", &["-size", "300x100", "xc:white"])).unwrap();
    let mut exif = vec![0xFF, 0xE1, 0, 34];
    exif.extend_from_slice(b"Exif\0\0MM\0*\0\0\0\x08");
    exif.extend_from_slice(&[0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]);
    let mut oriented = jpg[..2].to_vec();
    oriented.extend(exif);
    oriented.extend_from_slice(&jpg[2..]);
    let d = decode(&oriented).unwrap();
    assert!(d.reoriented);
    assert_eq!((d.image.width(), d.image.height()), (100, 300));
}

#[test]
fn unsupported_and_corrupt_images_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let bmp = std::fs::read(common::magick(dir.path(), "a.bmp", &["-size", "10x10", "xc:red"])).unwrap();
    let err = decode(&bmp).err().unwrap();
    assert!(matches!(err, VisionError::Unsupported(_)), "{err}");
    let mut png = std::fs::read(common::magick(dir.path(), "b.png", &["-size", "200x200", "plasma:"])).unwrap();
    png.truncate(png.len() / 3);
    assert!(matches!(decode(&png).err().unwrap(), VisionError::Corrupt(_)));
    assert!(matches!(decode(b"").err().unwrap(), VisionError::Corrupt(_)));
    assert!(matches!(decode(b"hello world").err().unwrap(), VisionError::Unsupported(_)));
}

#[test]
fn a_4k_screenshot_is_scaled_to_each_providers_limits() {
    let dir = tempfile::tempdir().unwrap();
    let lines = ["a 4K screenshot"];
    let png = common::text_image(dir.path(), "4k.png", "3840x2160", "white", "black", &lines);
    for kind in [ProviderKind::OpenAiCompatible, ProviderKind::Anthropic, ProviderKind::Gemini] {
        let limits = limits_for(kind);
        let p = prepare(&png, limits).unwrap();
        let d = decode(&p.bytes).unwrap();
        assert_eq!((d.image.width(), d.image.height()), (p.width, p.height));
        assert_eq!(p.width.max(p.height), limits.max_long_edge.min(3840), "{kind:?}");
        assert!((p.width as f64 / p.height as f64 - 16.0 / 9.0).abs() < 0.01);
        assert!(p.bytes.len() as u64 <= limits.max_bytes);
    }
}

#[test]
fn a_small_image_goes_unchanged_and_a_big_one_shrinks_until_it_fits_the_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let small = std::fs::read(common::magick(dir.path(), "s.png", &["-size", "200x100", "xc:white"])).unwrap();
    let p = prepare(&small, limits_for(ProviderKind::Anthropic)).unwrap();
    assert_eq!(p.bytes, small, "already within limits: sent as it is");
    // Noise does not compress: 1500×1500 is several MB as PNG.
    let noisy =
        std::fs::read(common::magick(dir.path(), "n.png", &["-size", "1500x1500", "xc:", "+noise", "Random"])).unwrap();
    let tight = ImageLimits { max_long_edge: 1500, max_bytes: 300 * 1024 };
    let p = prepare(&noisy, tight).unwrap();
    assert!(p.bytes.len() as u64 <= tight.max_bytes, "{} bytes", p.bytes.len());
    assert!(p.width <= 1500);
}

#[test]
fn the_store_keeps_each_image_once_by_content() {
    let dir = tempfile::tempdir().unwrap();
    let store = ImageStore::open(dir.path().join("images")).unwrap();
    let png = std::fs::read(common::magick(dir.path(), "x.png", &["-size", "64x32", "xc:blue"])).unwrap();
    let a = store.put(&png, Some("shot.png".into())).unwrap();
    let b = store.put(&png, None).unwrap();
    assert_eq!(a.id, b.id);
    assert_eq!(a.id.len(), 64);
    assert_eq!((a.width, a.height, a.media_type.as_str()), (64, 32, "image/png"));
    assert_eq!(std::fs::read_dir(store.dir()).unwrap().count(), 1);
    assert_eq!(store.get(&a.id).unwrap(), png);
    assert!(matches!(store.get("../../etc/passwd").err().unwrap(), VisionError::NotFound(_)));
    assert!(matches!(store.get(&"0".repeat(64)).err().unwrap(), VisionError::NotFound(_)));
    assert!(store.put(b"not an image", None).is_err());
    assert_eq!(std::fs::read_dir(store.dir()).unwrap().count(), 1, "a refused image leaves nothing behind");
}
