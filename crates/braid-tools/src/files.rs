//! The file tools: read (with line numbers and ranges), list, glob, write,
//! and exact-match edit. Paths go through [`crate::paths::confine`].

use crate::input::{
    line, parse, schema_of, EditFileInput, GlobFilesInput, ListDirectoryInput, ReadFileInput, WriteFileInput,
};
use crate::output::{cap, numbered};
use crate::paths::{confine, shown};
use crate::{failure, success, Tool, ToolContext};
use braid_core::machine::ToolOutcome;
use braid_protocol::Permission;
use futures::future::BoxFuture;
use futures::FutureExt;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Larger files are refused: the model gets a range hint instead.
pub const MAX_READ_BYTES: u64 = 2 * 1024 * 1024;
/// What goes back to the model from one read.
const MAX_OUTPUT: usize = 100 * 1024;
const MAX_ENTRIES: usize = 1_000;

fn resolve(ctx: &ToolContext, path: &str) -> Result<PathBuf, ToolOutcome> {
    let real = confine(&ctx.workspace, path).map_err(|e| failure(format!("{e}; use a path inside the workspace")))?;
    match ctx.confine.refuses(&ctx.workspace, &real) {
        Some(why) => Err(failure(why)),
        None => Ok(real),
    }
}

fn io_error(ctx: &ToolContext, path: &Path, e: &std::io::Error) -> ToolOutcome {
    let p = shown(&ctx.workspace, path);
    match e.kind() {
        std::io::ErrorKind::NotFound => failure(format!("{p} does not exist")),
        std::io::ErrorKind::PermissionDenied => failure(format!("{p}: permission denied")),
        _ => failure(format!("{p}: {e}")),
    }
}

/// Reads a text file; binary and oversized files get a message instead.
fn read_text(ctx: &ToolContext, path: &Path) -> Result<String, ToolOutcome> {
    let meta = std::fs::metadata(path).map_err(|e| io_error(ctx, path, &e))?;
    let p = shown(&ctx.workspace, path);
    if meta.is_dir() {
        return Err(failure(format!("{p} is a directory; use list_directory")));
    }
    if meta.len() > MAX_READ_BYTES {
        return Err(failure(format!(
            "{p} is {} bytes, more than the {} a read may take; read a line range (start_line, end_line)",
            meta.len(),
            MAX_READ_BYTES
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| io_error(ctx, path, &e))?;
    if bytes[..bytes.len().min(8_192)].contains(&0) {
        return Err(failure(format!("{p} is a binary file ({} bytes); it cannot be shown as text", bytes.len())));
    }
    String::from_utf8(bytes).map_err(|_| failure(format!("{p} is not UTF-8 text")))
}

pub struct ReadFile;
impl Tool for ReadFile {
    fn name(&self) -> &str {
        "read_file"
    }
    fn description(&self) -> &str {
        "Read a text file in the workspace. Lines are numbered from 1. Give start_line and end_line to read part of a long file."
    }
    fn input_schema(&self) -> Value {
        schema_of::<ReadFileInput>()
    }
    fn permission(&self) -> Permission {
        Permission::Read
    }
    fn examples(&self) -> Vec<Value> {
        vec![json!({"path":"src/main.rs"}), json!({"path":"README.md","start_line":10,"end_line":40})]
    }
    fn run<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        async move {
            let outcome = || -> Result<ToolOutcome, ToolOutcome> {
                let input: ReadFileInput = parse(args)?;
                let path = resolve(ctx, &input.path)?;
                let (start, end) = (line(input.start_line, "start_line")?, line(input.end_line, "end_line")?);
                let text = read_text(ctx, &path)?;
                ctx.record_read(&path);
                let total = text.lines().count();
                let first = start.unwrap_or(1);
                let last = end.unwrap_or(total).min(total);
                if let (Some(s), Some(e)) = (start, end) {
                    if e < s {
                        return Err(failure(format!("end_line {e} is before start_line {s}")));
                    }
                }
                if total == 0 {
                    return Ok(success(format!("{} is empty", shown(&ctx.workspace, &path))));
                }
                if first > total {
                    return Err(failure(format!("start_line {first} is past the end ({total} lines)")));
                }
                let body = numbered(text.lines().skip(first - 1).take(last + 1 - first), first);
                Ok(success(cap(&body, MAX_OUTPUT)))
            };
            outcome().unwrap_or_else(|e| e)
        }
        .boxed()
    }
}

pub struct ListDirectory;
impl Tool for ListDirectory {
    fn name(&self) -> &str {
        "list_directory"
    }
    fn description(&self) -> &str {
        "List a directory of the workspace: one entry per line, directories end with '/'."
    }
    fn input_schema(&self) -> Value {
        schema_of::<ListDirectoryInput>()
    }
    fn permission(&self) -> Permission {
        Permission::Read
    }
    fn examples(&self) -> Vec<Value> {
        vec![json!({}), json!({"path":"src"})]
    }
    fn run<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        async move {
            let outcome = || -> Result<ToolOutcome, ToolOutcome> {
                let input: ListDirectoryInput = parse(args)?;
                let path = match input.path.as_deref() {
                    Some(p) if !p.trim().is_empty() => resolve(ctx, p)?,
                    _ => ctx.workspace.clone(),
                };
                let read = std::fs::read_dir(&path).map_err(|e| io_error(ctx, &path, &e))?;
                let mut names: Vec<String> = read
                    .filter_map(Result::ok)
                    .map(|e| {
                        let dir = e.file_type().is_ok_and(|t| t.is_dir());
                        format!("{}{}", e.file_name().to_string_lossy(), if dir { "/" } else { "" })
                    })
                    .collect();
                names.sort();
                let more = names.len().saturating_sub(MAX_ENTRIES);
                names.truncate(MAX_ENTRIES);
                let mut out = names.join("\n");
                if more > 0 {
                    out.push_str(&format!("\n[… {more} more entries]"));
                }
                if out.is_empty() {
                    out = format!("{} is empty", shown(&ctx.workspace, &path));
                }
                Ok(success(out))
            };
            outcome().unwrap_or_else(|e| e)
        }
        .boxed()
    }
}

pub struct GlobFiles;
impl Tool for GlobFiles {
    fn name(&self) -> &str {
        "glob_files"
    }
    fn description(&self) -> &str {
        "Find files in the workspace by glob pattern (e.g. '**/*.rs', 'src/*.ts'). Files ignored by .gitignore are skipped."
    }
    fn input_schema(&self) -> Value {
        schema_of::<GlobFilesInput>()
    }
    fn permission(&self) -> Permission {
        Permission::Read
    }
    fn examples(&self) -> Vec<Value> {
        vec![json!({"pattern":"**/*.rs"})]
    }
    fn run<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        async move {
            let outcome = || -> Result<ToolOutcome, ToolOutcome> {
                let input: GlobFilesInput = parse(args)?;
                let pattern = input.pattern.trim();
                if pattern.starts_with('/') || pattern.split('/').any(|c| c == "..") {
                    return Err(failure("the pattern must be relative to the workspace, without '..'"));
                }
                let mut overrides = ignore::overrides::OverrideBuilder::new(&ctx.workspace);
                overrides.add(pattern).map_err(|e| failure(format!("bad pattern {pattern:?}: {e}")))?;
                let overrides = overrides.build().map_err(|e| failure(format!("bad pattern {pattern:?}: {e}")))?;
                let walk = ignore::WalkBuilder::new(&ctx.workspace)
                    .overrides(overrides)
                    .follow_links(false)
                    .require_git(false)
                    .build();
                let mut found: Vec<String> = walk
                    .filter_map(Result::ok)
                    .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
                    .map(|e| shown(&ctx.workspace, e.path()))
                    .take(MAX_ENTRIES + 1)
                    .collect();
                found.sort();
                if found.is_empty() {
                    return Ok(success(format!("no file matches {pattern}")));
                }
                let more = found.len() > MAX_ENTRIES;
                found.truncate(MAX_ENTRIES);
                let mut out = found.join("\n");
                if more {
                    out.push_str("\n[… more files match; narrow the pattern]");
                }
                Ok(success(out))
            };
            outcome().unwrap_or_else(|e| e)
        }
        .boxed()
    }
}

/// A successful write, with the hash of what the file now holds.
fn wrote(outcome: ToolOutcome, content: &str) -> ToolOutcome {
    ToolOutcome { written: Some(braid_workspace::freshness::content_hash(content.as_bytes())), ..outcome }
}

/// Writes through a temporary file renamed into place: a crash never
/// leaves half a file.
fn write_atomic(ctx: &ToolContext, path: &Path, content: &str) -> Result<(), ToolOutcome> {
    if path.is_dir() {
        return Err(failure(format!("{} is a directory", shown(&ctx.workspace, path))));
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| io_error(ctx, parent, &e))?;
    }
    let tmp = path
        .with_file_name(format!(".{}.braid-tmp", path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default()));
    std::fs::write(&tmp, content).map_err(|e| io_error(ctx, path, &e))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io_error(ctx, path, &e)
    })
}

pub struct WriteFile;
impl Tool for WriteFile {
    fn name(&self) -> &str {
        "write_file"
    }
    fn description(&self) -> &str {
        "Create or overwrite a file in the workspace with the given content. Missing directories are created."
    }
    fn input_schema(&self) -> Value {
        schema_of::<WriteFileInput>()
    }
    fn permission(&self) -> Permission {
        Permission::Write
    }
    fn examples(&self) -> Vec<Value> {
        vec![json!({"path":"notes/todo.md","content":"- write tests\n"})]
    }
    fn run<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        async move {
            let outcome = || -> Result<ToolOutcome, ToolOutcome> {
                let WriteFileInput { path, content } = parse(args)?;
                let path = resolve(ctx, &path)?;
                let content = content.as_str();
                let existed = path.exists();
                ctx.check_unchanged(&path)?;
                write_atomic(ctx, &path, content)?;
                ctx.record_edit(&path);
                let verb = if existed { "overwrote" } else { "created" };
                let done = success(format!("{verb} {} ({} bytes)", shown(&ctx.workspace, &path), content.len()));
                Ok(wrote(done, content))
            };
            outcome().unwrap_or_else(|e| e)
        }
        .boxed()
    }
}

pub struct EditFile;
impl Tool for EditFile {
    fn name(&self) -> &str {
        "edit_file"
    }
    fn description(&self) -> &str {
        "Replace one exact occurrence of old_string with new_string in a file. old_string must match exactly once: include enough surrounding lines to make it unique."
    }
    fn input_schema(&self) -> Value {
        schema_of::<EditFileInput>()
    }
    fn permission(&self) -> Permission {
        Permission::Write
    }
    fn examples(&self) -> Vec<Value> {
        vec![json!({"path":"src/lib.rs","old_string":"fn old()","new_string":"fn new()"})]
    }
    fn run<'a>(&'a self, args: Value, ctx: &'a ToolContext) -> BoxFuture<'a, ToolOutcome> {
        async move {
            let outcome = || -> Result<ToolOutcome, ToolOutcome> {
                let EditFileInput { path, old_string, new_string } = parse(args)?;
                let path = resolve(ctx, &path)?;
                let (old, new) = (old_string.as_str(), new_string.as_str());
                let p = shown(&ctx.workspace, &path);
                if old.is_empty() {
                    return Err(failure("old_string is empty; to create a file use write_file"));
                }
                ctx.check_unchanged(&path)?;
                let text = read_text(ctx, &path)?;
                match text.matches(old).count() {
                    0 => Err(failure(format!(
                        "old_string was not found in {p}; read the file again and copy the text exactly"
                    ))),
                    1 => {
                        let line = text[..text.find(old).unwrap_or(0)].matches('\n').count() + 1;
                        let edited = text.replacen(old, new, 1);
                        write_atomic(ctx, &path, &edited)?;
                        ctx.record_edit(&path);
                        Ok(wrote(success(format!("edited {p} at line {line}")), &edited))
                    }
                    n => Err(failure(format!(
                        "old_string occurs {n} times in {p}; include more surrounding text so it matches once"
                    ))),
                }
            };
            outcome().unwrap_or_else(|e| e)
        }
        .boxed()
    }
}
