//! Lenient decoders for the encodings a command can put a secret in
//! (`base64`, `base32`, `xxd -p`, URL encoding, `tr` for rot13). They
//! never refuse: a character outside the alphabet is skipped, a run cut
//! short decodes as far as it goes. What comes out may be garbage; the
//! caller keeps only its printable stretches.

/// Base64 in either alphabet (`+/` or `-_`), from the `offset`th of its
/// characters on;
/// padding and anything else outside the alphabet are skipped.
pub fn base64(text: &[u8], offset: usize) -> Vec<u8> {
    fn value(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        } as u32)
    }
    bits(text.iter().filter_map(|&c| value(c)).skip(offset), 6)
}

/// Base32 (RFC 4648, either case), from the `offset`th of its characters on.
pub fn base32(text: &[u8], offset: usize) -> Vec<u8> {
    fn value(c: u8) -> Option<u32> {
        Some(match c.to_ascii_uppercase() {
            c @ b'A'..=b'Z' => c - b'A',
            c @ b'2'..=b'7' => c - b'2' + 26,
            _ => return None,
        } as u32)
    }
    bits(text.iter().filter_map(|&c| value(c)).skip(offset), 5)
}

/// Hexadecimal digits in pairs, either case, from `offset` digits in.
pub fn hex(text: &[u8], offset: usize) -> Vec<u8> {
    let digits: Vec<u8> = text.iter().filter_map(|&c| (c as char).to_digit(16).map(|d| d as u8)).skip(offset).collect();
    digits.chunks_exact(2).map(|p| (p[0] << 4) | p[1]).collect()
}

/// `%XX` escapes (and `+` for a space, as forms write it) decoded.
pub fn percent(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match text[i] {
            b'%' if i + 2 < text.len() => match (hex(text[i + 1]), hex(text[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// Letters turned 13 places (its own inverse).
pub fn rot13(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'a'..='z' => (((c as u8 - b'a') + 13) % 26 + b'a') as char,
            'A'..='Z' => (((c as u8 - b'A') + 13) % 26 + b'A') as char,
            c => c,
        })
        .collect()
}

/// Values of `width` bits each, packed into bytes; a last partial byte
/// is dropped.
fn bits(values: impl Iterator<Item = u32>, width: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut held) = (0u32, 0u32);
    for v in values {
        acc = (acc << width) | v;
        held += width;
        if held >= 8 {
            held -= 8;
            out.push((acc >> held) as u8);
            acc &= (1 << held) - 1;
        }
    }
    out
}

/// The stretches of `bytes` that read as text (printable ASCII, tabs and
/// line ends), at least `min` long: what a decoding at the right offset
/// gives among the garbage of the wrong ones.
pub fn printable_runs(bytes: &[u8], min: usize) -> Vec<String> {
    bytes
        .split(|&b| !(b.is_ascii_graphic() || b == b' ' || b == b'\t' || b == b'\n' || b == b'\r'))
        .filter(|run| run.len() >= min)
        .map(|run| String::from_utf8_lossy(run).into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_decoder_reads_its_encoding() {
        assert_eq!(base64(b"c2VjcmV0LWtleQ==", 0), b"secret-key");
        assert_eq!(base64(b"Pz8_Pw", 0), b"????", "the URL alphabet");
        assert_eq!(base32(b"ONSWG4TFOQ======", 0), b"secret");
        assert_eq!(base32(b"onswg4tfoq", 0), b"secret", "either case");
        assert_eq!(hex(b"73 65 63 72 65 74", 0), b"secret");
        assert_eq!(hex(b"x7365637265", 1)[..2], *b"6V", "an offset shifts the pairs");
        assert_eq!(percent(b"a%2Fb+c%zz%4"), b"a/b c%zz%4");
        assert_eq!(rot13("Hello-Zz"), "Uryyb-Mm");
        assert_eq!(printable_runs(b"\x01\x02hello world\xff\x00ab", 4), vec!["hello world".to_owned()]);
    }
}
