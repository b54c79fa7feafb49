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

mod decode;
pub mod exposure;

pub use exposure::{Carried, Exposure};

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::LazyLock;

/// Shorter known values are not hidden, unless a secret file gave them
/// ([`SecretFilter::learn_from_file`]): they would match ordinary words.
pub const MIN_KNOWN: usize = 8;
/// A secret file's values are hidden from this length on; shorter than
/// [`MIN_KNOWN`] only where they stand alone (not inside a longer word).
pub const MIN_FILE_VALUE: usize = 4;

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
    // To its end line, or where the key's characters stop when it has
    // none (a key cut short is still a key): never a search to the text's
    // end for a footer that is not there (that cost 0.5 ms a MB).
    (
        "private-key",
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----(?:[A-Za-z0-9+/=:,\s-]*?-----END [A-Z ]*PRIVATE KEY-----|[A-Za-z0-9+/=\s]*)",
    ),
    ("api-key", r"(?-u:\b)sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}"),
    ("github", r"(?-u:\b)(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})"),
    ("aws", r"(?-u:\b)(?:AKIA|ASIA)[0-9A-Z]{16}(?-u:\b)"),
    ("slack", r"(?-u:\b)xox[abposr]-[A-Za-z0-9-]{10,}"),
    ("jwt", r"(?-u:\b)eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ("url-password", r"://[^\s/:@]+:(?P<v>[^\s/@]{3,})@"),
    (
        "assigned",
        r#"(?i:(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|PASSPHRASE)(?:S|_[A-Z0-9_]*)?["']?\s*[:=]\s*["']?(?P<v>[A-Za-z0-9_\-./+=~!@$%^&*]{8,}))"#,
    ),
];

/// One regex per shape: each alone keeps the regex crate's literal
/// prefilter (`sk-`, `://`, `KEY`…), which one alternation of all eight
/// loses (2.6 ms a MB against 1 ms for the eight passes).
static SHAPE: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    SHAPES.iter().map(|(kind, re)| Regex::new(re).unwrap_or_else(|e| panic!("the secret shape {kind}: {e}"))).collect()
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
        if value.trim().len() >= MIN_KNOWN {
            self.add(value.trim(), kind);
        }
    }

    /// A value of a secret file (`.env`, `.env.local`…) named `name`:
    /// hidden whatever its length from [`MIN_FILE_VALUE`] on, unless it is
    /// plainly public ([`public_value`]).
    pub fn learn_from_file(&mut self, name: &str, value: &str) {
        let value = value.trim();
        if value.len() >= MIN_FILE_VALUE && !public_value(name, value) {
            self.add(value, name);
        }
    }

    fn add(&mut self, value: &str, kind: &str) {
        if self.known.iter().any(|(v, _)| v == value) {
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
                // A short value counts only standing alone: `hunter2`,
                // not the `hunter2` inside `hunter22x`.
                let alone = |at: Option<char>| at.is_none_or(|c| !c.is_alphanumeric());
                let short = hit.len() < MIN_KNOWN;
                if short && !(alone(text[..hit.start()].chars().next_back()) && alone(text[hit.end()..].chars().next()))
                {
                    continue;
                }
                spans.push((hit.start(), hit.end(), kind.clone()));
            }
        }
        for (re, (kind, pattern)) in SHAPE.iter().zip(SHAPES) {
            for m in re.find_iter(text) {
                // The value's group, where the shape has one, is read in
                // the match alone: groups cost the regex's slower engines,
                // and a short text lets it pick its quickest.
                let (start, value) = match pattern.contains("(?P<v>") {
                    true => match re.captures(m.as_str()).and_then(|c| c.name("v")) {
                        Some(v) => (m.start() + v.start(), v.as_str()),
                        None => continue,
                    },
                    false => (m.start(), m.as_str()),
                };
                if kind == "assigned" && !looks_secret(value) {
                    continue;
                }
                spans.push((start, start + value.len(), kind.to_owned()));
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

/// A placeholder as [`SecretFilter::placeholder`] writes it: `secret-`,
/// its kind, 8 hex digits.
static PLACEHOLDER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)secret-(?:[a-z0-9]+-){1,16}[0-9a-f]{8}(?-u:\b)")
        .unwrap_or_else(|e| panic!("the placeholder shape: {e}"))
});

/// The placeholders `text` holds (each once, in order of appearance):
/// a tool call holding one runs with a secret.
pub fn placeholders_in(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in PLACEHOLDER.find_iter(text) {
        if !out.iter().any(|p| p == m.as_str()) {
            out.push(m.as_str().to_owned());
        }
    }
    out
}

/// The placeholders approved calls of these messages ran with: the
/// secrets a later call's output is checked for.
pub fn used_in<'a>(messages: impl IntoIterator<Item = &'a braid_protocol::Message>) -> Vec<String> {
    use braid_protocol::{Approval, MessageType};
    let mut used: Vec<String> = Vec::new();
    for m in messages {
        let MessageType::ToolRequest { calls, .. } = &m.body else { continue };
        let ran = calls.iter().filter(|c| {
            matches!(c.approval, Approval::Approved | Approval::ApprovedOverwrite | Approval::ApprovedUnsandboxed)
        });
        for call in ran {
            for p in placeholders_in(&call.arguments) {
                if !used.contains(&p) {
                    used.push(p);
                }
            }
        }
    }
    used
}

/// What a placeholder says of its secret: its kind (`openai-key`,
/// `OPENAI_API_KEY` as a slug, `api-key`…).
pub fn kind_of(placeholder: &str) -> &str {
    let inner = placeholder.strip_prefix("secret-").unwrap_or(placeholder);
    inner.rsplit_once('-').map_or(inner, |(kind, _)| kind)
}

/// `text` with every placeholder in `found` replaced by its real value.
pub fn reveal(text: &str, found: &BTreeMap<String, String>) -> String {
    if found.is_empty() || !text.contains("secret-") {
        return text.to_owned();
    }
    found.iter().fold(text.to_owned(), |t, (placeholder, value)| t.replace(placeholder, value))
}

/// Whether a secret file's value is plainly not a secret: a boolean, a
/// number, a word that names an environment or a log level, a local
/// address, a path, or a URL without a password. Under a name that says
/// secret (`DB_PASSWORD=1234`) only booleans are.
pub fn public_value(name: &str, value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    const FLAGS: [&str; 10] = ["true", "false", "yes", "no", "on", "off", "null", "none", "enabled", "disabled"];
    if FLAGS.contains(&lower.as_str()) {
        return true;
    }
    if secret_name(name) {
        return false;
    }
    const WORDS: [&str; 17] = [
        "development",
        "production",
        "staging",
        "test",
        "testing",
        "local",
        "debug",
        "info",
        "warn",
        "warning",
        "error",
        "trace",
        "localhost",
        "utf-8",
        "utf8",
        "dev",
        "prod",
    ];
    let number =
        value.trim_start_matches(['-', '+']).split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    let address = value.split('.').count() == 4 && value.split('.').all(|p| p.parse::<u8>().is_ok());
    let path = value.starts_with('/') || value.starts_with("./") || value.starts_with("~/");
    let url = value.split_once("://").is_some_and(|(_, rest)| {
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        !authority.contains('@')
    });
    number || address || path || url || WORDS.contains(&lower.as_str())
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
