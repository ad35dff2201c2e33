//! Logs that never show the bot token: a `tracing` writer that replaces
//! every occurrence of the secret in each formatted line before it reaches
//! standard error. Libraries log at `trace` what they send (serenity's
//! WebSocket layer logs the IDENTIFY frame, token included), so filtering by
//! level is not enough: the text itself is redacted, at every level.

use std::io::{self, Write};
use tracing_subscriber::fmt::MakeWriter;

/// What stands in the log where the token was.
pub const MASK: &str = "[token redacted]";

/// Makes redacting writers around standard error.
#[derive(Clone)]
pub struct RedactingStderr {
    secrets: Vec<String>,
}

impl RedactingStderr {
    /// Redacts `secret` (and its `Bot ` form) from every log line; an empty
    /// secret redacts nothing.
    pub fn new(secret: &str) -> Self {
        let secrets = if secret.trim().is_empty() {
            Vec::new()
        } else {
            forms(secret)
        };
        Self { secrets }
    }
}

/// The ways a secret shows in a log line: as text, and as the list of its
/// bytes that `Debug` prints for a raw frame (`[116, 111, 107, …]`).
pub fn forms(secret: &str) -> Vec<String> {
    let bytes: Vec<String> = secret.bytes().map(|b| b.to_string()).collect();
    vec![secret.to_string(), bytes.join(", ")]
}

/// Whether an event is one of the raw WebSocket frames a library logs at
/// `trace` (the IDENTIFY frame carries the token): never logged, whatever
/// `RUST_LOG` says.
pub fn frame_logger(target: &str, level: &tracing::Level) -> bool {
    *level == tracing::Level::TRACE
        && (target.starts_with("tungstenite") || target.starts_with("tokio_tungstenite"))
}

/// One log event's writer: buffers the formatted event, redacts, writes it
/// to standard error in one piece when dropped.
pub struct Redacting<W: Write> {
    inner: W,
    secrets: Vec<String>,
    buf: Vec<u8>,
}

impl<W: Write> Redacting<W> {
    /// A writer around `inner` that removes `secrets`.
    pub fn new(inner: W, secrets: Vec<String>) -> Self {
        Self {
            inner,
            secrets,
            buf: Vec::new(),
        }
    }

    fn flush_redacted(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let mut text = String::from_utf8_lossy(&self.buf).into_owned();
        for s in &self.secrets {
            text = text.replace(s.as_str(), MASK);
        }
        self.buf.clear();
        self.inner.write_all(text.as_bytes())?;
        self.inner.flush()
    }
}

impl<W: Write> Write for Redacting<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flush_redacted()
    }
}

impl<W: Write> Drop for Redacting<W> {
    fn drop(&mut self) {
        let _ = self.flush_redacted();
    }
}

impl<'a> MakeWriter<'a> for RedactingStderr {
    type Writer = Redacting<io::Stderr>;

    fn make_writer(&'a self) -> Self::Writer {
        Redacting::new(io::stderr(), self.secrets.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_never_reaches_the_output() {
        let mut out = Vec::new();
        {
            let mut w = Redacting::new(&mut out, vec!["abc.DEF.123".into()]);
            // An event may be written in pieces; the secret may straddle them.
            w.write_all(br#"{"op":2,"d":{"token":"Bot abc.DE"#).unwrap();
            w.write_all(br#"F.123"}} and again abc.DEF.123"#).unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains("abc.DEF.123"), "{text}");
        assert_eq!(text.matches(MASK).count(), 2, "{text}");
    }

    #[test]
    fn a_frame_logged_as_bytes_is_redacted_too() {
        let mut out = Vec::new();
        {
            let mut w = Redacting::new(&mut out, forms("tok"));
            w.write_all(b"payload: [34, 116, 111, 107, 34]").unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, format!("payload: [34, {MASK}, 34]"));
    }

    #[test]
    fn raw_frames_are_held_back() {
        assert!(frame_logger(
            "tungstenite::protocol",
            &tracing::Level::TRACE
        ));
        assert!(frame_logger("tokio_tungstenite", &tracing::Level::TRACE));
        assert!(!frame_logger(
            "tungstenite::protocol",
            &tracing::Level::DEBUG
        ));
        assert!(!frame_logger("kismet::bot", &tracing::Level::TRACE));
    }

    #[test]
    fn nothing_is_redacted_without_a_secret() {
        let w = RedactingStderr::new("  ");
        assert!(w.secrets.is_empty());
    }
}
