//! The secret filter: what it hides, what it leaves, placeholders that
//! stay the same and give the value back.

use braid_core::secrets::{dotenv_entries, reveal, secret_name, SecretFilter};

fn filter() -> SecretFilter {
    SecretFilter::new([7; 32])
}

#[test]
fn keys_by_their_shape_are_hidden_and_nothing_else() {
    let f = filter();
    let gh = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let text = format!(
        "token {gh} and sk-proj-abcdefghij0123456789abcd, AKIAIOSFODNN7EXAMPLE, \
         xoxb-1234567890-abcdefghij, eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U \
         postgres://admin:s3cretPass@db.local/app\n\
         -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA\n-----END OPENSSH PRIVATE KEY-----\n\
         api_key = \"Zx9fQ2mK7pL4\"\nGITHUB_TOKEN=abc123def456ghi\n"
    );
    let hidden = f.hide(&text);
    for secret in [
        gh,
        "sk-proj-abcdefghij0123456789abcd",
        "AKIAIOSFODNN7EXAMPLE",
        "xoxb-1234567890-abcdefghij",
        "eyJhbGciOiJIUzI1NiJ9",
        "s3cretPass",
        "b3BlbnNzaC1rZXktdjEA",
        "Zx9fQ2mK7pL4",
        "abc123def456ghi",
    ] {
        assert!(!hidden.text.contains(secret), "{secret} is hidden:\n{}", hidden.text);
    }
    assert!(hidden.text.contains("postgres://admin:secret-url-password-"), "only the password: {}", hidden.text);
    assert!(hidden.text.contains("GITHUB_TOKEN=secret-assigned-"), "{}", hidden.text);
    assert_eq!(hidden.found.len(), 9, "{:?}", hidden.found);
    assert_eq!(reveal(&hidden.text, &hidden.found), text, "every placeholder gives its value back");

    // A key cut short (`head -3 id_rsa`) is hidden as far as its
    // characters go; the prose after it stays.
    let cut = f.hide("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Z3\nqX9+vT/2k=\n(3 of 27 lines)");
    assert!(cut.text.starts_with("secret-private-key-") && cut.text.ends_with("(3 of 27 lines)"), "{}", cut.text);
    assert!(!cut.text.contains("MIIEpAIBAAKCAQEA0Z3") && !cut.text.contains("qX9"), "{}", cut.text);

    // Code and prose that only mention keys stay as they are.
    for plain in [
        "let api_key: Option<String> = None;",
        "max_tokens: 4096,",
        "TOKEN_LIMIT = 100000",
        "the key is in the keychain; see secrets.rs",
        "password = self.password.clone()",
        "fn token_count(text: &str) -> usize",
        "https://example.com/path?x=1",
        "CREATE VIRTUAL TABLE t USING fts5(body, tokenize=unicode61)",
        "keyword=match2",
    ] {
        assert_eq!(f.hide(plain).text, plain);
    }
}

#[test]
fn a_placeholder_is_stable_shell_safe_and_says_nothing_of_the_value() {
    let f = filter();
    let a = f.hide("GITHUB_TOKEN=abc123def456ghi").text;
    assert_eq!(a, f.hide("GITHUB_TOKEN=abc123def456ghi").text, "the same value, the same placeholder");
    let p = a.trim_start_matches("GITHUB_TOKEN=");
    assert!(p.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'), "{p}");
    assert!(!p.contains("abc"), "{p}");
    let other_key = SecretFilter::new([8; 32]).hide("GITHUB_TOKEN=abc123def456ghi").text;
    assert_ne!(a, other_key, "derived from the local key");
    assert_eq!(f.hide(&a).text, a, "hiding twice changes nothing");
}

#[test]
fn known_values_are_hidden_wherever_they_appear() {
    let mut f = filter();
    f.learn("hunter2hunter2", "DB_PASSWORD");
    f.learn("short", "X");
    assert_eq!(f.known(), 1, "short values would match ordinary words");
    let h = f.hide("login with hunter2hunter2 please; short stays");
    assert_eq!(h.text, format!("login with {} please; short stays", f.placeholder("hunter2hunter2", "db-password")));
    assert!(h.text.contains("secret-db-password-"));
}

#[test]
fn names_and_dotenv_files() {
    for name in ["OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "PGPASSWORD", "APIKEY", "npm_token"] {
        assert!(secret_name(name), "{name}");
    }
    for name in ["PATH", "HOME", "KEYBOARD_LAYOUT", "LANG", "TERM"] {
        assert!(!secret_name(name), "{name}");
    }
    let env = "# comment\nexport GITHUB_TOKEN=ghp_x\nDB_URL=\"postgres://a:b@c/d\" \nEMPTY=\nNOTE=kept # trailing\n";
    assert_eq!(
        dotenv_entries(env),
        [
            ("GITHUB_TOKEN".to_owned(), "ghp_x".to_owned()),
            ("DB_URL".to_owned(), "postgres://a:b@c/d".to_owned()),
            ("EMPTY".to_owned(), String::new()),
            ("NOTE".to_owned(), "kept".to_owned()),
        ]
    );
}
