//! Tool names for the catalogue: `mcp__<server>__<tool>`, in the bytes
//! every provider accepts (`[A-Za-z0-9_-]`, at most 64); a name that would
//! collide with another (after cleaning or cutting) gets a short hash of
//! the original suffixed, so names never silently change meaning.

use braid_protocol::MAX_TOOL_NAME;
use sha2::{Digest, Sha256};

/// The catalogue name of `tool` of `server`; `taken` says whether a name
/// is already used by another tool.
pub fn tool_name(server: &str, tool: &str, taken: impl Fn(&str) -> bool) -> String {
    let clean: String =
        tool.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect();
    let full = format!("mcp__{server}__{clean}");
    if full.len() <= MAX_TOOL_NAME && clean == tool && !taken(&full) {
        return full;
    }
    let hash = Sha256::digest(format!("{server}\0{tool}").as_bytes());
    let suffix: String = hash.iter().take(3).map(|b| format!("{b:02x}")).collect();
    let room = MAX_TOOL_NAME - suffix.len() - 1;
    let mut cut = full;
    cut.truncate(room);
    format!("{cut}_{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_prefixed_cleaned_cut_and_never_collide() {
        let free = |_: &str| false;
        assert_eq!(tool_name("files", "read_file", free), "mcp__files__read_file");
        let dotted = tool_name("files", "read.file", free);
        assert!(
            dotted.starts_with("mcp__files__read_file_") && dotted.len() == "mcp__files__read_file_".len() + 6,
            "{dotted}"
        );
        let long = tool_name("server", &"x".repeat(80), free);
        assert_eq!(long.len(), MAX_TOOL_NAME);
        assert!(braid_protocol::check_tool_name(&long).is_ok());
        let taken = tool_name("files", "read_file", |n| n == "mcp__files__read_file");
        assert_ne!(taken, "mcp__files__read_file");
        assert_eq!(taken, tool_name("files", "read_file", |n| n == "mcp__files__read_file"), "stable");
        assert_ne!(tool_name("s", &"y".repeat(70), free), tool_name("s", &format!("{}z", "y".repeat(70)), free));
    }
}
