//! The bearer token. Browsers' EventSource cannot set headers, so the token
//! is also accepted as `?token=`; either way it is compared in constant time.

use axum::http::HeaderMap;
use std::fmt;

#[derive(Clone)]
pub struct Token(String);

impl Token {
    pub fn new(token: impl Into<String>) -> Option<Token> {
        let t = token.into();
        (t.len() >= 16).then_some(Token(t))
    }

    /// 32 hex characters from the OS's random source.
    pub fn generate() -> std::io::Result<Token> {
        use std::io::Read;
        let mut bytes = [0u8; 16];
        std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
        Ok(Token(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }

    pub(crate) fn admits(&self, headers: &HeaderMap, query: Option<&str>) -> bool {
        let from_header = headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        let from_query = query.and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("token=")));
        from_header.or(from_query).is_some_and(|given| same(given.as_bytes(), self.0.as_bytes()))
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(…)")
    }
}

fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
