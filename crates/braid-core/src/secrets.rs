//! Secrets kept from the model. Before text leaves for a model, values
//! that are secrets — known ones (Braid's stored keys, environment
//! variables named like secrets, `.env` entries) and ones that look like
//! them (API keys by their prefixes, JWTs, private keys, passwords in
//! URLs, `NAME=value` where the name says secret) — are replaced by
//! placeholders. A placeholder is stable (the same value always gets the
//! same one, so caches and the model's references hold), derived from a
//! local key so it says nothing about the value, and made of characters a
//! shell leaves alone, so a model can put it in a command, where
//! [`reveal`] gives the real value back at execution.

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// Shorter known values are not hidden: they would match ordinary words.
pub const MIN_KNOWN: usize = 8;

/// Words that make an environment variable or a setting's name a secret's.
const SECRET_WORDS: [&str; 6] = ["SECRET", "TOKEN", "PASSWORD", "PASSWD", "CREDENTIAL", "PASSPHRASE"];

/// Whether a variable named `name` holds a secret: a part that is KEY or
/// ends in it (`OPENAI_API_KEY`, `APIKEY`), or one of [`SECRET_WORDS`].
pub fn secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|part| part.ends_with("KEY") || SECRET_WORDS.iter().any(|w| part.contains(w)))
}

/// `NAME=value` lines of a `.env` file (comments, `export` and quotes
/// understood).
pub fn dotenv_entries(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| {
            let line = line.trim();
            let line = line.strip_prefix("export ").unwrap_or(line);
            let (name, value) = line.split_once('=')?;
            let name = name.trim();
            if name.is_empty() || name.starts_with('#') || name.contains(char::is_whitespace) {
                return None;
            }
            let value = value.trim();
            let value = match value.chars().next() {
                Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or(""),
                _ => value.split(" #").next().unwrap_or("").trim(),
            };
            Some((name.to_owned(), value.to_owned()))
        })
        .collect()
}

/// The shapes of secrets, each with the kind its placeholder names. The
/// value is the group `v` where only a part is secret (a URL's password,
/// an assignment's value).
const SHAPES: [(&str, &str); 8] = [
    ("private-key", r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----"),
    ("api-key", r"(?-u:\b)sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}"),
    ("github", r"(?-u:\b)(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})"),
    ("aws", r"(?-u:\b)(?:AKIA|ASIA)[0-9A-Z]{16}(?-u:\b)"),
    ("slack", r"(?-u:\b)xox[abposr]-[A-Za-z0-9-]{10,}"),
    ("jwt", r"(?-u:\b)eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ("url-password", r"(?-u:\b)[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/:@]+:(?P<v>[^\s/@]{3,})@"),
    (
        "assigned",
        r#"(?i:(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIALS?|PASSPHRASE)[A-Z0-9_]*["']?\s*[:=]\s*["']?(?P<v>[A-Za-z0-9_\-./+=~!@$%^&*]{8,}))"#,
    ),
];

/// Every shape in one regex, so the text is read once: group `k{i}` is
/// shape i's whole match, `v{i}` its value where it has one.
static SHAPE: LazyLock<Regex> = LazyLock::new(|| {
    let alternatives: Vec<String> = SHAPES
        .iter()
        .enumerate()
        .map(|(i, (_, re))| format!("(?P<k{i}>{})", re.replace("(?P<v>", &format!("(?P<v{i}>"))))
        .collect();
    Regex::new(&alternatives.join("|")).unwrap_or_else(|e| panic!("the secret shapes: {e}"))
});

/// Whether an assigned value looks like a secret rather than code or a
/// number: letters and digits both, and none of the marks of code — a
/// reference (`&Keys2`), a path (`a::b`, `..`), a snake_case name
/// (`proc_macro2`), an encoded space — nor a placeholder already.
fn looks_secret(value: &str) -> bool {
    let letters = value.chars().any(|c| c.is_ascii_alphabetic());
    let digits = value.chars().any(|c| c.is_ascii_digit());
    let snake = value.contains('_')
        && value.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.');
    let code = value.starts_with(['&', '*']) || value.contains("::") || value.contains("..") || value.contains("%20");
    letters && digits && !snake && !code && !value.starts_with("secret-")
}

/// What [`SecretFilter::hide`] replaced: each placeholder and its value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hidden {
    pub text: String,
    pub found: BTreeMap<String, String>,
}

pub struct SecretFilter {
    key: [u8; 32],
    /// Known values and their kinds, longest first once built.
    known: Vec<(String, String)>,
    matcher: Option<AhoCorasick>,
}

impl SecretFilter {
    /// `key`: the local key placeholders are derived from.
    pub fn new(key: [u8; 32]) -> SecretFilter {
        SecretFilter { key, known: Vec::new(), matcher: None }
    }

    /// A value to hide wherever it appears, named by `kind` (a variable's
    /// or a provider's name). Short values are passed over.
    pub fn learn(&mut self, value: &str, kind: &str) {
        let value = value.trim();
        if value.len() < MIN_KNOWN || self.known.iter().any(|(v, _)| v == value) {
            return;
        }
        self.known.push((value.to_owned(), slug(kind)));
        self.known.sort_by_key(|(v, _)| std::cmp::Reverse(v.len()));
        self.matcher = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(self.known.iter().map(|(v, _)| v.as_str()))
            .ok();
    }

    pub fn known(&self) -> usize {
        self.known.len()
    }

    /// The placeholder that stands for `value`.
    pub fn placeholder(&self, value: &str, kind: &str) -> String {
        let mut hash = Sha256::new();
        hash.update(self.key);
        hash.update(value.as_bytes());
        let digest = hash.finalize();
        let hex: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
        format!("secret-{kind}-{hex}")
    }

    /// `text` with every secret replaced by its placeholder.
    pub fn hide(&self, text: &str) -> Hidden {
        let mut found = BTreeMap::new();
        let mut spans: Vec<(usize, usize, String)> = Vec::new();
        if let Some(m) = &self.matcher {
            for hit in m.find_iter(text) {
                let kind = &self.known[hit.pattern().as_usize()].1;
                spans.push((hit.start(), hit.end(), kind.clone()));
            }
        }
        // Cheap test first: most text holds none of the shapes.
        if might_hold_a_shape(text) {
            for caps in SHAPE.captures_iter(text) {
                let Some(i) = (0..SHAPES.len()).find(|i| caps.name(&format!("k{i}")).is_some()) else { continue };
                let kind = SHAPES[i].0;
                let Some(m) = caps.name(&format!("v{i}")).or_else(|| caps.name(&format!("k{i}"))) else { continue };
                if kind == "assigned" && !looks_secret(m.as_str()) {
                    continue;
                }
                spans.push((m.start(), m.end(), kind.to_owned()));
            }
        }
        if spans.is_empty() {
            return Hidden { text: text.to_owned(), found };
        }
        spans.sort_by_key(|(start, end, _)| (*start, std::cmp::Reverse(*end)));
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end, kind) in spans {
            if start < at {
                continue; // inside a span already replaced
            }
            let value = &text[start..end];
            let placeholder = self.placeholder(value, &kind);
            out.push_str(&text[at..start]);
            out.push_str(&placeholder);
            found.insert(placeholder, value.to_owned());
            at = end;
        }
        out.push_str(&text[at..]);
        Hidden { text: out, found }
    }
}

/// Whether any pattern could match: each needs one of these pieces.
fn might_hold_a_shape(text: &str) -> bool {
    static PIECES: LazyLock<AhoCorasick> = LazyLock::new(|| {
        let pieces = [
            "-----BEGIN",
            "sk-",
            "gh",
            "github_pat_",
            "AKIA",
            "ASIA",
            "xox",
            "eyJ",
            "://",
            "key",
            "KEY",
            "Key",
            "secret",
            "SECRET",
            "Secret",
            "token",
            "TOKEN",
            "Token",
            "passw",
            "PASSW",
            "Passw",
            "credential",
            "CREDENTIAL",
            "passphrase",
            "PASSPHRASE",
        ];
        AhoCorasick::new(pieces).unwrap_or_else(|e| panic!("pieces: {e}"))
    });
    PIECES.is_match(text)
}

/// `text` with every placeholder in `found` replaced by its real value.
pub fn reveal(text: &str, found: &BTreeMap<String, String>) -> String {
    if found.is_empty() || !text.contains("secret-") {
        return text.to_owned();
    }
    found.iter().fold(text.to_owned(), |t, (placeholder, value)| t.replace(placeholder, value))
}

/// A kind as it goes in a placeholder: lowercase letters, digits, dashes.
fn slug(kind: &str) -> String {
    let s: String = kind
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("-");
    if s.is_empty() {
        "value".to_owned()
    } else {
        s.chars().take(32).collect()
    }
}
