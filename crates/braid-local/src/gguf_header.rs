//! The GGUF header read as hostile bytes: the key-value pairs Braid
//! uses and the tensor infos' extent, every count and length bounded,
//! arrays in arrays walked with a stack (see the module above).

use std::io::{Read, Seek};

/// The header's key-value pairs Braid uses (numbers and texts), and the
/// vocabulary's size.
pub(super) struct Header {
    values: Vec<(String, Value)>,
    pub(super) vocab: Option<u64>,
    /// The largest tensor offset (into the data), if any tensor.
    pub(super) last_offset: Option<u64>,
}

enum Value {
    Number(u64),
    Text(String),
    Other,
}

impl Header {
    pub(super) fn number(&self, key: &str) -> Option<u64> {
        self.values.iter().find(|(k, _)| k == key).and_then(|(_, v)| match v {
            Value::Number(n) => Some(*n),
            _ => None,
        })
    }

    pub(super) fn text(&self, key: &str) -> Option<String> {
        self.values.iter().find(|(k, _)| k == key).and_then(|(_, v)| match v {
            Value::Text(t) => Some(t.clone()),
            _ => None,
        })
    }

    /// The key-values, then past the tensor infos (so the reader stands
    /// at the end of the header).
    pub(super) fn read(r: &mut (impl Read + Seek)) -> std::io::Result<Header> {
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
