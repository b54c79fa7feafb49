//! A secret a command was given never reaches the model through a
//! transform of it. The property: for any value and any chain of up to
//! three transforms of the set (reversed, base64 in both alphabets,
//! base32, hex in either case, URL encoding, rot13, split across lines,
//! a separator between characters), inside other output, what the model
//! receives of the call holds no 10-character piece of the value nor of
//! any step of the chain. The encoders here are written apart from the
//! decoders Braid uses, from the RFCs.

use braid_core::secrets::exposure::{withheld_text, withhold, Exposure, PIECE};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Transform {
    Reverse,
    Base64,
    Base64Url,
    Base32,
    Hex,
    HexUpper,
    Url,
    Rot13,
    /// `fold -w N`: a line break every N characters.
    Fold(usize),
    /// One character between every two (`sed 's/./&-/g'`).
    Separate(char),
}

fn base64(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
        let chars = chunk.len() + 1;
        for i in 0..4 {
            if i < chars {
                out.push(alphabet[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

fn base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::new();
    for chunk in bytes.chunks(5) {
        let mut n = 0u64;
        for (i, b) in chunk.iter().enumerate() {
            n |= u64::from(*b) << (32 - 8 * i);
        }
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            out.push(if i < chars { ALPHABET[((n >> (35 - 5 * i)) & 31) as usize] as char } else { '=' });
        }
    }
    out
}

fn apply(t: &Transform, text: &str) -> String {
    const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    match t {
        Transform::Reverse => text.chars().rev().collect(),
        // `echo … | base64` encodes the line end too.
        Transform::Base64 => base64(format!("{text}\n").as_bytes(), STD, true),
        Transform::Base64Url => base64(text.as_bytes(), URL, false),
        Transform::Base32 => base32(text.as_bytes()),
        Transform::Hex => text.bytes().map(|b| format!("{b:02x}")).collect(),
        Transform::HexUpper => text.bytes().map(|b| format!("{b:02X}")).collect(),
        Transform::Url => text
            .bytes()
            .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
            .collect(),
        Transform::Rot13 => text
            .chars()
            .map(|c| match c {
                'a'..='z' => (((c as u8 - b'a') + 13) % 26 + b'a') as char,
                'A'..='Z' => (((c as u8 - b'A') + 13) % 26 + b'A') as char,
                c => c,
            })
            .collect(),
        Transform::Fold(n) => {
            let chars: Vec<char> = text.chars().collect();
            chars.chunks(*n).map(|c| c.iter().collect::<String>()).collect::<Vec<_>>().join("\n")
        }
        Transform::Separate(sep) => text.chars().map(String::from).collect::<Vec<_>>().join(&sep.to_string()),
    }
}

fn transform() -> impl Strategy<Value = Transform> {
    prop_oneof![
        Just(Transform::Reverse),
        Just(Transform::Base64),
        Just(Transform::Base64Url),
        Just(Transform::Base32),
        Just(Transform::Hex),
        Just(Transform::HexUpper),
        Just(Transform::Url),
        Just(Transform::Rot13),
        (3usize..20).prop_map(Transform::Fold),
        prop::sample::select(vec![' ', '-', ':', '.', '_', ',', '|', '/']).prop_map(Transform::Separate),
    ]
}

/// Secrets as keys and passwords are: letters and digits with a few
/// marks, at least ten letters or digits.
fn secret() -> impl Strategy<Value = String> {
    "[A-Za-z0-9_+/=!@#.-]{10,48}"
        .prop_filter("ten letters or digits", |s| s.chars().filter(char::is_ascii_alphanumeric).count() >= PIECE)
}

/// Every window of `PIECE` characters of `text`.
fn pieces(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    chars.windows(PIECE).map(|w| w.iter().collect()).collect()
}

const PLACEHOLDER: &str = "secret-api-key-0a1b2c3d";

/// What the model receives of a call that ran with the secret.
fn received(secret: &str, output: &str) -> String {
    let exposure = Exposure::new([(PLACEHOLDER, secret)]);
    let check = exposure.check(&[output]);
    match withhold(&[PLACEHOLDER.to_owned()], Some(&check), false) {
        Some(secrets) => withheld_text(&secrets),
        None => output.to_owned(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn no_piece_of_a_secret_reaches_the_model_through_any_chain_of_transforms(
        value in secret(),
        chain in prop::collection::vec(transform(), 1..=3),
        before in "[a-z ]{0,40}",
        after in "[a-z .\n]{0,40}",
    ) {
        let mut steps = vec![value.clone()];
        for t in &chain {
            let next = apply(t, steps.last().unwrap());
            steps.push(next);
        }
        let output = format!("{before}{}{after}", steps.last().unwrap());
        let got = received(&value, &output);
        for step in &steps {
            for piece in pieces(step) {
                prop_assert!(!got.contains(&piece), "{piece:?} of {step:?} reached the model through {chain:?}");
            }
        }
    }

    #[test]
    fn a_later_call_s_ordinary_output_goes_to_the_model(value in secret(), output in "[ -~\n]{0,400}") {
        // A call that did not use the secret, after one that did: only
        // output that carries it is withheld.
        let exposure = Exposure::new([(PLACEHOLDER, value.as_str())]);
        let check = exposure.check(&[&output]);
        prop_assume!(pieces(&value).iter().all(|p| !output.contains(p.as_str())));
        prop_assert_eq!(withhold(&[], Some(&check), false), None);
    }
}

#[test]
fn a_call_that_used_a_secret_is_withheld_when_its_output_cannot_be_read() {
    let exposure = Exposure::new([(PLACEHOLDER, "hunter2hunter2")]);
    let used = [PLACEHOLDER.to_owned()];
    let binary = String::from_utf8_lossy(b"\x1f\x8b\x08\x00 gzip").into_owned();
    assert!(withhold(&used, Some(&exposure.check(&[&binary])), false).is_some(), "not plain text");
    assert!(withhold(&used, Some(&exposure.check(&["fine"])), true).is_some(), "it brought images");
    assert!(withhold(&used, None, false).is_some(), "nothing to compare with");
    assert_eq!(withhold(&used, Some(&exposure.check(&["HTTP 200 {\"ok\":true}"])), false), None, "plain and clean");
    // What the model is told names the placeholder, never the value.
    let text = withheld_text(&used);
    assert!(text.contains(PLACEHOLDER) && text.contains("release") && !text.contains("hunter2"), "{text}");
}

#[test]
fn real_outputs_of_other_work_are_not_taken_for_the_secret() {
    let exposure = Exposure::new([(PLACEHOLDER, "sk-proj-Qe4Tn8vLr2Wc6Jh1Ya5Km")]);
    let outputs = [
        include_str!("secrets.rs"),
        include_str!("../../src/secrets/exposure.rs"),
        "   Compiling braid-core v0.1.0\n    Finished `test` profile [unoptimized + debuginfo] target(s) in 3.2s",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0 a43f9c0d2b1e8f7a6c5d4e3f2a1b0c9d8e7f6a5b",
        "H4sIAAAAAAAAA+3BMQEAAADCoPVPbQsPoAAAAAAAAAAAAAAAAAAAAIA3A5reHScAKAAA",
    ];
    for output in outputs {
        let c = exposure.check(&[output]);
        assert!(c.carried.is_empty() && c.complete, "nothing carried in {:?}: {c:?}", &output[..output.len().min(80)]);
    }
}

#[test]
fn a_crafted_output_cannot_make_the_look_run_long_it_ends_incomplete() {
    // Base64 of base64 of … of a megabyte: every level decodes to text
    // again. The look stops at its budget and says it is incomplete (a
    // call that used a secret is then withheld).
    let mut text = "x".repeat(1 << 20);
    for _ in 0..3 {
        text = base64(text.as_bytes(), b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", true);
    }
    let exposure = Exposure::new([(PLACEHOLDER, "hunter2hunter2")]);
    let c = exposure.check(&[&text]);
    assert!(c.carried.is_empty());
    assert!(!c.complete, "a look this large stops at its budget");
}
