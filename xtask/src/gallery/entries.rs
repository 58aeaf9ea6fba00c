//! Loading a gallery's `bugs.json`: every entry checked (keys, ids, patches, liar modes,
//! probes) before anything runs.

use super::*;

pub(super) fn text(value: &Value, key: &str, at: &str) -> Result<String, String> {
    match value.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
        _ => Err(format!("{at}: `{key}` must be a non-empty string")),
    }
}

pub(super) fn count(value: &Value, key: &str) -> Result<usize, String> {
    value
        .get(key)
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("`{key}` must be a non-negative integer"))
}

pub(super) fn only_keys(value: &Value, allowed: &[&str], at: &str) -> Result<(), String> {
    let Some(object) = value.as_object() else {
        return Err(format!("{at}: expected an object"));
    };
    match object.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(format!(
            "{at}: unknown key `{key}` (known: {})",
            allowed.join(", ")
        )),
        None => Ok(()),
    }
}

pub(super) fn edit(value: &Value, at: &str) -> Result<Edit, String> {
    only_keys(value, &["file", "find", "replace"], at)?;
    let file = text(value, "file", at)?;
    if file.starts_with('/') || file.split('/').any(|part| part == "..") {
        return Err(format!(
            "{at}: `file` must be a path inside the implementation's folder, got {file:?}"
        ));
    }
    let find = text(value, "find", at)?;
    let replace = match value.get("replace") {
        Some(Value::String(s)) => s.clone(),
        _ => return Err(format!("{at}: `replace` must be a string")),
    };
    if replace == find {
        return Err(format!("{at}: `replace` equals `find`: nothing is planted"));
    }
    Ok(Edit {
        file,
        find,
        replace,
    })
}

pub(super) fn probe(value: &Value, at: &str) -> Result<Probe, String> {
    let at = format!("{at}, probe");
    only_keys(value, &["request", "pick", "answer"], &at)?;
    let request = match value.get("request") {
        Some(Value::Object(object)) if !object.contains_key("id") => Value::Object(object.clone()),
        Some(Value::String(line))
            if line.matches(PROBE_ID).count() == 1 && !line.contains(['\n', '\r']) =>
        {
            Value::String(line.clone())
        }
        _ => {
            return Err(format!(
                "{at}: `request` must be an adapter request without `id` (the gallery gives it \
                 one), or the exact request line as a string holding `{PROBE_ID}` once (where \
                 the gallery writes its id) and no line break"
            ));
        }
    };
    let pick = text(value, "pick", &at)?;
    if !pick.starts_with('/') {
        return Err(format!(
            "{at}: `pick` must be a JSON pointer into the response (`/result/...`), got {pick:?}"
        ));
    }
    let Some(answer) = value.get("answer") else {
        return Err(format!(
            "{at}: `answer` (what the clean implementation answers) is missing"
        ));
    };
    Ok(Probe {
        request,
        pick,
        answer: answer.clone(),
    })
}

pub(super) fn bug(
    value: &Value,
    index: usize,
    modes: &[String],
    kind: &Kind,
) -> Result<Bug, String> {
    let at = format!("bugs[{index}]");
    only_keys(
        value,
        &[
            "id",
            "area",
            "description",
            "file",
            "find",
            "replace",
            "edits",
            "liar",
            "probe",
            "off_spec",
        ],
        &at,
    )?;
    let id = text(value, "id", &at)?;
    let at = format!("bug {id}");
    if !id
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(format!("{at}: an id is lowercase letters, digits and `-`"));
    }
    let area = text(value, "area", &at)?;
    let description = text(value, "description", &at)?;
    if description.contains('\n') {
        return Err(format!("{at}: `description` must be one line"));
    }
    let has = |key: &str| value.get(key).is_some();
    let plant = match (
        has("file") || has("find") || has("replace"),
        has("edits"),
        has("liar"),
    ) {
        (true, false, false) => {
            let mut single = serde_json::Map::new();
            for key in ["file", "find", "replace"] {
                if let Some(v) = value.get(key) {
                    single.insert(key.to_owned(), v.clone());
                }
            }
            Plant::Patch(vec![edit(&Value::Object(single), &at)?])
        }
        (false, true, false) => {
            let Some(edits) = value.get("edits").and_then(Value::as_array) else {
                return Err(format!("{at}: `edits` must be an array"));
            };
            if edits.is_empty() {
                return Err(format!("{at}: `edits` is empty"));
            }
            Plant::Patch(
                edits
                    .iter()
                    .enumerate()
                    .map(|(i, e)| edit(e, &format!("{at}, edits[{i}]")))
                    .collect::<Result<_, _>>()?,
            )
        }
        (false, false, true) => {
            let liar = value.get("liar").unwrap_or(&Value::Null);
            let at = format!("{at}, liar");
            only_keys(liar, &["mode", "command"], &at)?;
            let mode = text(liar, "mode", &at)?;
            if !modes.contains(&mode) {
                return Err(format!(
                    "{at}: unknown mode {mode:?}; {LIAR} knows {}",
                    modes.join(", ")
                ));
            }
            Plant::Liar {
                mode,
                command: text(liar, "command", &at)?,
            }
        }
        _ => {
            return Err(format!(
                "{at}: give exactly one of a patch (`file`, `find`, `replace`), `edits`, or `liar`"
            ));
        }
    };
    let probe = match value.get("probe") {
        Some(p) => Some(probe(p, &at)?),
        None if kind.probes => {
            return Err(format!(
                "{at}: every entry of this gallery carries a `probe` (the request that shows it changes an answer)"
            ));
        }
        None => None,
    };
    let off_spec = match value.get("off_spec") {
        None => false,
        Some(Value::Bool(flag)) => *flag,
        Some(_) => return Err(format!("{at}: `off_spec` must be true or false")),
    };
    Ok(Bug {
        id,
        area,
        description,
        plant,
        probe,
        off_spec,
    })
}

/// The modes `liar.py --modes` knows.
pub(super) fn liar_modes(root: &Path) -> Result<Vec<String>, String> {
    let output = Command::new("python3")
        .arg(root.join(LIAR))
        .arg("--modes")
        .output()
        .map_err(|e| format!("cannot run python3 {LIAR} --modes: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "python3 {LIAR} --modes failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect())
}

/// Loads and checks a gallery's `bugs.json`.
pub(super) fn load(root: &Path, kind: &Kind) -> Result<Gallery, String> {
    load_entries(root, kind).map_err(|message| format!("{}: {message}", kind.bugs_file))
}

pub(super) fn load_entries(root: &Path, kind: &Kind) -> Result<Gallery, String> {
    let path = root.join(kind.bugs_file);
    let raw = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let value: Value = serde_json::from_str(&raw).map_err(|e| format!("not JSON: {e}"))?;
    only_keys(
        &value,
        &["about", "bug_count", "liar_count", "bugs"],
        "top level",
    )?;
    let declared = count(&value, "bug_count")?;
    let declared_liars = count(&value, "liar_count")?;
    let Some(entries) = value.get("bugs").and_then(Value::as_array) else {
        return Err("`bugs` must be an array".to_owned());
    };
    let modes = liar_modes(root)?;
    let bugs: Vec<Bug> = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| bug(entry, index, &modes, kind))
        .collect::<Result<_, _>>()?;
    if bugs.len() != declared {
        return Err(format!(
            "bug_count is {declared} but the file lists {} bugs (planted bugs and liars)",
            bugs.len()
        ));
    }
    let liars = bugs
        .iter()
        .filter(|b| matches!(b.plant, Plant::Liar { .. }))
        .count();
    if liars != declared_liars {
        return Err(format!(
            "liar_count is {declared_liars} but the file lists {liars} liars"
        ));
    }
    let mut seen = BTreeSet::new();
    if let Some(repeated) = bugs.iter().find(|b| !seen.insert(b.id.as_str())) {
        return Err(format!("the id {} repeats", repeated.id));
    }
    Ok(Gallery { bugs })
}
