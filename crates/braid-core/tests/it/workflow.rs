//! Workflow files: the front matter read, placeholders found, arguments
//! filled in or refused by name, and bad files refused with the line.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

use braid_core::workflow::{fill, parse};
use std::collections::BTreeMap;

const REVIEW: &str = "---
description: Review a file for bugs
parameters:
  - name: file
    description: The file to review
  - name: focus
    default: \"correctness\"
---
Review @{{file}}, looking for {{ focus }} problems. Then {{extra}}.
";

fn args(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

#[test]
fn the_front_matter_and_the_placeholders_are_the_parameters() {
    let w = parse("review", "workspace", REVIEW).unwrap();
    assert_eq!(w.description, "Review a file for bugs");
    let names: Vec<(&str, Option<&str>)> =
        w.parameters.iter().map(|p| (p.name.as_str(), p.default.as_deref())).collect();
    assert_eq!(
        names,
        [("file", None), ("focus", Some("correctness")), ("extra", None)],
        "an undeclared placeholder counts"
    );
    assert_eq!(w.parameters[0].description, "The file to review");
}

#[test]
fn arguments_fill_the_prompt_and_defaults_stand_in() {
    let w = parse("review", "workspace", REVIEW).unwrap();
    let prompt = fill(&w, &args(&[("file", "src/a.rs"), ("extra", "say thanks")])).unwrap();
    assert_eq!(prompt, "Review @src/a.rs, looking for correctness problems. Then say thanks.");
    let e = fill(&w, &args(&[("extra", "x")])).unwrap_err();
    assert_eq!(e, "review needs a value for file");
    let e = fill(&w, &args(&[("file", "a"), ("extra", "x"), ("colour", "red")])).unwrap_err();
    assert!(e.contains("no parameter \"colour\"") && e.contains("file, focus, extra"), "{e}");
}

#[test]
fn a_file_without_front_matter_is_all_prompt() {
    let w = parse("hello", "config", "Say hello to {{who}}.").unwrap();
    assert_eq!((w.description.as_str(), w.parameters.len(), w.origin.as_str()), ("", 1, "config"));
    assert_eq!(fill(&w, &args(&[("who", "Ada")])).unwrap(), "Say hello to Ada.");
}

#[test]
fn bad_files_are_refused_with_the_reason() {
    assert!(parse("x", "w", "---\ndescription: a\nno end").unwrap_err().contains("no closing ---"));
    assert!(parse("x", "w", "---\ncolour: red\n---\nhi").unwrap_err().contains("unknown key \"colour\""));
    assert!(parse("x", "w", "---\ndescription: a\n---\n  \n").unwrap_err().contains("no prompt"));
    assert!(parse("x", "w", "---\nparameters:\n  - name: bad name\n---\nhi").unwrap_err().contains("line 3"));
    assert!(parse("bad name", "w", "hi").unwrap_err().contains("not a workflow name"));
    assert!(parse("x", "w", &"a".repeat(70_000)).unwrap_err().contains("bytes"));
}
