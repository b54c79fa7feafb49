//! `braid-server`: the headless server. Prints the URL (with its token) to
//! open in a browser.

use braid_llm::fake::FakeProvider;
use braid_llm::secrets::Secrets;
use braid_llm::settings::adhoc;
use braid_llm::{LlmProvider, ProviderKind};
use braid_runtime::{Runtime, RuntimeConfig};
use braid_server::Token;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

const USAGE: &str = "usage: braid-server [--bind ADDR] [--db PATH] [--ui DIR] [--base-url URL --model NAME]

  --bind ADDR     address to listen on (default 127.0.0.1:8420; use another host only behind a proxy)
  --db PATH       database file (default: $XDG_DATA_HOME/braid/braid.db)
  --ui DIR        built UI to serve (default: ui/dist when it exists)
  --base-url URL  an OpenAI-compatible server to answer with (default: the built-in echo)
  --model NAME    the model to ask there (default: the first the server lists)
The token is BRAID_SERVER_TOKEN when set (16+ characters), else a new random one.";

struct Args {
    bind: String,
    db: PathBuf,
    ui: Option<PathBuf>,
    base_url: Option<String>,
    model: Option<String>,
}

fn parse() -> Result<Args, String> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    let mut a =
        Args { bind: "127.0.0.1:8420".into(), db: data.join("braid/braid.db"), ui: None, base_url: None, model: None };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--bind" => a.bind = value()?,
            "--db" => a.db = PathBuf::from(value()?),
            "--ui" => a.ui = Some(PathBuf::from(value()?)),
            "--base-url" => a.base_url = Some(value()?),
            "--model" => a.model = Some(value()?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if a.ui.is_none() && PathBuf::from("ui/dist/index.html").exists() {
        a.ui = Some(PathBuf::from("ui/dist"));
    }
    Ok(a)
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("BRAID_LOG").unwrap_or_else(|_| "warn".into()))
        .init();
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{}{USAGE}", if e.is_empty() { String::new() } else { format!("braid-server: {e}\n\n") });
            return if e.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    let token =
        match std::env::var("BRAID_SERVER_TOKEN").ok().and_then(Token::new).map(Ok).unwrap_or_else(Token::generate) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("braid-server: cannot make a token: {e}");
                return ExitCode::FAILURE;
            }
        };
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let mut config = RuntimeConfig::new(args.db.clone(), cwd);
    let provider: Arc<dyn LlmProvider> = match &args.base_url {
        None => Arc::new(FakeProvider::echo(Duration::from_millis(40))),
        Some(url) => {
            let secrets = Secrets::new(args.db.parent().unwrap_or(std::path::Path::new(".")));
            match adhoc(ProviderKind::OpenAiCompatible, url, args.model.as_deref(), &secrets).await {
                Ok((p, info)) => {
                    eprintln!("braid-server: using {} at {url}", info.id);
                    config.model = info.id;
                    config.max_tokens = info.max_output_tokens.min(4_096);
                    Arc::new(p)
                }
                Err(e) => {
                    eprintln!("braid-server: cannot use {url}: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    let (runtime, report) = match Runtime::open(config, provider) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("braid-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    for r in &report.recovered {
        eprintln!("braid-server: recovered conversation {} (interrupted while {:?})", r.context, r.interrupted);
    }
    let listener = match tokio::net::TcpListener::bind(&args.bind).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("braid-server: cannot listen on {}: {e}", args.bind);
            return ExitCode::FAILURE;
        }
    };
    let addr = listener.local_addr().map(|a| a.to_string()).unwrap_or(args.bind);
    println!("Braid is running at http://{addr}/?token={}", token.expose());
    let app = braid_server::router(runtime.clone(), token, args.ui);
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    if let Err(e) = axum::serve(listener, app).with_graceful_shutdown(shutdown).await {
        eprintln!("braid-server: {e}");
        return ExitCode::FAILURE;
    }
    runtime.shutdown().await;
    ExitCode::SUCCESS
}
