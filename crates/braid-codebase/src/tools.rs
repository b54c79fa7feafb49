//! The codebase tools the model calls: `codebase_search`,
//! `find_definition`, `find_references` and `get_project_overview`, all
//! with read permission. Each opens the workspace's live index (waiting
//! for a build under way), applies what changed since, and checks the
//! files of its answer again before it answers.

use crate::index::Index;
use crate::registry::Codebases;
use crate::search::{fill_snippets, search, Mode, Query};
use crate::symbols_query::{find_definition, find_references, DefinitionAnswer};
use crate::{overview, render};
use braid_core::machine::ToolOutcome;
use braid_protocol::{IndexState, Permission};
use braid_tools::input::{parse, schema_of};
use braid_tools::{failure, success, Tool, ToolContext};
use futures::future::BoxFuture;
use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

pub const PAGE: usize = 20;
/// How long a call waits for a build under way before it says so.
const WAIT_FOR_BUILD: Duration = Duration::from_secs(60);
const DEFAULT_BUDGET: u32 = 1024;

/// The four tools, sharing the workspaces' indexes.
pub fn tools(codebases: Arc<Codebases>) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(CodebaseSearch(codebases.clone())),
        Arc::new(FindDefinition(codebases.clone())),
        Arc::new(FindReferences(codebases.clone())),
        Arc::new(ProjectOverview(codebases)),
    ]
}

/// Runs `work` on a thread of its own (the index is all blocking work)
/// and awaits it; dropping the future leaves the thread to finish alone.
fn blocking(work: impl FnOnce() -> ToolOutcome + Send + 'static) -> BoxFuture<'static, ToolOutcome> {
    let (tx, rx) = futures::channel::oneshot::channel();
    let spawned = std::thread::Builder::new().name("braid-codebase-tool".into()).spawn(move || {
        let _ = tx.send(work());
    });
    async move {
        match spawned {
            Ok(_) => rx.await.unwrap_or_else(|_| failure("the codebase tool stopped unexpectedly")),
            Err(e) => failure(format!("could not start the codebase tool: {e}")),
        }
    }
    .boxed()
}

/// Which files an answer stands on, to check again before it is given.
enum Check {
    Files(Vec<String>),
    /// Nothing was found: a file made a moment ago may hold it, so the
    /// whole workspace is compared with the index.
    Everything,
    Nothing,
}

/// Answers from the workspace's current index, then checks the files the
/// answer stands on: one that changed since (its watcher event not in
/// yet) is read again and the question answered again. The index is
/// never held while it is brought up to date.
fn answer_fresh<T>(codebases: &Codebases, root: &Path, work: impl Fn(&Index) -> (T, Check)) -> Result<T, ToolOutcome> {
    let live = codebases.open(root).map_err(|e| failure(e.to_string()))?;
    let ask = || -> Result<(T, Check), ToolOutcome> {
        let index = live.fresh(WAIT_FOR_BUILD).map_err(not_ready)?;
        Ok(work(&index))
    };
    let (value, check) = ask()?;
    let stale = match check {
        Check::Files(files) => live.verify(files.iter().map(String::as_str)),
        Check::Everything => live.sweep(),
        Check::Nothing => false,
    };
    if stale {
        return ask().map(|(value, _)| value);
    }
    Ok(value)
}

fn not_ready(s: braid_protocol::CodebaseIndex) -> ToolOutcome {
    match s.state {
        IndexState::Building => failure(format!(
            "the codebase index is still being built ({} of {} files); try again in a moment",
            s.done, s.total
        )),
        IndexState::Cancelled => failure(
            "the codebase index was stopped by the user; use codebase_search, or ask the user to build the index again",
        ),
        _ => failure(format!("the codebase index could not be built: {}", s.error.unwrap_or_default())),
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchInput {
    pub query: String,
    /// Default: literal
    #[schemars(extend("enum" = ["literal", "regex", "word"]))]
    pub mode: Option<String>,
    /// Glob filter, e.g. 'src/**/*.rs'
    pub path: Option<String>,
    /// Default: case-insensitive unless the query has a capital
    pub case_sensitive: Option<bool>,
    /// From the previous page
    pub cursor: Option<String>,
}

pub struct CodebaseSearch(Arc<Codebases>);
impl Tool for CodebaseSearch {
    fn name(&self) -> &str {
        "codebase_search"
    }
    fn description(&self) -> &str {
        "Search the workspace's files (.gitignore respected). Each match is shown in its enclosing definition with a breadcrumb; definitions rank first. 20 results a page."
    }
    fn input_schema(&self) -> Value {
        schema_of::<SearchInput>()
    }
    fn permission(&self) -> Permission {
        Permission::Read
    }
    fn examples(&self) -> Vec<Value> {
        vec![json!({"query":"fn \\w+_test","mode":"regex","path":"src/**/*.rs"})]
    }
    fn run<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        let (codebases, root) = (self.0.clone(), ctx.workspace.clone());
        blocking(move || {
            let input: SearchInput = match parse(args) {
                Ok(i) => i,
                Err(e) => return e,
            };
            let q = Query {
                pattern: input.query,
                mode: match input.mode.as_deref().map(str::trim).unwrap_or("literal") {
                    "literal" | "" => Mode::Literal,
                    "regex" => Mode::Regex,
                    "word" => Mode::Word,
                    other => return failure(format!("mode {other:?} is not one of literal, regex, word")),
                },
                glob: input.path.filter(|p| !p.trim().is_empty()),
                case_sensitive: input.case_sensitive,
            };
            let offset = match page_offset(input.cursor.as_deref(), &q) {
                Ok(o) => o,
                Err(e) => return e,
            };
            // The text, and the files it stands on (to check again).
            let answer = |index: &Index| -> Result<(String, Vec<String>), String> {
                let mut found = search(index, &q)?;
                let total = found.hits.len();
                let end = (offset + PAGE).min(total);
                let page = found.hits.get_mut(offset.min(total)..end).unwrap_or_default();
                fill_snippets(index, page);
                let pages = total.div_ceil(PAGE).max(1);
                let mut out = format!(
                    "{total} results for {:?} in {} files searched (page {} of {pages}){}:\n\n",
                    q.pattern,
                    found.files_searched,
                    offset / PAGE + 1,
                    if found.capped { "; matches beyond 5,000 were not collected" } else { "" }
                );
                render::hits(&mut out, page);
                if end < total {
                    out.push_str(&format!("More results: call again with \"cursor\": \"{}\"\n", cursor(end, &q)));
                }
                if total == 0 {
                    out = format!("No match for {:?} in {} files searched.", q.pattern, found.files_searched);
                }
                let mut files: Vec<String> = page.iter().map(|h| h.path.clone()).collect();
                files.dedup();
                Ok((out, files))
            };
            // A stopped build: search the files as they are, unwidened.
            if codebases.open(&root).is_ok_and(|l| l.status().state == IndexState::Cancelled) {
                return answer(&Index::listing(root.clone())).map_or_else(failure, |(text, _)| success(text));
            }
            let result = answer_fresh(&codebases, &root, |index| match answer(index) {
                Ok((text, files)) => (Ok(text), Check::Files(files)),
                Err(e) => (Err(e), Check::Nothing),
            });
            match result {
                Ok(text) => text.map_or_else(failure, success),
                Err(e) => e,
            }
        })
    }
}

/// Cursors carry the offset and a fingerprint of the query, so a cursor
/// from another query is refused instead of paging the wrong results.
fn fingerprint(q: &Query) -> u32 {
    let key = format!("{}\u{0}{:?}\u{0}{:?}\u{0}{:?}", q.pattern, q.mode, q.glob, q.case_sensitive);
    key.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

fn cursor(offset: usize, q: &Query) -> String {
    format!("{offset}.{:08x}", fingerprint(q))
}

fn page_offset(cursor: Option<&str>, q: &Query) -> Result<usize, ToolOutcome> {
    let Some(c) = cursor.filter(|c| !c.is_empty()) else { return Ok(0) };
    let parsed =
        c.split_once('.').and_then(|(o, f)| Some((o.parse::<usize>().ok()?, u32::from_str_radix(f, 16).ok()?)));
    match parsed {
        Some((offset, f)) if f == fingerprint(q) => Ok(offset),
        Some(_) => Err(failure("this cursor belongs to another search; repeat the same query, mode and path with it, or leave it out for the first page")),
        None => Err(failure(format!("{c:?} is not a cursor this tool gave; leave it out for the first page"))),
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SymbolInput {
    /// A name, or qualified: 'Loader::parse'
    pub symbol: String,
}

pub struct FindDefinition(Arc<Codebases>);
impl Tool for FindDefinition {
    fn name(&self) -> &str {
        "find_definition"
    }
    fn description(&self) -> &str {
        "Where a symbol is defined: file, line, kind and signature; the closest names when none matches."
    }
    fn input_schema(&self) -> Value {
        schema_of::<SymbolInput>()
    }
    fn permission(&self) -> Permission {
        Permission::Read
    }
    fn examples(&self) -> Vec<Value> {
        vec![json!({"symbol":"Store.add_item"})]
    }
    fn run<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        let (codebases, root) = (self.0.clone(), ctx.workspace.clone());
        blocking(move || {
            let input = match parse::<SymbolInput>(args) {
                Ok(i) if !i.symbol.trim().is_empty() => i,
                Ok(_) => return failure("give the name of a symbol"),
                Err(e) => return e,
            };
            let found = answer_fresh(&codebases, &root, |index| {
                let answer = find_definition(index, &input.symbol);
                let check = match &answer {
                    DefinitionAnswer::Found(defs) => Check::Files(defs.iter().map(|d| d.path.clone()).collect()),
                    DefinitionAnswer::NotFound { .. } => Check::Everything,
                };
                (answer, check)
            });
            found.map_or_else(|e| e, |a| success(render::definitions(&input.symbol, &a)))
        })
    }
}

pub struct FindReferences(Arc<Codebases>);
impl Tool for FindReferences {
    fn name(&self) -> &str {
        "find_references"
    }
    fn description(&self) -> &str {
        "Every use of a symbol (as a whole word) with the lines around it, grouped by file."
    }
    fn input_schema(&self) -> Value {
        schema_of::<SymbolInput>()
    }
    fn permission(&self) -> Permission {
        Permission::Read
    }
    fn examples(&self) -> Vec<Value> {
        vec![json!({"symbol":"Settings"})]
    }
    fn run<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        let (codebases, root) = (self.0.clone(), ctx.workspace.clone());
        blocking(move || {
            let input: SymbolInput = match parse(args) {
                Ok(i) => i,
                Err(e) => return e,
            };
            // The uses are read from the files as they are now; the index
            // only lists the files and marks the definitions.
            let refs = answer_fresh(&codebases, &root, |index| {
                let refs = find_references(index, &input.symbol);
                let files = refs.as_ref().map(|r| r.files.iter().map(|(p, _)| p.clone()).collect()).unwrap_or_default();
                (refs, Check::Files(files))
            });
            match refs {
                Ok(Ok(refs)) => success(render::references(input.symbol.trim(), &refs)),
                Ok(Err(e)) => failure(e),
                Err(e) => e,
            }
        })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OverviewInput {
    /// For the map: 128 to 8192, default 1024
    #[schemars(range(min = 128, max = 8192))]
    pub budget_tokens: Option<u32>,
}

pub struct ProjectOverview(Arc<Codebases>);
impl Tool for ProjectOverview {
    fn name(&self) -> &str {
        "get_project_overview"
    }
    fn description(&self) -> &str {
        "The workspace's folders, languages, entry points, dependencies, and a map of its most referenced definitions."
    }
    fn input_schema(&self) -> Value {
        schema_of::<OverviewInput>()
    }
    fn permission(&self) -> Permission {
        Permission::Read
    }
    fn examples(&self) -> Vec<Value> {
        vec![json!({"budget_tokens":2048})]
    }
    fn run<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        let (codebases, root) = (self.0.clone(), ctx.workspace.clone());
        blocking(move || {
            let input: OverviewInput = match parse(args) {
                Ok(i) => i,
                Err(e) => return e,
            };
            let budget = input.budget_tokens.unwrap_or(DEFAULT_BUDGET);
            if !(128..=8192).contains(&budget) {
                return failure(format!("budget_tokens must be from 128 to 8192, not {budget}"));
            }
            answer_fresh(&codebases, &root, |index| (overview::overview(index, budget as usize), Check::Nothing))
                .map_or_else(|e| e, success)
        })
    }
}
