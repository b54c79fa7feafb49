use super::*;

#[test]
fn a_file_that_is_not_gguf_says_so() {
    let dir = std::env::temp_dir().join(format!("braid-gguf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fake = dir.join("fake.gguf");
    std::fs::write(&fake, b"PK\x03\x04 not a model").unwrap();
    assert!(Shape::read(&fake).unwrap_err().contains("not \"GGUF\""));
    std::fs::write(&fake, b"GGUF\x03\0\0\0").unwrap();
    assert!(Shape::read(&fake).unwrap_err().contains("not a GGUF model Braid can read"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_window_is_cut_to_what_memory_allows_and_what_the_model_knows() {
    let gib = 1u64 << 30;
    // A 7B-like shape: 32 layers, 8 KV heads of 128, 4.4 GB of weights.
    let shape = Shape {
        architecture: "llama".into(),
        layers: 32,
        embedding: 4096,
        heads: 32,
        kv_heads: 8,
        key_length: 128,
        value_length: 128,
        vocab: 128_256,
        trained_context: 131_072,
        weights: 4_400_000_000,
        data_start: 8 << 20,
    };
    // 128k tokens of cache is 16 GiB: on 12 GiB free it is cut until
    // the whole fits.
    let window = fitted_window(&shape, 131_072, Some(12 * gib));
    assert!((8192..131_072).contains(&window), "{window}");
    assert_ne!(fit(shape.estimate(u64::from(window)).total(), 12 * gib), Fit::TooBig);
    assert_eq!(fit(shape.estimate(u64::from(window) * 2).total(), 12 * gib), Fit::TooBig);
    // Plenty of memory: what was asked; never past the trained window.
    assert_eq!(fitted_window(&shape, 8192, Some(64 * gib)), 8192);
    assert_eq!(fitted_window(&Shape { trained_context: 2048, ..shape.clone() }, 8192, Some(64 * gib)), 2048);
    // Far too little: the smallest window, and loading says the rest.
    assert_eq!(fitted_window(&shape, 8192, Some(gib)), 512);
}

#[test]
fn fit_leaves_a_quarter_to_spare() {
    let gib = 1u64 << 30;
    assert_eq!(fit(3 * gib, 4 * gib), Fit::Fits);
    assert_eq!(fit(7 * gib / 2, 4 * gib), Fit::Tight);
    assert_eq!(fit(5 * gib, 4 * gib), Fit::TooBig);
}

/// Issue #65's crafted headers: each is refused in words, none crashes
/// (the nested one overflowed the stack when `skip` recursed).
#[test]
fn crafted_headers_are_unreadable_in_words() {
    use crate::crafted;
    let dir = tempfile::tempdir().unwrap();
    let read = |name: &str, bytes: Vec<u8>| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        Shape::read(&path)
    };
    let shape = read("ok.gguf", crafted::readable()).unwrap();
    assert_eq!((shape.layers, shape.embedding, shape.vocab, shape.trained_context), (2, 64, 8, 2048));
    for (name, bytes, why) in [
        ("nested.gguf", crafted::nested(), "nested more than 8 deep"),
        ("cut.gguf", crafted::truncated(), "cut short"),
        ("tensors.gguf", crafted::absurd_tensors(), "more than a model has"),
        ("layers.gguf", crafted::absurd_layers(), "layer count (4294967295) is not one a model has"),
    ] {
        let e = read(name, bytes).unwrap_err();
        assert!(e.contains("is not a GGUF model Braid can read") && e.contains(why), "{name}: {e}");
    }
    // Every prefix of a readable header: more is needed or it is refused,
    // never a panic.
    let whole = crafted::readable();
    for n in 0..whole.len() {
        let _ = Shape::from_prefix(&whole[..n], whole.len() as u64);
    }
    assert!(Shape::from_prefix(&crafted::nested(), 1 << 30).unwrap_err().unwrap().contains("nested"));
}
