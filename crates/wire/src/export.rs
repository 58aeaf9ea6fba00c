//! Writing files into an output folder (`bloomproof spec export`, `bloomproof explore
//! --export`, `bloomproof matrix --out`) without ever writing outside it: a symbolic
//! link inside the folder, to a file or to a folder, is refused by name, never
//! followed; a target that is a file or a link to nothing is a clear error, not an
//! operating-system message. Nothing is removed but a regular file inside the folder
//! ([`remove_inside`]), and never a folder.
//!
//! This is the binary's one writer of files: `crates/cli/tests/file_paths.rs` fails on
//! a write, a creation or a removal of a file anywhere else in the binary's crates.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// Makes `dir` ready to be written into: created (with its parents) when missing; an
/// existing folder must be empty unless `force`. The folder itself may be a symbolic
/// link to a folder (the user named it); a link to nothing, or anything that is not a
/// folder, is refused.
pub fn prepare_folder(dir: &Path, force: bool) -> Result<(), String> {
    let shown = dir.display();
    match std::fs::symlink_metadata(dir) {
        Err(err) if err.kind() == ErrorKind::NotFound => {
            return std::fs::create_dir_all(dir)
                .map_err(|err| format!("{shown}: cannot create the folder: {err}"));
        }
        Err(err) => return Err(format!("{shown}: cannot read: {err}")),
        Ok(meta) if meta.file_type().is_symlink() => match std::fs::metadata(dir) {
            Ok(target) if target.is_dir() => {}
            Ok(_) => {
                return Err(format!(
                    "{shown} is a symbolic link to something that is not a folder: export into a folder"
                ));
            }
            Err(_) => {
                return Err(format!(
                    "{shown} is a symbolic link to nothing (its target is missing): export into a new folder, or create the target first"
                ));
            }
        },
        Ok(meta) if !meta.is_dir() => {
            return Err(format!(
                "{shown} exists and is not a folder: export into a new or empty folder"
            ));
        }
        Ok(_) => {}
    }
    let mut entries =
        std::fs::read_dir(dir).map_err(|err| format!("{shown}: cannot read: {err}"))?;
    if entries.next().is_some() && !force {
        return Err(format!(
            "{shown} is not empty: export into an empty or new folder, or give --force to overwrite the exported files there"
        ));
    }
    Ok(())
}

/// The path of `relative` (components separated by `/`) inside `dir`, its folders on
/// the way checked: each is a real folder (or missing, then created when `create`); a
/// symbolic link among them is refused by name.
fn inside(dir: &Path, relative: &str, create: bool) -> Result<Option<PathBuf>, String> {
    let parts: Vec<&str> = relative.split('/').collect();
    let Some((file, folders)) = parts.split_last() else {
        return Err(format!("{relative:?} is not a file name"));
    };
    if parts
        .iter()
        .any(|p| p.is_empty() || *p == "." || *p == "..")
    {
        return Err(format!("{relative:?} is not a plain relative file name"));
    }
    let mut path = dir.to_path_buf();
    for folder in folders {
        path.push(folder);
        match std::fs::symlink_metadata(&path) {
            Err(err) if err.kind() == ErrorKind::NotFound && !create => return Ok(None),
            Err(err) if err.kind() == ErrorKind::NotFound => std::fs::create_dir(&path)
                .map_err(|err| format!("{}: cannot create the folder: {err}", path.display()))?,
            Err(err) => return Err(format!("{}: cannot read: {err}", path.display())),
            Ok(meta) if meta.file_type().is_symlink() => return Err(refused_link(&path)),
            Ok(meta) if !meta.is_dir() => {
                return Err(format!(
                    "{} is a file where the export needs a folder",
                    path.display()
                ));
            }
            Ok(_) => {}
        }
    }
    path.push(file);
    Ok(Some(path))
}

fn refused_link(path: &Path) -> String {
    format!(
        "{} is a symbolic link: an export writes only inside its folder and follows no link (remove the link, or export elsewhere)",
        path.display()
    )
}

/// Whether `relative` inside `dir` is a regular file (not a symbolic link), its
/// folders on the way real folders.
pub fn holds_file(dir: &Path, relative: &str) -> bool {
    matches!(inside(dir, relative, false), Ok(Some(path))
        if std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.file_type().is_file()))
}

/// Removes the regular file `relative` inside `dir` when there is one; anything else
/// there (a symbolic link, a folder, nothing) is left as it is, and a symbolic link on
/// the way is an error, so nothing outside `dir` is ever removed.
pub fn remove_inside(dir: &Path, relative: &str) -> Result<(), String> {
    let Some(path) = inside(dir, relative, false)? else {
        return Ok(());
    };
    match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.file_type().is_file() => std::fs::remove_file(&path)
            .map_err(|err| format!("{}: cannot remove: {err}", path.display())),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `relative` (components separated by `/`) inside `dir`, creating
/// the folders on the way. Every folder on the way and the file itself must be a real
/// folder or file (or missing): a symbolic link among them is refused by name, so
/// nothing outside `dir` is written whatever links the folder holds.
pub fn write_inside(dir: &Path, relative: &str, bytes: &[u8]) -> Result<(), String> {
    let Some(path) = inside(dir, relative, true)? else {
        return Err(format!("{relative:?} is not a file name"));
    };
    match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.file_type().is_symlink() => return Err(refused_link(&path)),
        Ok(meta) if !meta.is_file() => {
            return Err(format!(
                "{} exists and is not a regular file: the export does not replace it",
                path.display()
            ));
        }
        _ => {}
    }
    std::fs::write(&path, bytes).map_err(|err| format!("{}: cannot write: {err}", path.display()))
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn links_inside_the_folder_are_refused_and_nothing_outside_changes() {
        let root = tempfile::tempdir().unwrap();
        let victim = root.path().join("victim.txt");
        std::fs::write(&victim, "keep").unwrap();
        let out = root.path().join("out");
        std::fs::create_dir(&out).unwrap();
        symlink(&victim, out.join("index.html")).unwrap();
        let err = write_inside(&out, "index.html", b"page").unwrap_err();
        assert!(err.ends_with("index.html is a symbolic link: an export writes only inside its folder and follows no link (remove the link, or export elsewhere)"), "{err}");
        let elsewhere = root.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        symlink(&elsewhere, out.join("assets")).unwrap();
        let err = write_inside(&out, "assets/app.js", b"js").unwrap_err();
        assert!(err.contains("assets is a symbolic link"), "{err}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        write_inside(&out, "schemas/a.json", b"{}").unwrap();
        assert_eq!(std::fs::read(out.join("schemas/a.json")).unwrap(), b"{}");
    }

    #[test]
    fn a_file_or_a_dangling_link_as_the_folder_is_named() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let err = prepare_folder(&file, true).unwrap_err();
        assert!(
            err.ends_with("file exists and is not a folder: export into a new or empty folder"),
            "{err}"
        );
        let dangling = root.path().join("dangling");
        symlink(root.path().join("missing"), &dangling).unwrap();
        let err = prepare_folder(&dangling, true).unwrap_err();
        assert!(err.contains("is a symbolic link to nothing"), "{err}");
        assert!(!root.path().join("missing").exists());
        let full = root.path().join("full");
        std::fs::create_dir(&full).unwrap();
        std::fs::write(full.join("x"), "x").unwrap();
        assert!(
            prepare_folder(&full, false)
                .unwrap_err()
                .contains("is not empty")
        );
        prepare_folder(&full, true).unwrap();
        prepare_folder(&root.path().join("new/deeper"), false).unwrap();
        assert!(root.path().join("new/deeper").is_dir());
    }
}
