//! `braid`: a terminal chat over the Braid runtime. It answers with the
//! model server given by `--base-url` (fitted to that model's real window),
//! or with the built-in echo model; it stores everything in SQLite and
//! shows the state line.

mod args;
mod chat;
mod merge;
mod provider;
mod window;

use braid_llm::secrets::Secrets;
use braid_runtime::{Fallback, Providers, Runtime, RuntimeConfig};
use std::process::ExitCode;
use std::time::Duration;

#[tokio::main]
async fn main() -> ExitCode {
    // Before anything else: may restart the process once (see there).
    braid_runtime::limit_ocr_threads();
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::try_from_env("BRAID_LOG").unwrap_or_else(|_| "warn".into()))
        .with_writer(std::io::stderr)
        .init();
    let args = match args::Args::parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("braid: {e}\n\n{}", args::USAGE);
            return ExitCode::from(2);
        }
    };
    if args.help {
        println!("{}", args::USAGE);
        return ExitCode::SUCCESS;
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| ".".into());
    let mut config = RuntimeConfig::new(args.db.clone(), args.workdir.clone().unwrap_or(cwd));
    let fallback = match &args.base_url {
        None => Fallback::builtin_echo(Duration::from_millis(args.fake_delay_ms)),
        Some(url) => match provider::connect(&args, url, &mut config).await {
            Ok(f) => f,
            Err(e) => {
                eprintln!("braid: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let dir = args.db.parent().unwrap_or(std::path::Path::new(".")).to_owned();
    let providers = Providers::in_memory(Secrets::file_only(&dir)).with_fallback(fallback);
    let (runtime, report) = match Runtime::open_with(config, providers) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("braid: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.start_mcp(dir.join("mcp.json"));
    for r in &report.recovered {
        eprintln!(
            "braid: recovered conversation {} (it was interrupted while {:?}); it is ready again",
            r.context, r.interrupted
        );
    }
    for (id, e) in &report.failed {
        eprintln!("braid: could not recover conversation {id}: {e}");
    }
    for pgid in &report.stopped_process_groups {
        eprintln!("braid: stopped a command left running by the last session (process group {pgid})");
    }
    for said in &report.completed_restores {
        eprintln!("braid: {said}");
    }
    match chat::run(&runtime, &args).await {
        Ok(()) => {
            runtime.shutdown().await;
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("braid: {e}");
            runtime.shutdown().await;
            ExitCode::FAILURE
        }
    }
}
