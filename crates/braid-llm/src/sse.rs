//! Server-sent events, decoded incrementally and purely: bytes in (split
//! anywhere, even inside a UTF-8 character), events out. LF and CRLF line
//! ends, `:` comment lines (pings), multi-line `data:`, unknown fields
//! ignored as the spec says.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field, if any (Anthropic names its events).
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// Longer than any event a provider sends (an image's base64 is a few
/// MB): a line or an event past it is a broken or hostile stream, refused
/// rather than held in memory.
pub const MAX_EVENT: usize = 16 << 20;

#[derive(Debug, Default)]
pub struct SseDecoder {
    /// Bytes of an unfinished line.
    partial: Vec<u8>,
    event: Option<String>,
    data: String,
    has_data: bool,
    /// A line or event went past [`MAX_EVENT`]: what it held was dropped.
    overflowed: bool,
}

impl SseDecoder {
    pub fn new() -> SseDecoder {
        SseDecoder::default()
    }

    /// Feeds bytes; complete events are appended to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<SseEvent>) {
        let mut rest = bytes;
        while let Some(nl) = rest.iter().position(|b| *b == b'\n') {
            let (line, tail) = rest.split_at(nl);
            rest = &tail[1..];
            if self.partial.is_empty() {
                self.line(line, out);
            } else {
                let mut whole = std::mem::take(&mut self.partial);
                whole.extend_from_slice(line);
                self.line(&whole, out);
            }
        }
        self.partial.extend_from_slice(rest);
        if self.partial.len() + self.data.len() > MAX_EVENT {
            self.partial = Vec::new();
            self.data = String::new();
            self.has_data = false;
            self.overflowed = true;
        }
    }

    /// Whether a line or an event was longer than [`MAX_EVENT`] (the
    /// stream is then not to be trusted further).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    fn line(&mut self, line: &[u8], out: &mut Vec<SseEvent>) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            if self.has_data {
                out.push(SseEvent { event: self.event.take(), data: std::mem::take(&mut self.data) });
                self.has_data = false;
            }
            self.event = None;
            return;
        }
        if line[0] == b':' {
            return; // comment, e.g. `: ping`
        }
        let (field, value) = match line.iter().position(|b| *b == b':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (line, &b""[..]),
        };
        let value = String::from_utf8_lossy(value);
        match field {
            b"data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(&value);
                self.has_data = true;
            }
            b"event" => self.event = Some(value.into_owned()),
            _ => {} // id, retry, and garbage: ignored
        }
    }

    /// At the end of the body: a last event not followed by a blank line
    /// (some servers omit it) is dispatched; returns whether anything was
    /// left unterminated.
    pub fn finish(&mut self, out: &mut Vec<SseEvent>) -> bool {
        let mut dangling = false;
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.line(&line, out);
            dangling = true;
        }
        if self.has_data {
            out.push(SseEvent { event: self.event.take(), data: std::mem::take(&mut self.data) });
            self.has_data = false;
            dangling = true;
        }
        dangling
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_in_pieces(input: &[u8], piece: usize) -> Vec<SseEvent> {
        let mut d = SseDecoder::new();
        let mut out = Vec::new();
        for chunk in input.chunks(piece.max(1)) {
            d.push(chunk, &mut out);
        }
        d.finish(&mut out);
        out
    }

    #[test]
    fn lf_crlf_comments_multiline_and_any_split() {
        let input = ": ping\r\n\r\nevent: message_start\r\ndata: {\"a\":1}\r\n\r\ndata: line one\ndata: line two\n\nid: 7\nretry: 10\ngarbage line\ndata: héllo ✓\n\n";
        let expected = vec![
            SseEvent { event: Some("message_start".into()), data: "{\"a\":1}".into() },
            SseEvent { event: None, data: "line one\nline two".into() },
            SseEvent { event: None, data: "héllo ✓".into() },
        ];
        for piece in 1..input.len() {
            assert_eq!(decode_in_pieces(input.as_bytes(), piece), expected, "split every {piece} bytes");
        }
    }

    #[test]
    fn an_unterminated_last_event_is_reported() {
        let mut d = SseDecoder::new();
        let mut out = Vec::new();
        d.push(b"data: {\"x\":1}", &mut out);
        assert!(out.is_empty());
        assert!(d.finish(&mut out));
        assert_eq!(out[0].data, "{\"x\":1}");
        let mut clean = SseDecoder::new();
        clean.push(b"data: a\n\n", &mut out);
        assert!(!clean.finish(&mut out));
    }
}
