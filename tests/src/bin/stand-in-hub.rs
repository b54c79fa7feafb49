//! The stand-in model hub as a process, for the browser's end-to-end
//! tests: `stand-in-hub FILE [BYTES_PER_SECOND]` serves FILE (a GGUF) as
//! `braid_testkit::hub` describes and prints its address on one line.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test tool: a panic is its report

use braid_testkit::hub::StandInHub;
use std::path::PathBuf;

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let file = PathBuf::from(args.next().expect("usage: stand-in-hub FILE [BYTES_PER_SECOND]"));
    let (hub, url) = StandInHub::start(&file).await;
    if let Some(rate) = args.next() {
        hub.set_rate(rate.parse().expect("a rate in bytes per second"));
    }
    println!("{url}");
    std::future::pending::<()>().await;
}
