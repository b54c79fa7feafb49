//! Command-line arguments, parsed by hand (four flags do not need a crate).

use std::path::PathBuf;

pub const USAGE: &str = "usage: braid [--db PATH] [--workdir DIR] [--context ID | --title TITLE] [--send TEXT]...
             [--fake-delay-ms N | --base-url URL [--kind KIND] [--model NAME]]

  --db PATH          database file (default: $XDG_DATA_HOME/braid/braid.db)
  --workdir DIR      working directory of a new conversation (default: current)
  --context ID       continue an existing conversation (default: the most recent)
  --title TITLE      start a new conversation with this title
  --send TEXT        send TEXT, wait for the answer; repeatable; then exit
  --fake-delay-ms N  delay between streamed words of the built-in model (default 40)
  --base-url URL     use a real model server instead of the built-in echo
  --kind KIND        openai (any OpenAI-compatible server, default), anthropic, gemini
  --model NAME       model to ask (default: the first the server lists)
                     The API key comes from BRAID_<KIND>_API_KEY, the keychain, or none.

In the chat: Enter sends; /help lists commands; Ctrl+C cancels a running answer.";

#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    pub db: PathBuf,
    pub workdir: Option<PathBuf>,
    pub context: Option<String>,
    pub title: Option<String>,
    pub send: Vec<String>,
    pub fake_delay_ms: u64,
    pub base_url: Option<String>,
    pub kind: braid_llm::ProviderKind,
    pub model: Option<String>,
    pub help: bool,
}

fn default_db() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("braid").join("braid.db")
}

impl Args {
    pub fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
        let mut a = Args {
            db: default_db(),
            workdir: None,
            context: None,
            title: None,
            send: Vec::new(),
            fake_delay_ms: 40,
            base_url: None,
            kind: braid_llm::ProviderKind::OpenAiCompatible,
            model: None,
            help: false,
        };
        while let Some(flag) = it.next() {
            let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
            match flag.as_str() {
                "--db" => a.db = PathBuf::from(value("--db")?),
                "--workdir" => a.workdir = Some(PathBuf::from(value("--workdir")?)),
                "--context" => a.context = Some(value("--context")?),
                "--title" => a.title = Some(value("--title")?),
                "--send" => a.send.push(value("--send")?),
                "--fake-delay-ms" => {
                    let v = value("--fake-delay-ms")?;
                    a.fake_delay_ms =
                        v.parse().map_err(|_| format!("--fake-delay-ms takes a number of milliseconds, not {v:?}"))?;
                }
                "--base-url" => a.base_url = Some(value("--base-url")?),
                "--model" => a.model = Some(value("--model")?),
                "--kind" => {
                    a.kind = match value("--kind")?.as_str() {
                        "openai" => braid_llm::ProviderKind::OpenAiCompatible,
                        "anthropic" => braid_llm::ProviderKind::Anthropic,
                        "gemini" => braid_llm::ProviderKind::Gemini,
                        other => return Err(format!("--kind is openai, anthropic or gemini, not {other:?}")),
                    }
                }
                "-h" | "--help" => a.help = true,
                other => return Err(format!("unknown argument {other:?}")),
            }
        }
        if a.context.is_some() && a.title.is_some() {
            return Err("--context and --title exclude each other".into());
        }
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(v: &[&str]) -> Result<Args, String> {
        Args::parse(v.iter().map(|s| s.to_string()))
    }

    #[test]
    fn flags_parse_and_errors_are_clear() {
        let a = parse(&["--db", "x.db", "--send", "a", "--send", "b", "--fake-delay-ms", "5"]).unwrap();
        assert_eq!((a.db, a.send, a.fake_delay_ms), (PathBuf::from("x.db"), vec!["a".to_owned(), "b".to_owned()], 5));
        assert_eq!(parse(&["--send"]).unwrap_err(), "--send needs a value");
        assert!(parse(&["--fake-delay-ms", "soon"]).unwrap_err().contains("number"));
        assert!(parse(&["--bogus"]).unwrap_err().contains("--bogus"));
        assert!(parse(&["--context", "c", "--title", "t"]).is_err());
    }
}
