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

#[path = "gguf_header.rs"]
mod header;

use header::Header;
pub use header::MAX_NESTING;
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
        let file = braid_workspace::plain::open(path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
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

#[cfg(test)]
#[path = "gguf_tests.rs"]
mod tests;
