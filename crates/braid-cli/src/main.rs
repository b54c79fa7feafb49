//! `braid`: a small terminal chat over the Braid runtime, until the desktop
//! app lands. It answers with the built-in fake model (an echo, streamed
//! word by word), stores everything in SQLite, and shows the state line.

mod args;
mod chat;
mod provider;

use braid_llm::fake::FakeProvider;
use braid_llm::LlmProvider;
use braid_runtime::{Runtime, RuntimeConfig};
use std::process::ExitCode;
use std::sync::Arc;
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
    let provider: Arc<dyn LlmProvider> = match &args.base_url {
        None => Arc::new(FakeProvider::echo(Duration::from_millis(args.fake_delay_ms))),
        Some(url) => match provider::connect(&args, url, &mut config).await {
            Ok(p) => p,
            Err(e) => {
                eprintln!("braid: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let (runtime, report) = match Runtime::open(config, provider) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("braid: {e}");
            return ExitCode::FAILURE;
        }
    };
    for r in &report.recovered {
        eprintln!(
            "braid: recovered conversation {} (it was interrupted while {:?}); it is ready again",
            r.context, r.interrupted
        );
    }
    for (id, e) in &report.failed {
        eprintln!("braid: could not recover conversation {id}: {e}");
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
