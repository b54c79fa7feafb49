//! A deterministic mixed corpus for token-count tests and benchmarks:
//! prose in several languages, source code, CJK, and emoji (with skin
//! tones, ZWJ families and flags), cut into documents.

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }
    pub fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const WORDS: &[&str] = &[
    "the",
    "context",
    "manager",
    "keeps",
    "every",
    "message",
    "branch",
    "model",
    "stream",
    "token",
    "window",
    "summary",
    "approval",
    "workspace",
    "file",
    "reference",
    "freshness",
    "über",
    "naïve",
    "café",
    "déjà",
    "vu",
    "straße",
    "fjord",
    "añejo",
    "smörgåsbord",
    "don't",
    "it's",
    "we're",
    "they'll",
    "I'd",
    "2026",
    "3.14159",
    "1,000,000",
    "e-mail",
    "state-of-the-art",
    "HTTP/2",
    "UTF-8",
    "x86_64",
    "   ",
    "\t",
    "Ωmega",
    "Привет",
    "мир",
    "مرحبا",
    "שלום",
    "नमस्ते",
    "γειά",
    "σου",
];

fn prose(r: &mut Rng, bytes: usize) -> String {
    let mut s = String::new();
    while s.len() < bytes {
        let w = WORDS[r.below(WORDS.len())];
        s.push_str(w);
        s.push_str(match r.below(12) {
            0 => ". ",
            1 => ", ",
            2 => "\n",
            3 => "\n\n",
            4 => "! ",
            5 => "? ",
            _ => " ",
        });
    }
    s
}

const CODE: &[&str] = &[
    include_str!("../../../src/machine/step.rs"),
    include_str!("../../../src/approval.rs"),
    include_str!("../../../src/tokens.rs"),
    "def f(x):\n    return {'a': [1, 2, 3], \"b\": x ** 2}  # comment\n\nclass A(object):\n    pass\n",
    "function add(a, b) {\n\treturn a + b; // sum\n}\nconst o = { key: `tpl ${1 + 2}` };\n",
    "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 42); return 0; }\n",
    "SELECT id, title FROM contexts WHERE updated_at > ?1 ORDER BY id DESC LIMIT 10;\n",
];

fn cjk(r: &mut Rng, chars: usize) -> String {
    let mut s = String::new();
    for i in 0..chars {
        let c = match r.below(4) {
            0 => 0x4E00 + r.below(0x9FA5 - 0x4E00),
            1 => 0x3041 + r.below(0x3096 - 0x3041),
            2 => 0x30A1 + r.below(0x30FA - 0x30A1),
            _ => 0xAC00 + r.below(0xD7A3 - 0xAC00),
        };
        s.push(char::from_u32(c as u32).unwrap_or('字'));
        if i % 23 == 22 {
            s.push_str(["。", "、", "！", "\n", " "][r.below(5)]);
        }
    }
    s
}

fn emoji(r: &mut Rng, n: usize) -> String {
    const SEQ: &[&str] =
        &["👩‍👩‍👧‍👦", "🏳️‍🌈", "👍🏽", "🇫🇷", "🇯🇵", "❤️", "🙂", "🚀", "🧑🏿‍💻", "✨", "🐉", "🗼", "😀", "🤖", "🦀", "👨‍🔬"];
    let mut s = String::new();
    for _ in 0..n {
        s.push_str(SEQ[r.below(SEQ.len())]);
        if r.below(3) == 0 {
            s.push(' ');
        }
        if r.below(9) == 0 {
            s.push_str(WORDS[r.below(WORDS.len())]);
        }
    }
    s
}

/// Documents of a few KB each, `total` bytes in all, kinds interleaved.
pub fn documents(total: usize) -> Vec<String> {
    let mut r = Rng::new(0x5EED_B4A1D);
    let mut docs = Vec::new();
    let mut size = 0;
    while size < total {
        let size_pick = r.below(6_000);
        let doc = match docs.len() % 4 {
            0 => prose(&mut r, 2_000 + size_pick),
            1 => {
                let code = CODE[r.below(CODE.len())];
                let start = r.below(code.len() / 2);
                let start = (start..code.len()).find(|i| code.is_char_boundary(*i)).unwrap_or(0);
                code[start..].chars().take(4_000).collect()
            }
            2 => cjk(&mut r, 500 + size_pick / 4),
            _ => emoji(&mut r, 200 + size_pick / 10),
        };
        size += doc.len();
        docs.push(doc);
    }
    docs
}
