//! What a GGUF model will take in memory, from its header, before loading
//! it: the weights (the file's tensor data, mapped), the KV cache for the
//! chosen window, and llama.cpp's compute buffers. The figures follow how
//! llama.cpp sizes them on the CPU (f16 cache, batches of 512, no flash
//! attention) and are checked against what it reports when loading the
//! same files.
//!
//! The header comes from anywhere (another app's folder, a hub anyone
//! publishes to), so it is read as hostile: no recursion (nested arrays
//! are walked with a stack, [`MAX_NESTING`] deep at most), every count
//! and length bounded by what the format allows, every figure checked
//! for sense and multiplied without overflow, and a file whose tensors
//! point past its end is unreadable. A file that fails says why, in
//! words; it is never offered.

use std::io::{BufReader, Read, Seek};
use std::path::Path;

/// The shape of a model, as its header gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub architecture: String,
    pub layers: u64,
    pub embedding: u64,
    pub heads: u64,
    pub kv_heads: u64,
    /// Per head, for keys and values.
    pub key_length: u64,
    pub value_length: u64,
    pub vocab: u64,
    /// The window it was trained for.
    pub trained_context: u64,
    /// Bytes of tensor data (the file after its header).
    pub weights: u64,
    /// Where the tensor data starts: the header's size, about the same in
    /// every quantisation of one model.
    pub data_start: u64,
}

/// Memory for one model at one window, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    pub weights: u64,
    pub kv_cache: u64,
    pub compute: u64,
}

impl Estimate {
    pub fn total(&self) -> u64 {
        self.weights.saturating_add(self.kv_cache).saturating_add(self.compute)
    }
}

/// Tokens llama.cpp works on at once (Braid's batch; llama.cpp's default
/// micro-batch).
const UBATCH: u64 = 512;
const F32: u64 = 4;
const F16: u64 = 2;

impl Shape {
    /// Reads the header of the GGUF file at `path`.
    pub fn read(path: &Path) -> Result<Shape, String> {
        let file = std::fs::File::open(path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        Shape::from_reader(BufReader::new(file), size)
            .map_err(|e| format!("{} is not a GGUF model Braid can read: {e}", path.display()))
    }

    /// Reads a header from the first bytes of a file of `size` bytes (a
    /// remote file's first megabytes): `Err(None)` when they end before
    /// the header does, so more are needed.
    pub fn from_prefix(prefix: &[u8], size: u64) -> Result<Shape, Option<String>> {
        Shape::from_reader(std::io::Cursor::new(prefix), size).map_err(|e| {
            let short =
                e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::UnexpectedEof);
            (!short).then(|| e.to_string())
        })
    }

    /// The same model quantised to a file of `size` bytes.
    pub fn sized(&self, size: u64) -> Shape {
        Shape { weights: size.saturating_sub(self.data_start), ..self.clone() }
    }

    fn from_reader(mut r: impl Read + Seek, size: u64) -> Result<Shape, Box<dyn std::error::Error>> {
        let header = Header::read(&mut r)?;
        let shape = Shape::of(&header, &mut r, size)?;
        shape.check()?;
        // The tensors' data must be in the file: one cut short (a download
        // stopped, a copy that failed) would load as garbage or not at all.
        if header.last_offset.is_some_and(|o| shape.data_start.saturating_add(o) >= size) {
            return Err(format!(
                "it is cut short: its tensors' data goes past its end ({size} bytes); download or copy it again"
            )
            .into());
        }
        Ok(shape)
    }

    fn of(header: &Header, r: &mut impl Seek, size: u64) -> Result<Shape, Box<dyn std::error::Error>> {
        let arch = header.text("general.architecture").ok_or("the header names no architecture")?;
        let num = |key: &str| header.number(&format!("{arch}.{key}"));
        let embedding = num("embedding_length").ok_or("the header gives no embedding length")?;
        let heads = num("attention.head_count").filter(|h| *h > 0).ok_or("the header gives no head count")?;
        let head_dim = embedding / heads.max(1);
        // The header's end, rounded up to the alignment, is where the data
        // starts; the tensor infos come first, so the reader is past them.
        let align = header.number("general.alignment").unwrap_or(32).max(1);
        let start = r.stream_position().map_err(|e| e.to_string())?;
        let data = start.div_ceil(align) * align;
        Ok(Shape {
            layers: num("block_count").ok_or("the header gives no block count")?,
            embedding,
            heads,
            kv_heads: num("attention.head_count_kv").unwrap_or(heads),
            key_length: num("attention.key_length").unwrap_or(head_dim),
            value_length: num("attention.value_length").unwrap_or(head_dim),
            vocab: header.vocab.ok_or("the header has no vocabulary")?,
            trained_context: num("context_length").unwrap_or(0),
            weights: size.saturating_sub(data),
            data_start: data,
            architecture: arch,
        })
    }

    /// Whether the figures are ones a model can have: what a crafted
    /// header says otherwise is refused, not computed with.
    fn check(&self) -> Result<(), String> {
        let within = |what: &str, n: u64, most: u64| {
            if n == 0 || n > most {
                Err(format!("its {what} ({n}) is not one a model has"))
            } else {
                Ok(())
            }
        };
        within("layer count", self.layers, 1 << 12)?;
        within("embedding length", self.embedding, 1 << 20)?;
        within("head count", self.heads, 1 << 14)?;
        within("key-value head count", self.kv_heads, 1 << 14)?;
        within("key length", self.key_length, 1 << 16)?;
        within("value length", self.value_length, 1 << 16)?;
        within("vocabulary size", self.vocab, 1 << 24)?;
        if self.trained_context > 1 << 26 {
            return Err(format!("its trained window ({}) is not one a model has", self.trained_context));
        }
        Ok(())
    }

    /// Memory at a window of `context` tokens (saturating: the figures are
    /// checked, but a window is the caller's).
    pub fn estimate(&self, context: u64) -> Estimate {
        let mul = |xs: &[u64]| xs.iter().fold(1u64, |a, x| a.saturating_mul(*x));
        let kv_cache = mul(&[self.layers, context, self.kv_heads, self.key_length + self.value_length, F16]);
        // The compute buffer holds the largest step: the logits of a batch,
        // or one layer's attention scores (a row per head and one for the
        // mask), with the batch's activations beside either; then the
        // output row.
        let logits = mul(&[self.vocab, UBATCH, F32]);
        let attention = mul(&[self.heads + 1, context, UBATCH, F32]);
        let compute = logits
            .max(attention)
            .saturating_add(mul(&[3, self.embedding, UBATCH, F32]))
            .saturating_add(mul(&[self.vocab, F32]));
        Estimate { weights: self.weights, kv_cache, compute }
    }
}

/// How a model fits the memory free now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    Fits,
    /// Within what is free, but with little room for anything else.
    Tight,
    TooBig,
}

/// `needed` against `available` bytes: fits with a quarter to spare.
pub fn fit(needed: u64, available: u64) -> Fit {
    if needed.saturating_mul(4) <= available.saturating_mul(3) {
        Fit::Fits
    } else if needed <= available {
        Fit::Tight
    } else {
        Fit::TooBig
    }
}

/// The window to run `shape` with: `wanted` tokens at most, no more than
/// it was trained for, halved (down to 512) while the model would not fit
/// the `available` memory at it.
pub fn fitted_window(shape: &Shape, wanted: u32, available: Option<u64>) -> u32 {
    let mut window = match shape.trained_context {
        0 => wanted,
        trained => wanted.min(u32::try_from(trained).unwrap_or(u32::MAX)),
    };
    let Some(available) = available else { return window };
    while window > 512 && fit(shape.estimate(u64::from(window)).total(), available) == Fit::TooBig {
        window = (window / 2).max(512);
    }
    window
}

/// The estimate for the file at `path` at a window of `context` tokens
/// (at most the one it was trained for, as llama.cpp runs it), against
/// the memory free now; `None` when its header cannot be read.
pub fn memory(path: &Path, context: u32, available: Option<u64>) -> Option<braid_protocol::MemoryEstimate> {
    Shape::read(path).ok().map(|shape| memory_of(&shape, context, available))
}

/// As [`memory`], for a shape already read.
pub fn memory_of(shape: &Shape, context: u32, available: Option<u64>) -> braid_protocol::MemoryEstimate {
    let window = match shape.trained_context {
        0 => u64::from(context),
        trained => u64::from(context).min(trained),
    };
    let bytes = shape.estimate(window).total();
    let fit = match available.map(|a| fit(bytes, a)) {
        Some(Fit::TooBig) => braid_protocol::MemoryFit::TooBig,
        Some(Fit::Tight) => braid_protocol::MemoryFit::Tight,
        _ => braid_protocol::MemoryFit::Fits,
    };
    braid_protocol::MemoryEstimate { bytes, fit }
}

/// Memory free for a new program (`MemAvailable`), where the system says.
pub fn available_memory() -> Option<u64> {
    meminfo("MemAvailable:")
}

/// A `/proc/meminfo` figure (`key` with its colon), in bytes.
pub fn meminfo(key: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The header's key-value pairs Braid uses (numbers and texts), and the
/// vocabulary's size.
struct Header {
    values: Vec<(String, Value)>,
    vocab: Option<u64>,
    /// The largest tensor offset (into the data), if any tensor.
    last_offset: Option<u64>,
}

enum Value {
    Number(u64),
    Text(String),
    Other,
}

impl Header {
    fn number(&self, key: &str) -> Option<u64> {
        self.values.iter().find(|(k, _)| k == key).and_then(|(_, v)| match v {
            Value::Number(n) => Some(*n),
            _ => None,
        })
    }

    fn text(&self, key: &str) -> Option<String> {
        self.values.iter().find(|(k, _)| k == key).and_then(|(_, v)| match v {
            Value::Text(t) => Some(t.clone()),
            _ => None,
        })
    }

    /// The key-values, then past the tensor infos (so the reader stands
    /// at the end of the header).
    fn read(r: &mut (impl Read + Seek)) -> std::io::Result<Header> {
        let mut magic = [0u8; 4];
        r.read_exact(&mut magic)?;
        if &magic != b"GGUF" {
            return Err(bad("its first bytes are not \"GGUF\""));
        }
        let version = u32(r)?;
        if !(2..=3).contains(&version) {
            return Err(bad(&format!("GGUF version {version} is not one Braid reads")));
        }
        let tensors = u64(r)?;
        let count = u64(r)?;
        if tensors > MAX_TENSORS || count > MAX_KEYS {
            return Err(bad(&format!("it claims {tensors} tensors and {count} keys, more than a model has")));
        }
        let mut values = Vec::new();
        let mut vocab = None;
        for _ in 0..count {
            let key = string(r)?;
            let kind = u32(r)?;
            if key == "tokenizer.ggml.tokens" && kind == ARRAY {
                let (item, len) = (u32(r)?, u64(r)?);
                skip_items(r, item, len)?;
                vocab = Some(len);
                continue;
            }
            let value = match kind {
                0..=7 | 10 | 11 => Value::Number(number(r, kind)?),
                STRING => Value::Text(string(r)?),
                // An array of numbers (a per-layer count): its largest.
                ARRAY => {
                    let (item, len) = (u32(r)?, u64(r)?);
                    if matches!(item, 0..=7 | 10 | 11) {
                        let mut most = None;
                        for _ in 0..len.min(MAX_ITEMS) {
                            most = most.max(Some(number(r, item)?));
                        }
                        if len > MAX_ITEMS {
                            return Err(bad("an array in the header is too long"));
                        }
                        most.map_or(Value::Other, Value::Number)
                    } else {
                        skip_items(r, item, len)?;
                        Value::Other
                    }
                }
                other => {
                    skip(r, other)?;
                    Value::Other
                }
            };
            values.push((key, value));
        }
        let mut last_offset = None;
        for _ in 0..tensors {
            let _name = string(r)?;
            let dims = u32(r)?;
            if dims > MAX_DIMS {
                return Err(bad(&format!("a tensor has {dims} dimensions (llama.cpp's have at most 4)")));
            }
            for _ in 0..dims {
                u64(r)?;
            }
            let _kind = u32(r)?;
            let offset = u64(r)?;
            last_offset = last_offset.max(Some(offset));
        }
        Ok(Header { values, vocab, last_offset })
    }
}

const STRING: u32 = 8;
const ARRAY: u32 = 9;
/// Longer than any key or token: a broken file, not a long read.
const MAX_STRING: u64 = 1 << 24;
/// More than any model's (the largest have tens of thousands of tensors
/// and a few hundred keys).
const MAX_TENSORS: u64 = 1 << 20;
const MAX_KEYS: u64 = 1 << 16;
/// Items of one array: a vocabulary of millions at most.
const MAX_ITEMS: u64 = 1 << 26;
/// Arrays inside arrays: the format allows them, no model nests deeper.
pub const MAX_NESTING: usize = 8;
const MAX_DIMS: u32 = 8;

fn bad(why: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, why.to_owned())
}

fn u32(r: &mut impl Read) -> std::io::Result<u32> {
    let mut b = [0u8; 4];
    r.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

fn u64(r: &mut impl Read) -> std::io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn string(r: &mut impl Read) -> std::io::Result<String> {
    let len = u64(r)?;
    if len > MAX_STRING {
        return Err(bad("a text in the header is too long"));
    }
    let mut b = vec![0u8; len as usize];
    r.read_exact(&mut b)?;
    Ok(String::from_utf8_lossy(&b).into_owned())
}

/// A number of GGUF type `kind`, as u64 (negative ones as 0; floats cut).
fn number(r: &mut impl Read, kind: u32) -> std::io::Result<u64> {
    let mut b = [0u8; 8];
    let n = width(kind).unwrap_or(8) as usize;
    r.read_exact(&mut b[..n])?;
    Ok(match kind {
        1 => (b[0] as i8).max(0) as u64,
        3 => i16::from_le_bytes([b[0], b[1]]).max(0) as u64,
        5 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]).max(0) as u64,
        6 => f32::from_le_bytes([b[0], b[1], b[2], b[3]]).max(0.0) as u64,
        11 => i64::from_le_bytes(b).max(0) as u64,
        12 => f64::from_le_bytes(b).max(0.0) as u64,
        _ => u64::from_le_bytes(b),
    })
}

/// The size of a number of GGUF type `kind`.
fn width(kind: u32) -> Option<u64> {
    match kind {
        0 | 1 | 7 => Some(1),
        2 | 3 => Some(2),
        4..=6 => Some(4),
        10..=12 => Some(8),
        _ => None,
    }
}

/// Goes past `len` values of type `item` without reading them: a
/// tokenizer's hundred thousand texts are skipped over in the reader's
/// buffer (copied out one by one, they were most of the time a start took
/// to read the starter model's header). Arrays inside are walked with a
/// stack of what is left at each level, never by recursion: a crafted file
/// of arrays in arrays cannot exhaust the stack.
fn skip_items(r: &mut (impl Read + Seek), item: u32, len: u64) -> std::io::Result<()> {
    let mut left: Vec<(u32, u64)> = vec![(item, len)];
    while let Some((kind, n)) = left.last_mut() {
        if *n == 0 {
            left.pop();
            continue;
        }
        if *n > MAX_ITEMS {
            return Err(bad("an array in the header is too long"));
        }
        let kind = *kind;
        match (kind, width(kind)) {
            (_, Some(w)) => {
                // Numbers: all of this level at once.
                let bytes = (*n).checked_mul(w).filter(|b| *b <= i64::MAX as u64);
                r.seek_relative(bytes.ok_or_else(|| bad("an array in the header is too long"))? as i64)?;
                *n = 0;
            }
            (STRING, _) => {
                *n -= 1;
                let len = u64(r)?;
                if len > MAX_STRING {
                    return Err(bad("a text in the header is too long"));
                }
                r.seek_relative(len as i64)?;
            }
            (ARRAY, _) => {
                *n -= 1;
                let (inner, count) = (u32(r)?, u64(r)?);
                if left.len() >= MAX_NESTING {
                    return Err(bad(&format!("arrays are nested more than {MAX_NESTING} deep")));
                }
                left.push((inner, count));
            }
            (other, None) => return Err(bad(&format!("a value of unknown type {other}"))),
        }
    }
    Ok(())
}

/// Goes past one value of type `kind`.
fn skip(r: &mut (impl Read + Seek), kind: u32) -> std::io::Result<()> {
    match kind {
        ARRAY => {
            let (item, len) = (u32(r)?, u64(r)?);
            skip_items(r, item, len)
        }
        kind => skip_items(r, kind, 1),
    }
}

#[cfg(test)]
#[path = "gguf_tests.rs"]
mod tests;
