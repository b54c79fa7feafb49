//! The committed TypeScript must match the Rust types (GitButler's "verify
//! generated types"): a stale file fails here with the command that fixes it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use std::path::PathBuf;

#[test]
fn generated_typescript_is_up_to_date() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(braid_protocol::typescript::GENERATED_PATH);
    let fresh = braid_protocol::typescript::generate();
    if std::env::var_os("BRAID_UPDATE_TS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{} is stale: run `make generate` (BRAID_UPDATE_TS=1 cargo test -p braid-protocol --test generated_ts) and commit it",
        path.display()
    );
}

#[test]
fn generated_typescript_names_every_wire_type() {
    let ts = braid_protocol::typescript::generate();
    for name in
        ["ContextUpdate", "ContentDelta", "ContentFinal", "Command", "MessageType", "ContextStatus", "WireError"]
    {
        assert!(ts.contains(&format!("export type {name} ")), "missing {name} in generated TypeScript");
    }
}

#[test]
fn every_command_is_described_once() {
    let command = <braid_protocol::Command as ts_rs::TS>::decl(&ts_rs::Config::new());
    let mut tags: Vec<&str> = command.split("\"type\": \"").skip(1).filter_map(|s| s.split('"').next()).collect();
    tags.sort_unstable();
    let mut described: Vec<&str> = braid_protocol::command::surface().iter().map(|c| c.tag).collect();
    described.sort_unstable();
    assert_eq!(tags, described, "Command's tags and command::surface() must list the same commands");
}
