//! Whether text may carry a secret that a tool call was given. A call
//! that used a placeholder ran with the real value, and its output can
//! hold that value in a form the shape filter no longer knows: reversed
//! (`rev`), encoded (`base64`, `base32`, `xxd -p`, URL encoding, rot13),
//! split across lines (`fold`) or with separators between its
//! characters, or several of these in turn. [`Exposure::carried`] looks
//! for any 10-character piece of a value in each of those forms, by
//! undoing the encodings (at every offset, in bounded depth) rather than
//! by guessing how the value was placed; the caller withholds what it
//! finds from the model.

use super::decode;
use aho_corasick::{AhoCorasick, MatchKind};
use std::collections::{BTreeSet, HashSet};

/// A piece this long of a value, in any form, counts as the value.
pub const PIECE: usize = 10;
/// Shorter values are looked for whole; shorter still (after dropping
/// everything but letters and digits) are not looked for at all.
const MIN_VALUE: usize = 4;
/// Encodings undone one inside another, at most.
const DEPTH: usize = 3;
/// Bytes decoded for one look, at most, for each byte looked at and
/// besides (the first level of decodings of a text reads it about 300
/// times; what they give is rarely text): past it the look is incomplete.
const BUDGET_PER_BYTE: usize = 512;
const BUDGET_BASE: usize = 16 << 20;
/// Longer texts are not looked at: the look is incomplete (tools cap
/// their output far below this).
const MAX_TEXT: usize = 1 << 20;

/// The values to look for, each with its placeholder.
pub struct Exposure {
    matcher: Option<AhoCorasick>,
    /// For each pattern, the value it is a piece of.
    owners: Vec<usize>,
    placeholders: Vec<String>,
    /// The shortest pattern: decoded stretches shorter cannot hold one.
    shortest: usize,
}

/// What a look found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Carried {
    /// The placeholders of the values found, in any form.
    pub placeholders: BTreeSet<String>,
    /// False when the look stopped at its budget before it was done.
    pub complete: bool,
}

impl Exposure {
    /// `values`: (placeholder, value) pairs.
    pub fn new<'a>(values: impl IntoIterator<Item = (&'a str, &'a str)>) -> Exposure {
        let mut patterns: Vec<String> = Vec::new();
        let mut owners = Vec::new();
        let mut placeholders = Vec::new();
        for (placeholder, value) in values {
            let letters = normalise(value);
            if letters.len() < MIN_VALUE {
                continue;
            }
            let owner = placeholders.len();
            placeholders.push(placeholder.to_owned());
            let reversed: String = letters.chars().rev().collect();
            let piece = PIECE.min(letters.len());
            let mut own = HashSet::new();
            for form in [letters.clone(), reversed.clone(), decode::rot13(&letters), decode::rot13(&reversed)] {
                let bytes = form.as_bytes();
                for window in bytes.windows(piece) {
                    let p = String::from_utf8_lossy(window).into_owned();
                    if own.insert(p.clone()) {
                        patterns.push(p);
                        owners.push(owner);
                    }
                }
            }
        }
        let shortest = patterns.iter().map(String::len).min().unwrap_or(PIECE);
        let matcher = match patterns.is_empty() {
            true => None,
            false => AhoCorasick::builder().match_kind(MatchKind::LeftmostFirst).build(&patterns).ok(),
        };
        Exposure { matcher, owners, placeholders, shortest }
    }

    /// Whether there is anything to look for.
    pub fn is_empty(&self) -> bool {
        self.matcher.is_none()
    }

    /// The values `text` may carry, in any of the forms above.
    pub fn carried(&self, text: &str) -> Carried {
        let mut found = Carried { placeholders: BTreeSet::new(), complete: true };
        if self.matcher.is_none() {
            return found;
        }
        if text.len() > MAX_TEXT {
            found.complete = false;
            return found;
        }
        let budget = BUDGET_BASE + BUDGET_PER_BYTE * text.len();
        let mut look = Look { exposure: self, spent: 0, budget, seen: HashSet::new(), found: &mut found.placeholders };
        let done = look.text(text, 0);
        found.complete = done;
        found
    }

    /// The placeholders of the values whose pieces the letters and digits
    /// of `text` hold (lowercased; rot13 and reversed forms included).
    fn hits(&self, text: &str, into: &mut BTreeSet<String>) -> bool {
        let Some(m) = &self.matcher else { return false };
        let letters = normalise(text);
        let mut hit = false;
        // Leftmost and apart: one piece a place is enough to name a value.
        for found in m.find_iter(&letters) {
            into.insert(self.placeholders[self.owners[found.pattern().as_usize()]].clone());
            hit = true;
        }
        hit
    }
}

/// A look under way: the budget spent and the texts already read.
struct Look<'a> {
    exposure: &'a Exposure,
    spent: usize,
    budget: usize,
    seen: HashSet<u64>,
    found: &'a mut BTreeSet<String>,
}

impl Look<'_> {
    /// False when the budget ran out.
    fn text(&mut self, text: &str, depth: usize) -> bool {
        if !self.seen.insert(fingerprint(text)) {
            return true;
        }
        let views = views(text);
        // The pieces are looked for reversed and turned too: each way of
        // reading the text is matched once, as it is.
        for view in views.iter().filter(|v| v.matched) {
            if self.exposure.hits(&String::from_utf8_lossy(&view.bytes), self.found) {
                return true;
            }
        }
        if depth == DEPTH {
            return true;
        }
        for view in &views {
            for bytes in turns(&view.bytes) {
                if !self.decode(&bytes, view.decoders, depth) {
                    return false;
                }
                if !self.found.is_empty() {
                    return true;
                }
            }
        }
        true
    }

    /// Every decoding of `bytes` read on: URL escapes where a stretch
    /// holds one (decoding a whole text for its one `%20` reads it again
    /// for little), then `decoders` at every offset.
    fn decode(&mut self, bytes: &[u8], decoders: &[Decoder], depth: usize) -> bool {
        for run in escaped_runs(bytes) {
            self.spent += run.len();
            if !self.decoded(&decode::percent(run), depth) {
                return false;
            }
            if !self.found.is_empty() {
                return true;
            }
        }
        for (decoder, offsets) in decoders {
            for offset in 0..*offsets {
                self.spent += bytes.len();
                if self.spent > self.budget {
                    return false;
                }
                if !self.decoded(&decoder(bytes, offset), depth) {
                    return false;
                }
                if !self.found.is_empty() {
                    return true;
                }
            }
        }
        true
    }

    /// Reads on in what a decoding gave: its stretches of text.
    fn decoded(&mut self, bytes: &[u8], depth: usize) -> bool {
        for run in decode::printable_runs(bytes, self.exposure.shortest) {
            if !self.text(&run, depth + 1) {
                return false;
            }
            if !self.found.is_empty() {
                return true;
            }
        }
        true
    }
}

/// One way of reading a text before decoding it.
struct View {
    bytes: Vec<u8>,
    /// What is decoded from it.
    decoders: &'static [Decoder],
    /// Whether its letters and digits are matched against the pieces
    /// (not when another view has the same ones).
    matched: bool,
}

/// The ways to read `text`: without white space (a `fold`ed or wrapped
/// encoding); without separators too, for base64 whose alphabets hold
/// some; and, where one character stands between every two (a
/// separator put in, whatever it is), every other character, taken
/// before and after the white space goes.
fn views(text: &str) -> Vec<View> {
    let white = |b: &u8| b.is_ascii_whitespace();
    let compact: Vec<u8> = text.bytes().filter(|b| !white(b)).collect();
    let bare: Vec<u8> = compact.iter().copied().filter(|b| !SEPARATORS.contains(b)).collect();
    let mut views = vec![View { bytes: bare, decoders: &DECODERS[..1], matched: false }];
    for bytes in [text.as_bytes(), compact.as_slice()] {
        for start in 0..2 {
            if interleaved(bytes, 1 - start) {
                let bytes = bytes.iter().skip(start).step_by(2).copied().filter(|b| !white(b)).collect();
                views.push(View { bytes, decoders: &DECODERS, matched: true });
            }
        }
    }
    views.push(View { bytes: compact, decoders: &DECODERS, matched: true });
    views
}

/// Whether the characters of `bytes` from `start` on, every other one,
/// hold a run of one character long enough to sit between the
/// characters of a piece.
fn interleaved(bytes: &[u8], start: usize) -> bool {
    let mut run = 0;
    let mut last = None;
    for &b in bytes.iter().skip(start).step_by(2) {
        run = if Some(b) == last { run + 1 } else { 1 };
        last = Some(b);
        if run >= PIECE - 1 {
            return true;
        }
    }
    false
}

/// A view as it is, reversed (`rev`), turned by rot13 (`tr`), and both.
fn turns(bytes: &[u8]) -> [Vec<u8>; 4] {
    let turned = decode::rot13(&String::from_utf8_lossy(bytes)).into_bytes();
    let reversed: Vec<u8> = bytes.iter().rev().copied().collect();
    let both: Vec<u8> = turned.iter().rev().copied().collect();
    [bytes.to_vec(), reversed, turned, both]
}

/// What the runtime found in a call's output, for the core to decide on:
/// the values themselves never enter the core's state.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SecretCheck {
    /// The placeholders of the values the output may carry.
    pub carried: BTreeSet<String>,
    /// False when the look stopped at its budget.
    pub complete: bool,
    /// The output is plain text ([`plain`]).
    pub plain: bool,
}

impl Exposure {
    /// The check of a call's texts (its output, error, what the sandbox
    /// stopped).
    pub fn check(&self, texts: &[&str]) -> SecretCheck {
        let mut check = SecretCheck { carried: BTreeSet::new(), complete: true, plain: true };
        for text in texts {
            let c = self.carried(text);
            check.carried.extend(c.placeholders);
            check.complete &= c.complete;
            check.plain &= plain(text);
        }
        check
    }
}

/// Whether a call's output is kept from the model, and the secrets to
/// name then. `used_here`: the placeholders the call's arguments held.
/// A call that used a secret is withheld when its output may carry it,
/// could not be read whole, is not plain text or brought images, and
/// when no check came (nothing to compare with: the safe side); any
/// later call when its output carries one used before.
pub fn withhold(used_here: &[String], check: Option<&SecretCheck>, images: bool) -> Option<Vec<String>> {
    let carried: Vec<String> = check.map(|c| c.carried.iter().cloned().collect()).unwrap_or_default();
    if !carried.is_empty() {
        return Some(carried);
    }
    if used_here.is_empty() {
        return None;
    }
    let unread = check.is_none_or(|c| !c.complete || !c.plain);
    (unread || images).then(|| used_here.to_vec())
}

/// What the model gets in place of a withheld output.
pub fn withheld_text(secrets: &[String]) -> String {
    format!(
        "[output withheld: this call ran with a secret ({}) and what it printed may contain it, so it is not \
         shown to you. The user can read it and release it to you.]",
        secrets.join(", ")
    )
}

/// The stretches of URL-safe characters that hold a `%XX` escape.
fn escaped_runs(view: &[u8]) -> Vec<&[u8]> {
    let url = |b: &u8| b.is_ascii_alphanumeric() || b"%-._~+".contains(b);
    view.split(|b| !url(b))
        .filter(|run| run.windows(3).any(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit()))
        .collect()
}

/// A decoder from an offset, and how many offsets an encoding has.
type Decoder = (fn(&[u8], usize) -> Vec<u8>, usize);
const DECODERS: [Decoder; 3] = [(decode::base64, 4), (decode::base32, 8), (decode::hex, 2)];

/// Characters a command may put between a value's characters.
const SEPARATORS: &[u8] = b"-:_.,;|/\\'\"`";

/// Letters and digits only, lowercased: the form pieces are compared in,
/// so case, separators and line breaks do not hide a value.
fn normalise(text: &str) -> String {
    text.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

fn fingerprint(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// Whether a tool's output is plain text: no control characters but tabs
/// and line ends, and nothing that was not UTF-8 (its replacement
/// character). Output that is not may carry a value in a form no look
/// can read.
pub fn plain(text: &str) -> bool {
    !text.chars().any(|c| c == '\u{fffd}' || (c.is_control() && !matches!(c, '\t' | '\n' | '\r')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(value: &str) -> Exposure {
        Exposure::new([("secret-key-00000000", value)])
    }

    #[test]
    fn a_value_is_found_in_its_common_forms_and_ordinary_text_is_not() {
        let e = one("sk-proj-Zx9fQ2mK7pL4wR8tY");
        for carried in [
            "the key: sk-proj-Zx9fQ2mK7pL4wR8tY",
            "Yt8Rw4Lp7Km2Qf9xZ-jorp-ks",
            "c2stcHJvai1aeDlmUTJtSzdwTDR3Ujh0WQo=",
            "ONVS24DSN5VC2WTYHFTFCMTNJM3XATBUO5JDQ5CZBI======",
            "736b2d70726f6a2d5a783966513",
            "sk-pr\noj-Zx9\nfQ2mK\n7pL4w",
            "s k - p r o j - Z x 9 f Q 2 m K",
            "fx-cebw-Mk9sD2zX7cY4jE8gL",
        ] {
            assert!(!e.carried(carried).placeholders.is_empty(), "found in {carried:?}");
        }
        for plain in ["cargo test passed: 42 tests", "HTTP/1.1 200 OK\n{\"ok\":true}", "c2VjcmV0LW90aGVy"] {
            let c = e.carried(plain);
            assert!(c.placeholders.is_empty() && c.complete, "nothing in {plain:?}");
        }
    }

    #[test]
    fn control_characters_and_broken_utf8_are_not_plain() {
        assert!(plain("line one\n\tline two\r\n"));
        assert!(!plain("bell\u{7}"));
        assert!(!plain(&String::from_utf8_lossy(b"\xff\xfe")));
    }
}
