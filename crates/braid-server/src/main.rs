//! `braid-server`: the headless server. Prints the URL (with its token) to
//! open in a browser.

use braid_llm::secrets::Secrets;
use braid_llm::settings::adhoc;
use braid_llm::ProviderKind;
use braid_runtime::{Fallback, Providers, Runtime, RuntimeConfig};
use braid_server::Token;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

const USAGE: &str = "usage: braid-server [--bind ADDR] [--db PATH] [--ui DIR] [--echo | --base-url URL [--model NAME]]

  --bind ADDR     address to listen on (default 127.0.0.1:8420; use another host only behind a proxy)
  --db PATH       database file (default: $XDG_DATA_HOME/braid/braid.db); settings.json,
                  mcp.json (MCP servers) and keys the keychain cannot hold live beside it
  --ui DIR        built UI to serve (default: ui/dist when it exists)
  --echo          answer with the built-in echo while no provider is configured (demos, tests)
  --echo-delay-ms N  the echo's pause between words (default 40)
  --base-url URL  an OpenAI-compatible server to answer with while no provider is configured
  --model NAME    the model to ask there (default: the first the server lists)
Providers are added in the UI's settings. The token is BRAID_SERVER_TOKEN when set
(16+ characters), else a new random one.";

struct Args {
    bind: String,
    db: PathBuf,
    ui: Option<PathBuf>,
    base_url: Option<String>,
    model: Option<String>,
    echo: bool,
    echo_delay_ms: u64,
}

fn parse() -> Result<Args, String> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    let mut a = Args {
        bind: "127.0.0.1:8420".into(),
        db: data.join("braid/braid.db"),
        ui: None,
        base_url: None,
        model: None,
        echo: false,
        echo_delay_ms: 40,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--bind" => a.bind = value()?,
            "--db" => a.db = PathBuf::from(value()?),
            "--ui" => a.ui = Some(PathBuf::from(value()?)),
            "--base-url" => a.base_url = Some(value()?),
            "--model" => a.model = Some(value()?),
            "--echo" => a.echo = true,
            "--echo-delay-ms" => a.echo_delay_ms = value()?.parse().map_err(|_| "--echo-delay-ms needs a number")?,
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
    // Before anything else: may restart the process once (see there).
    braid_runtime::limit_ocr_threads();
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
    config.model_titles = true;
    let data_dir = args.db.parent().unwrap_or(Path::new(".")).to_owned();
    let mut providers = match Providers::from_settings(data_dir.join("settings.json"), Secrets::new(&data_dir)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("braid-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    config.sub_agents = providers.sub_agent_limits();
    config.sandbox_paths = providers.sandbox_paths();
    config.show_secrets_in = providers.show_secrets_in();
    if args.echo {
        providers = providers.with_fallback(Fallback::builtin_echo(Duration::from_millis(args.echo_delay_ms)));
    } else if let Some(url) = &args.base_url {
        match adhoc(ProviderKind::OpenAiCompatible, url, args.model.as_deref(), &Secrets::new(&data_dir)).await {
            Ok((p, info)) => {
                eprintln!("braid-server: using {} at {url} while no provider is configured", info.id);
                providers = providers.with_fallback(Fallback::adhoc(Arc::new(p), url.clone(), &info));
            }
            Err(e) => {
                eprintln!("braid-server: cannot use {url}: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        providers = providers.with_local_models(Arc::new(braid_local::Shelf::new(data_dir.join("models"), Vec::new())));
        if let Some(label) = providers.view().fallback {
            eprintln!("braid-server: until a provider is configured, the {label} answers");
        }
    }
    let (runtime, report) = match Runtime::open_with(config, providers) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("braid-server: {e}");
            return ExitCode::FAILURE;
        }
    };
    // MCP servers start in the background; the settings show how they do.
    runtime.start_mcp(args.db.parent().unwrap_or(Path::new(".")).join("mcp.json"));
    for r in &report.recovered {
        eprintln!("braid-server: recovered conversation {} (interrupted while {:?})", r.context, r.interrupted);
    }
    for pgid in &report.stopped_process_groups {
        eprintln!("braid-server: stopped a command left running by the last session (process group {pgid})");
    }
    for said in &report.completed_restores {
        eprintln!("braid-server: {said}");
    }
    let listener = match tokio::net::TcpListener::bind(&args.bind).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("braid-server: cannot listen on {}: {e}", args.bind);
            return ExitCode::FAILURE;
        }
    };
    let addr = listener.local_addr().map(|a| a.to_string()).unwrap_or(args.bind);
    // Streamed events are small writes: each leaves at once rather than
    // being held back by Nagle's algorithm for an earlier one's ACK.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
    });
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
