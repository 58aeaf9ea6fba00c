//! Reading a file the user named (a spec file, a vector file, an implementations file,
//! a session given to the matrix) without hanging or reading without end: only a
//! regular file (after symbolic links) is read, and only up to a cap. A FIFO, a
//! device such as `/dev/zero` or a folder is refused by name before it is opened; a
//! file larger than the cap is refused by its size, and a file that grows while it is
//! read stops being read one byte past the cap.
//!
//! Every read of a user-named file in the binary goes through [`read_file`]
//! (`crates/cli/tests/file_paths.rs` holds the binary's crates to it), as every write
//! goes through [`crate::export`].

use std::io::Read;
use std::path::Path;

/// The largest spec or vector file read: 8 MiB (the largest file of the spec and of
/// `vectors/` is under 3 MB).
pub const SPEC_FILE_MAX: u64 = 8 << 20;

/// The largest implementations file `bloomproof matrix --implementations` reads: 1 MiB.
pub const IMPLEMENTATIONS_FILE_MAX: u64 = 1 << 20;

/// The largest session file `bloomproof matrix --session-from` reads: 16 MiB, the
/// largest request an adapter is sent.
pub const SESSION_FILE_MAX: u64 = 16 << 20;

/// The bytes of the file at `path`, refused unless it is a regular file (after
/// symbolic links) of at most `max` bytes; `what` names the kind of file in errors (`a
/// spec file`). Errors do not name the path: the caller puts it (or the flag that gave
/// it) in front.
pub fn read_file(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, String> {
    let not_regular =
        || format!("not a regular file ({what} cannot be a FIFO, a device or a folder)");
    let too_big = |size: String| {
        format!(
            "{size} bytes, larger than {what} may be ({max} bytes, {})",
            shown_size(max)
        )
    };
    let metadata = std::fs::metadata(path).map_err(|err| format!("cannot read: {err}"))?;
    if !metadata.is_file() {
        return Err(not_regular());
    }
    if metadata.len() > max {
        return Err(too_big(metadata.len().to_string()));
    }
    let file = std::fs::File::open(path).map_err(|err| format!("cannot read: {err}"))?;
    // What was opened is what is read: a file swapped for a device between the check
    // and the open is refused too.
    match file.metadata() {
        Ok(opened) if opened.is_file() => {}
        Ok(_) => return Err(not_regular()),
        Err(err) => return Err(format!("cannot read: {err}")),
    }
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| format!("cannot read: {err}"))?;
    if bytes.len() as u64 > max {
        return Err(too_big(format!("more than {max}")));
    }
    Ok(bytes)
}

/// [`read_file`], as UTF-8 text.
pub fn read_text(path: &Path, max: u64, what: &str) -> Result<String, String> {
    String::from_utf8(read_file(path, max, what)?).map_err(|err| format!("not UTF-8: {err}"))
}

/// `8 MiB`, `1 MiB`, or bytes when not a whole number of MiB.
fn shown_size(bytes: u64) -> String {
    if bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn only_small_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let small = dir.path().join("small.json");
        std::fs::write(&small, "{}").unwrap();
        assert_eq!(read_file(&small, 2, "a test file").unwrap(), b"{}");
        assert_eq!(
            read_file(&small, 1, "a test file").unwrap_err(),
            "2 bytes, larger than a test file may be (1 bytes, 1 bytes)"
        );
        assert_eq!(
            read_file(dir.path(), 10, "a test file").unwrap_err(),
            "not a regular file (a test file cannot be a FIFO, a device or a folder)"
        );
        assert!(
            read_file(Path::new("/dev/zero"), 10, "a test file")
                .unwrap_err()
                .starts_with("not a regular file")
        );
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(
            read_file(&link, 10, "a test file")
                .unwrap_err()
                .starts_with("not a regular file")
        );
        assert!(
            read_file(&dir.path().join("missing"), 10, "a test file")
                .unwrap_err()
                .starts_with("cannot read: ")
        );
        assert_eq!(shown_size(SPEC_FILE_MAX), "8 MiB");
    }
}
