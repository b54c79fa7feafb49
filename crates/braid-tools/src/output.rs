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

/// Reads `stream` to its end keeping at most `max` bytes of it, the head
/// and the tail as [`cap`] keeps them: a command that prints without end
/// (`yes`, `cat /dev/zero`) costs a read, never the memory to hold it.
pub async fn read_capped(mut stream: impl tokio::io::AsyncRead + Unpin, max: usize) -> String {
    use tokio::io::AsyncReadExt;
    let half = max / 2;
    let (mut head, mut tail) = (Vec::new(), std::collections::VecDeque::new());
    let mut total = 0usize;
    let mut buf = [0u8; 16 * 1024];
    loop {
        let n = match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        total = total.saturating_add(n);
        let take = half.saturating_sub(head.len()).min(n);
        head.extend_from_slice(&buf[..take]);
        tail.extend(&buf[take..n]);
        let over = tail.len().saturating_sub(max - half);
        tail.drain(..over);
    }
    let tail: Vec<u8> = tail.into();
    let left_out = total - head.len() - tail.len();
    if left_out == 0 {
        head.extend(tail);
        return String::from_utf8_lossy(&head).into_owned();
    }
    format!("{}\n[… {left_out} bytes left out …]\n{}", String::from_utf8_lossy(&head), String::from_utf8_lossy(&tail))
}

/// `   12\tline` for each line from `first` (1-based).
pub fn numbered<'a>(lines: impl Iterator<Item = &'a str>, first: usize) -> String {
    let mut out = String::new();
    for (i, line) in lines.enumerate() {
        out.push_str(&format!("{:>6}\t{}\n", first + i, line));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_stream_read_capped_keeps_what_cap_keeps() {
        for len in [0, 10, 99, 100, 101, 5_000, 1 << 20] {
            let text: String = (0..len).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            let read = read_capped(text.as_bytes(), 100).await;
            assert_eq!(read, cap(&text, 100), "{len} bytes");
        }
    }
}
