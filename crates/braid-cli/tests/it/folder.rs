//! `/folder` in the terminal chat: shows the folder the tools work in, and
//! with a path moves the conversation there; a folder that does not exist
//! is refused with the reason and changes nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a panic is how a test reports

#[test]
fn slash_folder_shows_and_moves_the_conversations_folder() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    std::fs::create_dir(&project).unwrap();
    let project = std::fs::canonicalize(project).unwrap();
    let nowhere = dir.path().join("nowhere");
    let lines = format!("/folder {}\n/folder {}\n/folder\n/quit", nowhere.display(), project.display());
    let stderr = crate::chat_in(dir.path(), &lines);
    let shown: Vec<&str> = stderr.lines().filter_map(|l| l.strip_prefix("folder: ")).collect();
    let project = project.display().to_string();
    assert_eq!(shown, [project.as_str(), project.as_str()], "{stderr}");
    assert!(stderr.contains(&format!("working directory {} does not exist", nowhere.display())), "{stderr}");
}
