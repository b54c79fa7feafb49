//! Hostile model files, written byte by byte from the GGUF format (version
//! 3: a magic, counts, typed key-values, tensor infos): the crafted inputs
//! issue #65 found crashing or fooling Braid, kept once for every test that
//! puts one where Braid reads (a scanned folder, the stand-in hub, the
//! shelf), and built only for tests (the `test-support` feature).

const U32: u32 = 4;
const STRING: u32 = 8;
const ARRAY: u32 = 9;

/// A GGUF header being written.
#[derive(Default)]
pub struct Gguf {
    keys: Vec<u8>,
    count: u64,
    tensors: Vec<u8>,
    tensor_count: u64,
}

fn string(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
}

impl Gguf {
    pub fn text(mut self, key: &str, value: &str) -> Gguf {
        string(&mut self.keys, key);
        self.keys.extend(STRING.to_le_bytes());
        string(&mut self.keys, value);
        self.count += 1;
        self
    }

    pub fn number(mut self, key: &str, value: u32) -> Gguf {
        string(&mut self.keys, key);
        self.keys.extend(U32.to_le_bytes());
        self.keys.extend(value.to_le_bytes());
        self.count += 1;
        self
    }

    /// `tokenizer.ggml.tokens` with `n` short texts.
    pub fn vocabulary(mut self, n: u64) -> Gguf {
        string(&mut self.keys, "tokenizer.ggml.tokens");
        self.keys.extend(ARRAY.to_le_bytes());
        self.keys.extend(STRING.to_le_bytes());
        self.keys.extend(n.to_le_bytes());
        for i in 0..n {
            string(&mut self.keys, &format!("t{i}"));
        }
        self.count += 1;
        self
    }

    /// A key whose value is an array of arrays `depth` deep (12 bytes a
    /// level), the innermost empty.
    pub fn nested_arrays(mut self, key: &str, depth: usize) -> Gguf {
        string(&mut self.keys, key);
        self.keys.extend(ARRAY.to_le_bytes());
        self.keys.reserve(depth * 12);
        for level in 0..depth {
            self.keys.extend(ARRAY.to_le_bytes());
            self.keys.extend(u64::from(level + 1 < depth).to_le_bytes());
        }
        self.count += 1;
        self
    }

    /// A one-dimensional f32 tensor whose data starts at `offset`.
    pub fn tensor(mut self, name: &str, offset: u64) -> Gguf {
        string(&mut self.tensors, name);
        self.tensors.extend(1u32.to_le_bytes());
        self.tensors.extend(16u64.to_le_bytes());
        self.tensors.extend(0u32.to_le_bytes());
        self.tensors.extend(offset.to_le_bytes());
        self.tensor_count += 1;
        self
    }

    /// The header as claimed counts would have it (`tensors`, `keys`
    /// instead of the real ones where given), then `data` bytes of zeros.
    pub fn bytes_claiming(self, tensors: Option<u64>, keys: Option<u64>, data: usize) -> Vec<u8> {
        let mut out = b"GGUF".to_vec();
        out.extend(3u32.to_le_bytes());
        out.extend(tensors.unwrap_or(self.tensor_count).to_le_bytes());
        out.extend(keys.unwrap_or(self.count).to_le_bytes());
        out.extend(self.keys);
        out.extend(self.tensors);
        out.resize(out.len().div_ceil(32) * 32 + data, 0);
        out
    }

    pub fn bytes(self, data: usize) -> Vec<u8> {
        self.bytes_claiming(None, None, data)
    }
}

/// The keys of a small llama-shaped model Braid can read.
pub fn llama() -> Gguf {
    Gguf::default()
        .text("general.architecture", "llama")
        .number("llama.embedding_length", 64)
        .number("llama.attention.head_count", 4)
        .number("llama.block_count", 2)
        .number("llama.context_length", 2048)
        .vocabulary(8)
}

/// A readable header with one tensor and its data (Braid reads it; llama.cpp
/// would not run it, there being no weights to speak of).
pub fn readable() -> Vec<u8> {
    llama().tensor("token_embd.weight", 0).bytes(64)
}

/// Arrays in arrays, 200,000 deep (2.4 MB): the stack overflow of issue #65.
pub fn nested() -> Vec<u8> {
    llama().nested_arrays("general.crafted", 200_000).tensor("token_embd.weight", 0).bytes(64)
}

/// A header whose tensor's data starts 1 GB past the file's end: a download
/// or copy cut short.
pub fn truncated() -> Vec<u8> {
    llama().tensor("token_embd.weight", 1 << 30).bytes(64)
}

/// A header that claims 2^40 tensors.
pub fn absurd_tensors() -> Vec<u8> {
    llama().tensor("token_embd.weight", 0).bytes_claiming(Some(1 << 40), None, 64)
}

/// A header whose layer count no model has.
pub fn absurd_layers() -> Vec<u8> {
    Gguf::default()
        .text("general.architecture", "llama")
        .number("llama.embedding_length", 64)
        .number("llama.attention.head_count", 4)
        .number("llama.block_count", u32::MAX)
        .vocabulary(8)
        .tensor("token_embd.weight", 0)
        .bytes(64)
}
