//! The stdio transport, Braid's own around rmcp's line reader: the same
//! child process and framing as rmcp's `TokioChildProcess`, with the line
//! limit a setting and a line over it *said*. rmcp drops such a line and
//! logs it, so the call it answered waited for its time limit and was
//! reported as a timeout; here every line's size is watched as it passes,
//! and a call whose answer was dropped fails at once with the size and
//! the limit.

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::Transport;
use rmcp::RoleClient;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, ReadBuf};
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::broadcast;

/// A message from the server that was over the limit and dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Oversized {
    /// The JSON-RPC id it answered, when its first bytes name one.
    pub id: Option<String>,
    /// Its size, where it was read to its end (HTTP stops at the limit).
    pub bytes: Option<usize>,
    pub limit: usize,
}

impl Oversized {
    /// In words for the user and the model.
    pub fn describe(&self, server: &str) -> String {
        let size = self.bytes.map_or_else(|| format!("more than {}", mb(self.limit)), mb);
        format!(
            "the MCP server {server} answered with {size}, over the {} a message may have (maxResultMb in its \
             settings); ask for less at once (a page, a range, a filter)",
            mb(self.limit)
        )
    }
}

fn mb(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
}

/// Where a connection says a message was dropped; a call subscribes
/// before it is sent.
#[derive(Clone)]
pub struct Oversize(broadcast::Sender<Oversized>);

impl Default for Oversize {
    fn default() -> Oversize {
        Oversize(broadcast::channel(8).0)
    }
}

impl Oversize {
    pub fn subscribe(&self) -> broadcast::Receiver<Oversized> {
        self.0.subscribe()
    }

    pub fn say(&self, o: Oversized) {
        let _ = self.0.send(o);
    }
}

/// How many of a line's first bytes are kept to find its id.
const HEAD: usize = 256;

/// The child's stdout, passed through as it is read, each line's length
/// counted.
pub struct LineWatch<R> {
    inner: R,
    limit: usize,
    line: usize,
    head: Vec<u8>,
    said: Oversize,
}

impl<R: AsyncRead + Unpin> AsyncRead for LineWatch<R> {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = polled {
            let read = buf.filled()[before..].to_vec();
            self.watch(&read);
        }
        polled
    }
}

impl<R> LineWatch<R> {
    fn watch(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let end = rest.iter().position(|b| *b == b'\n');
            let part = &rest[..end.unwrap_or(rest.len())];
            self.line += part.len();
            let room = HEAD.saturating_sub(self.head.len()).min(part.len());
            self.head.extend_from_slice(&part[..room]);
            let Some(end) = end else { break };
            if self.line > self.limit {
                self.said.say(Oversized { id: id_in(&self.head), bytes: Some(self.line), limit: self.limit });
            }
            (self.line, rest) = (0, &rest[end + 1..]);
            self.head.clear();
        }
    }
}

/// The `"id"` in a JSON-RPC message's first bytes (servers write it
/// before the result), as rmcp's request ids print.
fn id_in(head: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(head);
    let at = text.find("\"id\"")? + 4;
    let value = text[at..].trim_start().strip_prefix(':')?.trim_start();
    let id: String = match value.strip_prefix('"') {
        Some(s) => s.chars().take_while(|c| *c != '"').collect(),
        None => value.chars().take_while(char::is_ascii_digit).collect(),
    };
    (!id.is_empty()).then_some(id)
}

/// How much of one stderr line is kept: servers log a line at a time, and
/// one that never ends must not take memory with it.
pub const MAX_STDERR_LINE: usize = 2000;

/// A server's stderr cut into lines as it is read: each line at most
/// [`MAX_STDERR_LINE`] bytes (a longer one ends in "…"), any bytes read
/// as text (invalid UTF-8 shown as such, never a reason to stop reading:
/// a server whose stderr is not drained blocks on its next write).
#[derive(Default)]
pub struct StderrLines {
    line: Vec<u8>,
    cut: bool,
}

impl StderrLines {
    /// The lines `bytes` ends; the rest waits for the next bytes.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<String> {
        let mut done = Vec::new();
        for part in bytes.split_inclusive(|b| *b == b'\n') {
            let (text, ends) = part.strip_suffix(b"\n").map_or((part, false), |t| (t, true));
            let room = MAX_STDERR_LINE - self.line.len();
            self.line.extend_from_slice(&text[..text.len().min(room)]);
            self.cut |= text.len() > room;
            if ends {
                done.push(self.take());
            }
        }
        done
    }

    /// The last line, if the stream ended inside one.
    pub fn end(mut self) -> Option<String> {
        (!self.line.is_empty() || self.cut).then(|| self.take())
    }

    fn take(&mut self) -> String {
        let mut line = String::from_utf8_lossy(&self.line).into_owned();
        if std::mem::take(&mut self.cut) {
            line.push('…');
        }
        self.line.clear();
        line
    }
}

/// Reads a server's stderr to its end, a line at a time into `each`.
pub async fn drain_stderr(mut err: impl AsyncRead + Unpin, mut each: impl FnMut(String)) {
    use tokio::io::AsyncReadExt;
    let (mut lines, mut buf) = (StderrLines::default(), vec![0u8; 8192]);
    while let Ok(n @ 1..) = err.read(&mut buf).await {
        lines.feed(&buf[..n]).into_iter().for_each(&mut each);
    }
    lines.end().into_iter().for_each(each);
}

/// A stdio server: its process and the transport over its pipes.
pub struct StdioChild {
    child: Child,
    transport: AsyncRwTransport<RoleClient, LineWatch<ChildStdout>, ChildStdin>,
}

/// Starts `cmd` with piped stdio. Its stderr is the caller's to read.
pub fn spawn(
    mut cmd: tokio::process::Command,
    limit: usize,
) -> std::io::Result<(StdioChild, Option<ChildStderr>, Oversize)> {
    cmd.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    let mut child = cmd.spawn()?;
    let missing = || std::io::Error::other("the server's pipes were not set up");
    let (stdin, stdout) = (child.stdin.take().ok_or_else(missing)?, child.stdout.take().ok_or_else(missing)?);
    let stderr = child.stderr.take();
    let (transport, said) = framed(stdout, stdin, limit);
    Ok((StdioChild { child, transport }, stderr, said))
}

/// The client's framing over a server's output and input: rmcp's line
/// reader with `limit` as its longest line, every line's size watched.
/// Public for the fuzz targets, which feed it arbitrary bytes.
pub fn framed<R: AsyncRead + Send + Unpin + 'static, W: tokio::io::AsyncWrite + Send + Unpin + 'static>(
    read: R,
    write: W,
    limit: usize,
) -> (AsyncRwTransport<RoleClient, LineWatch<R>, W>, Oversize) {
    let said = Oversize::default();
    let watched = LineWatch { inner: read, limit, line: 0, head: Vec::new(), said: said.clone() };
    (AsyncRwTransport::new_client(watched, write).with_max_line_length(limit), said)
}

impl StdioChild {
    pub fn id(&self) -> Option<u32> {
        self.child.id()
    }
}

impl Transport<RoleClient> for StdioChild {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.transport.send(item)
    }

    fn receive(&mut self) -> impl std::future::Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.transport.receive()
    }

    /// Closing stdin asks the server to stop (as the MCP spec says); one
    /// that has not within 3 s is killed.
    async fn close(&mut self) -> Result<(), Self::Error> {
        let _ = self.transport.close().await;
        if tokio::time::timeout(Duration::from_secs(3), self.child.wait()).await.is_err() {
            self.child.kill().await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn watch(limit: usize) -> (LineWatch<tokio::io::Empty>, broadcast::Receiver<Oversized>) {
        let said = Oversize::default();
        let rx = said.subscribe();
        (LineWatch { inner: tokio::io::empty(), limit, line: 0, head: Vec::new(), said }, rx)
    }

    #[test]
    fn a_line_over_the_limit_is_said_with_its_id_and_size_however_it_is_cut() {
        let (mut w, mut rx) = watch(40);
        let start = b"{\"jsonrpc\":\"2.0\",\"id\":12,";
        w.watch(&[b"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n".as_slice(), start].concat());
        assert!(rx.try_recv().is_err(), "a line within the limit says nothing");
        w.watch(&[b'x'; 50]);
        w.watch(b"}\n");
        let said = rx.try_recv().unwrap();
        assert_eq!(said, Oversized { id: Some("12".into()), bytes: Some(start.len() + 50 + 1), limit: 40 });
        assert!(said.describe("big").contains("maxResultMb"));
        assert_eq!(id_in(br#"{"id": "req-3", "result""#), Some("req-3".into()));
        assert_eq!(id_in(br#"{"result": {"content": ["#), None);
    }

    #[test]
    fn stderr_lines_are_cut_short_kept_as_text_and_never_grow_past_the_limit() {
        let mut lines = StderrLines::default();
        assert_eq!(lines.feed(b"starting\nlisten"), ["starting"]);
        assert_eq!(
            lines.feed(b"ing on stdio\n\xff\xfe bad bytes\n"),
            ["listening on stdio", "\u{fffd}\u{fffd} bad bytes"]
        );
        // 10 MB without a newline: at most the limit is held.
        for _ in 0..1280 {
            assert!(lines.feed(&[b'x'; 8192]).is_empty());
            assert!(lines.line.len() <= MAX_STDERR_LINE);
        }
        let long = lines.feed(b"\nafter\n");
        assert_eq!(long.len(), 2);
        assert_eq!(long[0].chars().count(), MAX_STDERR_LINE + 1);
        assert!(long[0].ends_with('…'));
        assert_eq!(long[1], "after");
        lines.feed(b"no newline at the end");
        assert_eq!(lines.end().as_deref(), Some("no newline at the end"));
    }
}
