//! Turns an HTTP error response into a classified [`LlmError`], with the
//! provider's own message taken from whichever body shape it uses.

use crate::LlmError;
use serde_json::Value;

/// Longest provider message kept (bodies can be whole HTML pages).
const MAX_MESSAGE: usize = 500;

pub fn classify(provider: &str, status: u16, retry_after: Option<&str>, body: &str) -> LlmError {
    let message = extract_message(body).unwrap_or_else(|| format!("HTTP {status}"));
    let provider = provider.to_owned();
    match status {
        401 | 403 => LlmError::Auth { provider, message },
        429 => LlmError::RateLimited { provider, message, retry_after_ms: retry_after.and_then(parse_retry_after) },
        408 => LlmError::Network { provider, detail: format!("the server timed out (408): {message}") },
        400 | 413 | 422 if mentions_context_length(body) => LlmError::ContextLengthExceeded { message },
        500..=599 => LlmError::Server { provider, status, message },
        _ => LlmError::BadRequest { provider, status, message },
    }
}

/// Seconds (the usual form). An HTTP date is not parsed: the backoff then
/// applies, which is never shorter than a second.
fn parse_retry_after(value: &str) -> Option<u64> {
    let secs: f64 = value.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then_some((secs * 1000.0) as u64)
}

pub fn mentions_context_length(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    [
        "context_length_exceeded",
        "maximum context length",
        "context length",
        "context window",
        "prompt is too long",
        "too many tokens",
        "exceeds the context",
    ]
    .iter()
    .any(|needle| t.contains(needle))
}

/// The message from OpenAI `{error:{message}}`, Anthropic
/// `{error:{type,message}}`, Gemini `{error:{status,message}}`, `{detail}`
/// (string or FastAPI list), `{message}`, or the plain text.
pub fn extract_message(body: &str) -> Option<String> {
    let body = body.trim();
    if body.is_empty() {
        return None;
    }
    let text = match serde_json::from_str::<Value>(body) {
        Ok(v) => from_json(&v).unwrap_or_else(|| body.to_owned()),
        Err(_) => body.to_owned(),
    };
    let mut text = text.trim().to_owned();
    if let Some((cut, _)) = text.char_indices().nth(MAX_MESSAGE) {
        text.truncate(cut);
        text.push('…');
    }
    Some(text)
}

fn from_json(v: &Value) -> Option<String> {
    let v = v.as_array().and_then(|a| a.first()).unwrap_or(v); // Gemini wraps errors in a list
    if let Some(err) = v.get("error") {
        if let Some(s) = err.as_str() {
            return Some(s.to_owned());
        }
        let message = err.get("message").and_then(Value::as_str)?;
        let label = err.get("status").or_else(|| err.get("type")).and_then(Value::as_str);
        return Some(match label {
            Some(l) if !l.is_empty() => format!("{message} ({l})"),
            _ => message.to_owned(),
        });
    }
    match v.get("detail") {
        Some(Value::String(s)) => return Some(s.clone()),
        Some(Value::Array(items)) => {
            let msgs: Vec<&str> = items.iter().filter_map(|i| i.get("msg").and_then(Value::as_str)).collect();
            if !msgs.is_empty() {
                return Some(msgs.join("; "));
            }
        }
        _ => {}
    }
    v.get("message").and_then(Value::as_str).map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_come_out_of_every_common_shape() {
        let cases = [
            (
                r#"{"error":{"message":"Incorrect API key","type":"invalid_request_error"}}"#,
                "Incorrect API key (invalid_request_error)",
            ),
            (
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
                "Overloaded (overloaded_error)",
            ),
            (
                r#"[{"error":{"code":400,"message":"API key not valid","status":"INVALID_ARGUMENT"}}]"#,
                "API key not valid (INVALID_ARGUMENT)",
            ),
            (r#"{"detail":"Invalid API Key"}"#, "Invalid API Key"),
            (r#"{"detail":[{"msg":"field required"},{"msg":"bad type"}]}"#, "field required; bad type"),
            (r#"{"error":"model not found"}"#, "model not found"),
            ("upstream connect error", "upstream connect error"),
        ];
        for (body, want) in cases {
            assert_eq!(extract_message(body).as_deref(), Some(want), "{body}");
        }
        assert_eq!(extract_message("  "), None);
    }

    #[test]
    fn statuses_classify() {
        let e = classify("OpenAI", 401, None, r#"{"error":{"message":"bad key"}}"#);
        assert_eq!(e.to_string(), "check the API key for OpenAI: bad key");
        assert!(!e.is_retryable());
        assert_eq!(classify("p", 429, Some("7"), "slow").to_failure().retry_after_ms, Some(7000));
        assert!(classify("p", 503, None, "").is_retryable());
        let ctx = classify(
            "p",
            400,
            None,
            r#"{"error":{"message":"This model's maximum context length is 4096 tokens","code":"context_length_exceeded"}}"#,
        );
        assert_eq!(ctx.code(), braid_protocol::FailureCode::ContextLengthExceeded);
        assert_eq!(classify("p", 404, None, "no such model").code(), braid_protocol::FailureCode::BadRequest);
        let long = "x".repeat(2000);
        assert!(extract_message(&long).unwrap().chars().count() <= MAX_MESSAGE + 1);
    }
}
