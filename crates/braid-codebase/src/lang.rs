//! The languages the index reads symbols from, each with the tags query
//! its grammar ships (TypeScript's adds to JavaScript's, as tree-sitter's
//! own tags command does), and the wider set counted in the overview.

use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::OnceLock;
use tree_sitter_tags::TagsConfiguration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Rust,
    Python,
    TypeScript,
    Tsx,
    JavaScript,
    Go,
}

impl Lang {
    pub fn of(path: &Path) -> Option<Lang> {
        Some(match path.extension()?.to_str()? {
            "rs" => Lang::Rust,
            "py" | "pyi" => Lang::Python,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            "js" | "mjs" | "cjs" | "jsx" => Lang::JavaScript,
            "go" => Lang::Go,
            _ => return None,
        })
    }

    /// The grammar and its tags query, built once per process (a query
    /// takes a few milliseconds to compile).
    pub(crate) fn tags(self) -> Option<&'static TagsConfiguration> {
        static CONFIGS: [OnceLock<Option<TagsConfiguration>>; 6] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
        CONFIGS[self as usize]
            .get_or_init(|| {
                let js = tree_sitter_javascript::TAGS_QUERY;
                let ts = || format!("{js}\n{}", tree_sitter_typescript::TAGS_QUERY);
                let (language, query) = match self {
                    Lang::Rust => (tree_sitter_rust::LANGUAGE.into(), tree_sitter_rust::TAGS_QUERY.to_owned()),
                    Lang::Python => (tree_sitter_python::LANGUAGE.into(), tree_sitter_python::TAGS_QUERY.to_owned()),
                    Lang::TypeScript => (tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(), ts()),
                    Lang::Tsx => (tree_sitter_typescript::LANGUAGE_TSX.into(), ts()),
                    Lang::JavaScript => (tree_sitter_javascript::LANGUAGE.into(), js.to_owned()),
                    Lang::Go => (tree_sitter_go::LANGUAGE.into(), tree_sitter_go::TAGS_QUERY.to_owned()),
                };
                TagsConfiguration::new(language, &query, "")
                    .map_err(|e| tracing::error!(language = ?self, error = %e, "tags query refused"))
                    .ok()
            })
            .as_ref()
    }
}

/// The language a file counts under in the overview, by its name; None
/// for files that are not source or text worth counting.
pub fn language_name(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_str()?;
    if name == "Makefile" || name == "Dockerfile" {
        return Some(if name == "Makefile" { "Makefile" } else { "Dockerfile" });
    }
    Some(match path.extension()?.to_str()? {
        "rs" => "Rust",
        "py" | "pyi" => "Python",
        "ts" | "mts" | "cts" | "tsx" => "TypeScript",
        "js" | "mjs" | "cjs" | "jsx" => "JavaScript",
        "go" => "Go",
        "c" | "h" => "C",
        "cc" | "cpp" | "cxx" | "hpp" | "hh" => "C++",
        "java" => "Java",
        "kt" | "kts" => "Kotlin",
        "swift" => "Swift",
        "rb" => "Ruby",
        "php" => "PHP",
        "cs" => "C#",
        "sh" | "bash" => "Shell",
        "md" | "markdown" => "Markdown",
        "toml" => "TOML",
        "yaml" | "yml" => "YAML",
        "json" => "JSON",
        "html" | "htm" => "HTML",
        "css" | "scss" => "CSS",
        "sql" => "SQL",
        _ => return None,
    })
}
