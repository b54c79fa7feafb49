//! Braid's codebase index: every file ripgrep would search, the symbols
//! tree-sitter's tags queries find in Rust, Python, TypeScript/TSX,
//! JavaScript and Go, kept current by file watching and stored between
//! runs; and the questions asked of it: search widened to definitions,
//! definitions, references, and a project overview with a ranked map.
//! Threads, not tokio: the runtime calls in from a blocking task.

pub mod index;
pub mod lang;
pub mod live;
pub mod overview;
pub mod rank;
pub mod registry;
pub mod search;
pub mod symbols;
pub mod symbols_query;

pub use index::{BuildStats, Index};
pub use live::LiveIndex;
pub use registry::Codebases;
pub mod render;
pub mod tools;
