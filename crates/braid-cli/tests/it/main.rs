//! The `braid` binary's tests: real processes, killed and interrupted.
//! One test binary, so a cold build links once instead of once per file.

mod crash;
mod folder;
mod interrupt;
mod send;
