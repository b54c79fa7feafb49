//! A command the model runs never sees the headless server's token (it
//! could call Braid's API with it and approve its own calls). A file of
//! its own: the test sets the variable in this process, and no other test
//! reads the environment meanwhile.

#![allow(clippy::unwrap_used)] // a panic is how a test reports

#[path = "support/mod.rs"]
mod support;

#[tokio::test]
async fn run_command_does_not_inherit_the_server_token() {
    std::env::set_var("BRAID_SERVER_TOKEN", "secret-token-for-the-test");
    std::env::set_var("BRAID_COMMAND_ENV_CANARY", "inherited");
    let w = support::ws();
    let o = w.call("run_command", serde_json::json!({"command": "env"})).await;
    assert!(o.output.contains("BRAID_COMMAND_ENV_CANARY=inherited"), "the rest of the environment is passed on");
    assert!(!o.output.contains("secret-token-for-the-test"), "{}", o.output);
}
