//! braid-tools' tests: the built-in tools, the sandbox, previews (command_env sets process variables, so it is a binary of its own).
//! One test binary, so a cold build links once instead of once per file.

#[path = "../support/mod.rs"]
mod support;

mod escape;
mod overwrite;
mod preview;
mod sandbox;
mod tools;
