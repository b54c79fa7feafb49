//! A request that never reached the server, in plain words: reqwest's own
//! message ("error sending request for url (…)") says only that it
//! failed; the cause sits at the bottom of its chain.

use crate::LlmError;

/// The error for a request to `provider` that failed before an answer.
pub(crate) fn network(provider: &str, e: &reqwest::Error) -> LlmError {
    // reqwest's Display can include the URL; never the headers (the key).
    let detail = if e.is_timeout() {
        "timed out".to_owned()
    } else if e.is_connect() {
        connect_failure(e)
    } else {
        e.to_string()
    };
    LlmError::Network { provider: provider.to_owned(), detail }
}

/// Why a connection could not be made.
fn connect_failure(e: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
        if let Some(io) = next.downcast_ref::<std::io::Error>() {
            use std::io::ErrorKind::*;
            match io.kind() {
                ConnectionRefused => {
                    let at = e
                        .url()
                        .and_then(|u| Some(format!("{}:{}", u.host_str()?, u.port_or_known_default()?)))
                        .unwrap_or_else(|| "that address".to_owned());
                    return format!("nothing answers at {at} (connection refused) — is the server running?");
                }
                ConnectionReset | ConnectionAborted => return "the server closed the connection".into(),
                TimedOut => return "the connection timed out".into(),
                _ => {}
            }
        }
    }
    let root = cause.to_string();
    if root.contains("dns error") || root.contains("failed to lookup address") {
        return "the host name could not be found".into();
    }
    format!("the connection failed ({root})")
}
