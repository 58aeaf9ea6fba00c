//! Preparing a subject: a bug's patch applied in memory, or a liar's command.

use super::*;

/// Applies the edits of the entry `id` (a bug or a variant), in memory, to the current
/// files of the implementation's folder.
pub(super) fn patch(
    root: &Path,
    dir: &str,
    id: &str,
    edits: &[Edit],
) -> Result<Vec<(String, String)>, String> {
    let mut files: BTreeMap<&str, String> = BTreeMap::new();
    for edit in edits {
        let current = match files.remove(edit.file.as_str()) {
            Some(text) => text,
            None => {
                let path = root.join(dir).join(&edit.file);
                std::fs::read_to_string(&path).map_err(|e| {
                    format!("stale patch: {id}: cannot read {dir}/{}: {e}", edit.file)
                })?
            }
        };
        let found = current.matches(edit.find.as_str()).count();
        if found != 1 {
            return Err(format!(
                "stale patch: {id}: its find text occurs {found} times in {dir}/{} (it must occur exactly once): {:?}",
                edit.file, edit.find
            ));
        }
        files.insert(&edit.file, current.replacen(&edit.find, &edit.replace, 1));
    }
    Ok(files
        .into_iter()
        .map(|(file, text)| (file.to_owned(), text))
        .collect())
}

/// The `--impl` command of a liar: `python3 liar.py MODE -- COMMAND`, with a leading
/// `target/debug/bloomproof` in COMMAND replaced by the binary just built.
pub(super) fn liar_command(context: &Context, mode: &str, command: &str) -> String {
    let command = match command.strip_prefix(BINARY_WORD) {
        Some(rest) if rest.is_empty() || rest.starts_with(' ') => {
            format!("{}{rest}", shell_quote(&context.binary.to_string_lossy()))
        }
        _ => command.to_owned(),
    };
    format!(
        "{} {} {mode} -- {command}",
        shell_quote(&context.python),
        shell_quote(&context.root.join(LIAR).to_string_lossy())
    )
}

pub(super) fn prepare(context: &Context, bug: &Bug) -> Subject {
    match &bug.plant {
        Plant::Patch(edits) => match patch(
            &context.root,
            context.kind.dir,
            &format!("bug {}", bug.id),
            edits,
        ) {
            Ok(files) => Subject::Patched(files),
            Err(message) => Subject::Stale(message),
        },
        Plant::Liar { mode, command } => Subject::Liar(liar_command(context, mode, command)),
    }
}
