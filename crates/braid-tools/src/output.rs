//! Shaping what goes back to the model: numbered lines, and caps that keep
//! the head and the tail of long output with a note of what was cut.

/// Keeps at most `max` bytes: the first and last halves, cut on character
/// boundaries, with the number of bytes left out in between.
pub fn cap(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let half = max / 2;
    let mut head = half;
    while !text.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = text.len() - half;
    while !text.is_char_boundary(tail) {
        tail += 1;
    }
    format!("{}\n[… {} bytes left out …]\n{}", &text[..head], tail - head, &text[tail..])
}

/// `   12\tline` for each line from `first` (1-based).
pub fn numbered<'a>(lines: impl Iterator<Item = &'a str>, first: usize) -> String {
    let mut out = String::new();
    for (i, line) in lines.enumerate() {
        out.push_str(&format!("{:>6}\t{}\n", first + i, line));
    }
    out
}
