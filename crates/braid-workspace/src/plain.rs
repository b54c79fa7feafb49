//! Opening a file that someone else put there: a FIFO, a socket or a
//! device under a file's name must never hold the reader (opening a FIFO
//! for reading waits for a writer, reading `/dev/zero` never ends), and a
//! file that grows while it is read must not take memory with it. The
//! file is opened without waiting and read only if what was opened is a
//! plain file; a read stops at its cap.

use std::fs::File;
use std::io::{Error, ErrorKind, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// `O_NONBLOCK` on Linux: the open of a FIFO returns at once. On a plain
/// file it changes nothing.
const O_NONBLOCK: i32 = 0o4000;

/// The plain file at `path` (symlinks followed), opened for reading; any
/// other kind of file is an error that names what it is.
pub fn open(path: &Path) -> std::io::Result<File> {
    let file = std::fs::OpenOptions::new().read(true).custom_flags(O_NONBLOCK).open(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    Err(Error::new(ErrorKind::InvalidInput, format!("{} is {}, not a file", path.display(), kind_of(kind))))
}

/// The whole plain file at `path`, if it holds at most `cap` bytes; a
/// longer one is an error (counted as read, so a file that grows after
/// its size was looked at is still refused).
pub fn read(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    open(path)?.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        let what = format!("{} holds more than the {cap} bytes it may", path.display());
        return Err(Error::new(ErrorKind::InvalidData, what));
    }
    Ok(bytes)
}

fn kind_of(kind: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    match () {
        _ if kind.is_dir() => "a folder",
        _ if kind.is_fifo() => "a named pipe",
        _ if kind.is_socket() => "a socket",
        _ if kind.is_char_device() || kind.is_block_device() => "a device",
        _ => "not a plain file",
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn fifo(path: &Path) {
        let made = std::process::Command::new("mkfifo").arg(path).status().unwrap();
        assert!(made.success());
    }

    #[test]
    fn a_pipe_a_folder_or_a_device_is_refused_at_once_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let pipe = dir.path().join("model.gguf");
        fifo(&pipe);
        // Nobody writes to the pipe: a plain open would wait for ever.
        let err = open(&pipe).unwrap_err().to_string();
        assert!(err.ends_with("is a named pipe, not a file"), "{err}");
        assert!(read(dir.path(), 10).unwrap_err().to_string().contains("is a folder"));
        assert!(read(Path::new("/dev/zero"), 10).unwrap_err().to_string().contains("is a device"));
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(read(&link, 10).unwrap_err().to_string().contains("is a device"), "a link is followed, then judged");
    }

    #[test]
    fn a_file_is_read_to_its_cap_and_no_further() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("manifest");
        std::fs::write(&file, b"0123456789").unwrap();
        assert_eq!(read(&file, 10).unwrap(), b"0123456789");
        assert!(read(&file, 9).unwrap_err().to_string().contains("more than the 9 bytes"));
        // A sparse file of 1 TB: refused after cap + 1 bytes, not read.
        let sparse = dir.path().join("sparse");
        std::fs::File::create(&sparse).unwrap().set_len(1 << 40).unwrap();
        assert!(read(&sparse, 1 << 20).is_err());
    }
}
