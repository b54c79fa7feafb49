//! The pure image rules: how an image is read for every mode × model ×
//! failure, sizes per provider, and what a request carries.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use braid_core::vision::{
    after_vision_failure, fit_within, for_request, limits_for, plan, sends_pixels, shrink_step, ReadPlan,
};
use braid_protocol::{
    ImageMode, ImageSource, Message, MessageId, MessageType, ProviderKind, Role, StoredImage, Timestamp,
};

fn stored() -> ImageSource {
    ImageSource::Stored(StoredImage {
        id: "a".repeat(64),
        media_type: "image/png".into(),
        width: 1920,
        height: 1080,
        bytes: 1000,
        name: Some("shot.png".into()),
    })
}

#[test]
fn every_mode_and_capability_has_its_plan() {
    use ImageMode::*;
    assert_eq!(plan(Ocr, "m", true), ReadPlan::Ocr { fallback: None });
    assert_eq!(plan(Ocr, "m", false), ReadPlan::Ocr { fallback: None });
    assert_eq!(plan(Vision, "m", true), ReadPlan::Vision);
    assert_eq!(plan(Auto, "m", true), ReadPlan::Vision);
    match plan(Auto, "smollm2", false) {
        ReadPlan::Ocr { fallback: Some(why) } => assert!(why.contains("smollm2 cannot see images")),
        other => panic!("{other:?}"),
    }
    match plan(Vision, "smollm2", false) {
        ReadPlan::Refuse(why) => assert!(why.contains("Choose a model with vision")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_vision_failure_falls_back_to_ocr_only_in_auto() {
    match after_vision_failure(ImageMode::Auto, "400 image too large") {
        ReadPlan::Ocr { fallback: Some(why) } => assert!(why.contains("400 image too large")),
        other => panic!("{other:?}"),
    }
    assert!(matches!(after_vision_failure(ImageMode::Vision, "x"), ReadPlan::Refuse(_)));
}

#[test]
fn sizes_keep_the_aspect_ratio_and_never_grow() {
    assert_eq!(fit_within(3840, 2160, 2048), (2048, 1152));
    assert_eq!(fit_within(2160, 3840, 1568), (882, 1568));
    assert_eq!(fit_within(800, 600, 2048), (800, 600));
    assert_eq!(fit_within(10_000, 1, 1568), (1568, 1));
    assert_eq!(fit_within(0, 0, 100), (1, 1));
    for kind in [ProviderKind::OpenAiCompatible, ProviderKind::Anthropic, ProviderKind::Gemini] {
        let l = limits_for(kind);
        let (w, h) = fit_within(7680, 4320, l.max_long_edge);
        assert_eq!(w, l.max_long_edge);
        assert!(h < w);
    }
    assert_eq!(limits_for(ProviderKind::Anthropic).max_long_edge, 1568);
    assert!(limits_for(ProviderKind::Anthropic).max_bytes < 5 * 1024 * 1024);
    assert_eq!(shrink_step(2048), Some(1536));
    assert_eq!(shrink_step(80), None);
}

#[test]
fn requests_carry_pixels_for_models_that_see_and_text_for_the_others() {
    let image = MessageType::Image {
        source: stored(),
        mode: ImageMode::Auto,
        vision_analysis: None,
        recognized_text: Some("Error 42".into()),
        ocr_confidence: Some(91.0),
        language: Some("eng".into()),
        error: None,
        used: Some(ImageMode::Ocr),
        fallback: None,
    };
    let msgs = vec![Message::new(MessageId(1), Timestamp(0), image.clone())];
    // A model that sees gets the image (its OCR text is not repeated).
    let seen = for_request(msgs.clone(), true);
    assert!(matches!(&seen[0].body, MessageType::Image { recognized_text: None, .. }));
    // One that does not gets the text, marked as OCR output with its confidence.
    let blind = for_request(msgs, false);
    let MessageType::Text { role: Role::User, parts } = &blind[0].body else { panic!() };
    let braid_protocol::ContentPart::Text { text } = &parts[0];
    assert!(text.contains("text recognised by OCR, confidence 91 %") && text.contains("Error 42"), "{text}");
    // What was read in the image is the image's words, marked as such.
    assert!(
        text.contains("<untrusted source=\"text in the image") && text.contains("Error 42\n</untrusted>"),
        "{text}"
    );
    // OCR mode never sends pixels; a workspace path never does either.
    assert!(!sends_pixels(ImageMode::Ocr, &stored(), true));
    assert!(!sends_pixels(ImageMode::Auto, &ImageSource::FilePath { path: "a.png".into() }, true));
    assert!(sends_pixels(ImageMode::Vision, &stored(), true));
}

#[test]
fn an_image_sent_as_pixels_is_priced_as_pixels() {
    let image = |w: u32, h: u32, mode: ImageMode| MessageType::Image {
        source: ImageSource::Stored(StoredImage {
            id: "a".repeat(64),
            media_type: "image/png".into(),
            width: w,
            height: h,
            bytes: 1,
            name: None,
        }),
        mode,
        vision_analysis: None,
        recognized_text: Some("text".into()),
        ocr_confidence: None,
        language: None,
        error: None,
        used: None,
        fallback: None,
    };
    // OpenAI's worked example: 2048×4096 → 768×1536 → 2×3 tiles → 1105 (+4 per message).
    assert_eq!(braid_core::vision::pixel_tokens(&image(2048, 4096, ImageMode::Auto), true), Some(1109));
    // 1920×1080 → 1365×768 → 3×2 tiles.
    assert_eq!(braid_core::vision::pixel_tokens(&image(1920, 1080, ImageMode::Auto), true), Some(85 + 170 * 6 + 4));
    assert_eq!(braid_core::vision::pixel_tokens(&image(100, 100, ImageMode::Auto), true), Some(85 + 170 + 4));
    // Text instead: priced as text elsewhere.
    assert_eq!(braid_core::vision::pixel_tokens(&image(1920, 1080, ImageMode::Auto), false), None);
    assert_eq!(braid_core::vision::pixel_tokens(&image(1920, 1080, ImageMode::Ocr), true), None);
}
