//! `cargo xtask gallery faithful [FILTER]`: the gallery of faithful variants, the suite
//! proving its fairness as the planted-bug galleries prove its power.
//!
//! `gallery/python/faithful.json` lists variants of the Python implementation, each a
//! small patch standing for a reading the sources allow where they are silent or loose
//! (its `reading`, and the `source` passage that leaves the choice open;
//! `gallery/python/FAITHFUL.md` says more). Each runs through the whole suite, and the
//! report's `class` of every check judges it:
//!
//! * it passes every `core` check (what the sources state) and every `adapter` check
//!   (the wire): else the suite is unfair to the reading;
//! * it fails every check its `differs_in` lists, each an `interop` (or `hardening`)
//!   check: a listed check that passes means the profile does not pin the reading;
//! * it fails no check `differs_in` does not list, except those `may_differ_in` lists:
//!   generated checks that catch the reading only on some seeds' inputs (a variant
//!   that differs on a few inputs of a domain is caught on the seeds that draw one).
//!
//! The unpatched implementation, in a fresh copy, must first pass every check of every
//! class, and the report must give every check a class, or the gallery means nothing.

use super::*;

/// The variants, relative to the repository root.
pub(super) const FAITHFUL_FILE: &str = "gallery/python/faithful.json";
/// The name that selects this gallery (`cargo xtask gallery faithful`).
pub(super) const FAITHFUL: &str = "faithful";
/// The protocols a variant may name.
const PROTOCOLS: [&str; 2] = ["doc-membership-v1", "fnv1a-utf16-v1"];
/// The classes of checks the report may give.
const CLASSES: [&str; 4] = ["core", "interop", "hardening", "adapter"];
/// The classes a variant must pass whatever it chose.
const REQUIRED: [&str; 2] = ["core", "adapter"];

/// One faithful variant of `faithful.json`.
pub(super) struct Variant {
    pub(super) id: String,
    area: String,
    edits: Vec<Edit>,
    /// The checks (`<group>/<name>`) it must fail.
    differs_in: Vec<String>,
    /// The checks it may fail or pass (generated checks, by the seed's inputs).
    may_differ_in: Vec<String>,
}

/// Loads and checks `faithful.json`: keys, ids, counts, patches, `differs_in`.
pub(super) fn load(root: &Path) -> Result<Vec<Variant>, String> {
    let path = root.join(FAITHFUL_FILE);
    let raw = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&raw).map_err(|message| format!("{FAITHFUL_FILE}: {message}"))
}

/// Reads the text of `faithful.json`.
pub(super) fn parse(raw: &str) -> Result<Vec<Variant>, String> {
    let value: Value = serde_json::from_str(raw).map_err(|e| format!("not JSON: {e}"))?;
    only_keys(&value, &["about", "variant_count", "variants"], "top level")?;
    text(&value, "about", "top level")?;
    let declared = count(&value, "variant_count")?;
    let Some(entries) = value.get("variants").and_then(Value::as_array) else {
        return Err("`variants` must be an array".to_owned());
    };
    let variants: Vec<Variant> = entries
        .iter()
        .enumerate()
        .map(|(index, entry)| variant(entry, index))
        .collect::<Result<_, _>>()?;
    if variants.len() != declared {
        return Err(format!(
            "variant_count is {declared} but the file lists {} variants",
            variants.len()
        ));
    }
    let mut seen = BTreeSet::new();
    if let Some(repeated) = variants.iter().find(|v| !seen.insert(v.id.as_str())) {
        return Err(format!("the id {} repeats", repeated.id));
    }
    Ok(variants)
}

/// One line of text, non-empty.
fn line(value: &Value, key: &str, at: &str) -> Result<String, String> {
    let text = text(value, key, at)?;
    if text.contains('\n') {
        return Err(format!("{at}: `{key}` must be one line"));
    }
    Ok(text)
}

fn variant(value: &Value, index: usize) -> Result<Variant, String> {
    let at = format!("variants[{index}]");
    only_keys(
        value,
        &[
            "id",
            "protocol",
            "area",
            "reading",
            "source",
            "edits",
            "differs_in",
            "may_differ_in",
        ],
        &at,
    )?;
    let id = text(value, "id", &at)?;
    if !id
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(format!(
            "{at}: an id is lowercase letters, digits and `-`, got {id:?}"
        ));
    }
    let at = format!("variant {id}");
    let protocol = text(value, "protocol", &at)?;
    if !PROTOCOLS.contains(&protocol.as_str()) {
        return Err(format!(
            "{at}: unknown protocol {protocol:?} (known: {})",
            PROTOCOLS.join(", ")
        ));
    }
    let area = line(value, "area", &at)?;
    line(value, "reading", &at)?;
    line(value, "source", &at)?;
    let edits = match value.get("edits").and_then(Value::as_array) {
        Some(edits) if !edits.is_empty() => edits
            .iter()
            .enumerate()
            .map(|(i, e)| edit(e, &format!("{at}, edits[{i}]")))
            .collect::<Result<Vec<_>, _>>()?,
        _ => return Err(format!("{at}: `edits` must be a non-empty array")),
    };
    let differs_in = names(value.get("differs_in"), "differs_in", &at, &[])?;
    if differs_in.is_empty() {
        return Err(format!(
            "{at}: `differs_in` is empty: a variant differs in at least one interop check \
             (if none catches it, the profile does not pin the reading)"
        ));
    }
    let may_differ_in = match value.get("may_differ_in") {
        None => Vec::new(),
        given => names(given, "may_differ_in", &at, &differs_in)?,
    };
    Ok(Variant {
        id,
        area,
        edits,
        differs_in,
        may_differ_in,
    })
}

/// The check names of `key`: an array of distinct `<group>/<name>` strings, none of
/// them in `taken` (the names another list holds).
fn names(
    value: Option<&Value>,
    key: &str,
    at: &str,
    taken: &[String],
) -> Result<Vec<String>, String> {
    let Some(listed) = value.and_then(Value::as_array) else {
        return Err(format!("{at}: `{key}` must be an array of check names"));
    };
    let mut names: Vec<String> = Vec::new();
    for (i, name) in listed.iter().enumerate() {
        let Some(name) = name.as_str().filter(|n| n.contains('/')) else {
            return Err(format!(
                "{at}, {key}[{i}]: a check name is `<group>/<name>`, got {name}"
            ));
        };
        if names.iter().chain(taken).any(|n| n == name) {
            return Err(format!("{at}: {name} is listed twice"));
        }
        names.push(name.to_owned());
    }
    Ok(names)
}

/// One check of a report: its full name (`<group>/<name>`), class and whether it failed.
pub(super) struct Judged {
    name: String,
    class: String,
    failed: bool,
}

/// The checks of a runner's JSON report, each with its class (a check without one, or
/// with a class this task does not know, is an error).
pub(super) fn checks_of(report: &Value) -> Result<Vec<Judged>, String> {
    let Some(checks) = report.get("checks").and_then(Value::as_array) else {
        return Err("the runner's report has no `checks` array".to_owned());
    };
    checks
        .iter()
        .map(|check| {
            let field = |key: &str| check.get(key).and_then(Value::as_str).unwrap_or("?");
            let name = format!("{}/{}", field("protocol"), field("name"));
            let class = match check.get("class").and_then(Value::as_str) {
                Some(class) if CLASSES.contains(&class) => class.to_owned(),
                Some(class) => {
                    return Err(format!(
                        "the report gives check {name} the unknown class {class:?} (known: {})",
                        CLASSES.join(", ")
                    ));
                }
                None => {
                    return Err(format!(
                        "the report gives check {name} no `class`: the faithful gallery judges \
                         each check by its class (core, interop, hardening, adapter)"
                    ));
                }
            };
            let failed = check
                .get("failures")
                .and_then(Value::as_array)
                .is_none_or(|failures| !failures.is_empty());
            Ok(Judged {
                name,
                class,
                failed,
            })
        })
        .collect()
}

/// What is wrong with a variant, judged by the checks of its report: empty when it
/// passes every core and adapter check, fails every check of `differs_in` and no
/// other check but those of `may_differ_in`.
pub(super) fn judge(
    differs_in: &[String],
    may_differ_in: &[String],
    checks: &[Judged],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (name, must_fail) in differs_in
        .iter()
        .map(|n| (n, true))
        .chain(may_differ_in.iter().map(|n| (n, false)))
    {
        match checks.iter().find(|c| &c.name == name) {
            None => problems.push(format!(
                "lists {name}, which the suite does not hold (renamed or removed?)"
            )),
            Some(check) if REQUIRED.contains(&check.class.as_str()) => problems.push(format!(
                "lists {name}, a {} check: a faithful variant must pass it",
                check.class
            )),
            Some(check) if must_fail && !check.failed => problems.push(format!(
                "passes {name}, which it lists: the profile does not pin this reading"
            )),
            Some(_) => {}
        }
    }
    for check in checks.iter().filter(|c| c.failed) {
        if differs_in.contains(&check.name) || may_differ_in.contains(&check.name) {
            continue;
        }
        problems.push(if REQUIRED.contains(&check.class.as_str()) {
            format!(
                "fails {} check {}: the suite is unfair to this reading",
                check.class, check.name
            )
        } else {
            format!(
                "fails {} check {}, which differs_in does not list",
                check.class, check.name
            )
        });
    }
    problems
}

/// The verdict on one variant: its failing checks and what is wrong (empty: faithful).
enum Outcome {
    Judged {
        failed: Vec<String>,
        problems: Vec<String>,
    },
    Error(String),
}

fn run_variant(context: &Context, index: usize, variant: &Variant) -> (Outcome, f64) {
    let started = Instant::now();
    let id = format!("variant {}", variant.id);
    let outcome = patch(&context.root, context.kind.dir, &id, &variant.edits)
        .and_then(|files| impl_copy(context, &format!("faithful-{index}"), &files))
        .and_then(|(_dir, command)| report(context, &command, None))
        .and_then(|report| checks_of(&report))
        .map_or_else(Outcome::Error, |checks| Outcome::Judged {
            failed: checks
                .iter()
                .filter(|c| c.failed)
                .map(|c| c.name.clone())
                .collect(),
            problems: judge(&variant.differs_in, &variant.may_differ_in, &checks),
        });
    (outcome, started.elapsed().as_secs_f64())
}

/// Runs the faithful gallery (the variants whose id contains `filter`, when given).
pub(super) fn run_faithful(context: &Context, filter: Option<&str>) -> Result<(), String> {
    let started = Instant::now();
    let variants = load(&context.root)?;
    let chosen: Vec<&Variant> = variants
        .iter()
        .filter(|v| filter.is_none_or(|f| v.id.contains(f)))
        .collect();
    if chosen.is_empty() {
        println!("\n==> faithful gallery: no variant id contains {filter:?}");
        return Ok(());
    }
    println!(
        "\n==> faithful gallery: {FAITHFUL_FILE} (readings the sources allow, as patches to fresh copies of {})",
        context.kind.dir
    );
    println!("==> control: the unpatched implementation must pass every check of every class");
    let control = impl_copy(context, "faithful-control", &[])
        .and_then(|(_dir, command)| report(context, &command, None))
        .and_then(|report| checks_of(&report))?;
    let failing: Vec<&str> = control
        .iter()
        .filter(|c| c.failed)
        .map(|c| c.name.as_str())
        .collect();
    if !failing.is_empty() {
        return Err(format!(
            "the unpatched implementation fails {}: the faithful gallery is meaningless until it passes every check",
            failing.join(", ")
        ));
    }
    println!(
        "ok        the unpatched implementation: {} checks passed",
        control.len()
    );
    println!(
        "\n==> faithful gallery: {} ({JOBS} at a time), each must pass every core and adapter check \
         and fail exactly the checks it lists\n",
        plural(chosen.len(), "variant", "variants")
    );
    let id_width = chosen.iter().map(|v| v.id.len()).fold(7, usize::max);
    let area_width = chosen.iter().map(|v| v.area.len()).fold(4, usize::max);
    println!(
        "{:<8}  {:<id_width$}  {:<area_width$}  {:>6}  checks it fails",
        "verdict", "variant", "area", "time"
    );
    let rows = parallel(
        JOBS,
        &chosen,
        |index, variant| run_variant(context, index, variant),
        |index, (outcome, seconds)| {
            if let Some(variant) = chosen.get(index) {
                print_variant(variant, outcome, *seconds, id_width, area_width);
            }
        },
    );
    let wrong: Vec<String> = chosen
        .iter()
        .zip(&rows)
        .filter_map(|(variant, (outcome, _))| match outcome {
            Outcome::Judged { problems, .. } if problems.is_empty() => None,
            Outcome::Judged { problems, .. } => {
                Some(format!("variant {}: {}", variant.id, problems.join("; ")))
            }
            Outcome::Error(message) => Some(format!("variant {}: {message}", variant.id)),
        })
        .collect();
    let elapsed = started.elapsed().as_secs();
    println!();
    for line in &wrong {
        println!("{line}");
    }
    println!(
        "faithful gallery: {} of {} variants against {} checks: {} faithful as listed, {} wrong; \
         total time {}m {:02}s",
        chosen.len(),
        variants.len(),
        control.len(),
        chosen.len() - wrong.len(),
        wrong.len(),
        elapsed / 60,
        elapsed % 60
    );
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} of {} faithful variants are not judged as listed (unfair core or adapter checks, \
             unpinned readings, unlisted differences or errors)",
            wrong.len(),
            chosen.len()
        ))
    }
}

fn print_variant(
    variant: &Variant,
    outcome: &Outcome,
    seconds: f64,
    id_width: usize,
    area_width: usize,
) {
    let (status, mut lines) = match outcome {
        Outcome::Judged { failed, problems } => (
            if problems.is_empty() {
                "faithful"
            } else {
                "WRONG"
            },
            wrap(failed),
        ),
        Outcome::Error(message) => ("ERROR", vec![message.clone()]),
    };
    if let Outcome::Judged { problems, .. } = outcome {
        lines.extend(problems.iter().map(|p| format!("! {p}")));
    }
    let prefix = format!(
        "{status:<8}  {:<id_width$}  {:<area_width$}  {seconds:>5.1}s  ",
        variant.id, variant.area
    );
    let indent = " ".repeat(prefix.len());
    for (i, line) in lines.iter().enumerate() {
        println!("{}{line}", if i == 0 { &prefix } else { &indent });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checks(rows: &[(&str, &str, bool)]) -> Vec<Judged> {
        let report = serde_json::json!({
            "checks": rows.iter().map(|(name, class, failed)| {
                let (protocol, name) = name.split_once('/').unwrap_or(("?", name));
                serde_json::json!({
                    "protocol": protocol, "name": name, "class": class,
                    "failures": if *failed { vec![serde_json::json!({"case": "c"})] } else { vec![] },
                })
            }).collect::<Vec<_>>()
        });
        checks_of(&report).unwrap_or_default()
    }

    fn listed(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    const SUITE: [(&str, &str, bool); 4] = [
        ("p/core_check", "core", false),
        ("p/interop_check", "interop", true),
        ("p/other_interop", "interop", false),
        ("adapter-protocol/wire", "adapter", false),
    ];

    #[test]
    fn a_variant_failing_exactly_its_listed_interop_checks_is_faithful() {
        assert!(judge(&listed(&["p/interop_check"]), &[], &checks(&SUITE)).is_empty());
    }

    #[test]
    fn a_variant_failing_a_core_or_adapter_check_is_reported_unfair() {
        for (failing, class) in [
            ("p/core_check", "core"),
            ("adapter-protocol/wire", "adapter"),
        ] {
            let suite: Vec<_> = SUITE
                .iter()
                .map(|&(n, c, f)| (n, c, f || n == failing))
                .collect();
            let problems = judge(&listed(&["p/interop_check"]), &[], &checks(&suite));
            assert_eq!(
                problems,
                [format!(
                    "fails {class} check {failing}: the suite is unfair to this reading"
                )]
            );
        }
    }

    #[test]
    fn a_listed_check_that_passes_is_reported_unpinned() {
        let problems = judge(
            &listed(&["p/interop_check", "p/other_interop"]),
            &[],
            &checks(&SUITE),
        );
        assert_eq!(
            problems,
            ["passes p/other_interop, which it lists: the profile does not pin this reading"]
        );
    }

    #[test]
    fn an_unlisted_failure_a_listed_core_check_and_an_unknown_name_are_reported() {
        let suite: Vec<_> = SUITE
            .iter()
            .map(|&(n, c, f)| (n, c, f || n == "p/other_interop"))
            .collect();
        let problems = judge(
            &listed(&["p/interop_check", "p/core_check", "p/gone"]),
            &[],
            &checks(&suite),
        );
        assert_eq!(
            problems,
            [
                "lists p/core_check, a core check: a faithful variant must pass it",
                "lists p/gone, which the suite does not hold (renamed or removed?)",
                "fails interop check p/other_interop, which differs_in does not list",
            ]
        );
    }

    #[test]
    fn a_check_the_variant_may_differ_in_may_pass_or_fail_but_not_be_core() {
        for other_fails in [false, true] {
            let suite: Vec<_> = SUITE
                .iter()
                .map(|&(n, c, f)| (n, c, f || (other_fails && n == "p/other_interop")))
                .collect();
            let problems = judge(
                &listed(&["p/interop_check"]),
                &listed(&["p/other_interop"]),
                &checks(&suite),
            );
            assert!(problems.is_empty(), "{problems:?}");
        }
        let problems = judge(
            &listed(&["p/interop_check"]),
            &listed(&["p/core_check"]),
            &checks(&SUITE),
        );
        assert_eq!(
            problems,
            ["lists p/core_check, a core check: a faithful variant must pass it"]
        );
    }

    #[test]
    fn a_report_without_a_class_or_with_an_unknown_one_is_refused() {
        let none = serde_json::json!({"checks": [{"protocol": "p", "name": "x", "failures": []}]});
        let message = checks_of(&none).err().unwrap_or_default();
        assert!(message.contains("check p/x no `class`"), "{message}");
        let odd = serde_json::json!({"checks": [{"protocol": "p", "name": "x", "class": "profile", "failures": []}]});
        let message = checks_of(&odd).err().unwrap_or_default();
        assert!(message.contains("unknown class \"profile\""), "{message}");
    }

    fn file(variant: &str) -> String {
        format!(r#"{{"about": "a", "variant_count": 1, "variants": [{variant}]}}"#)
    }

    const GOOD: &str = r#"{"id": "v", "protocol": "fnv1a-utf16-v1", "area": "a", "reading": "r",
        "source": "s", "edits": [{"file": "f.py", "find": "x", "replace": "y"}], "differs_in": ["p/c"]}"#;

    #[test]
    fn the_file_is_read_strictly() {
        assert!(parse(&file(GOOD)).is_ok_and(|v| v.len() == 1));
        let unknown = GOOD.replace(r#""area""#, r#""kind": "faithful", "area""#);
        let cases = [
            (file(&unknown), "unknown key `kind`"),
            (
                file(&format!("{GOOD}, {GOOD}"))
                    .replace(r#""variant_count": 1"#, r#""variant_count": 2"#),
                "the id v repeats",
            ),
            (
                file(GOOD).replace(r#""variant_count": 1"#, r#""variant_count": 2"#),
                "variant_count is 2",
            ),
            (
                file(&GOOD.replace(r#"["p/c"]"#, "[]")),
                "`differs_in` is empty",
            ),
            (
                file(&GOOD.replace(r#"["p/c"]"#, r#"["p/c", "p/c"]"#)),
                "p/c is listed twice",
            ),
            (
                file(&GOOD.replace(
                    r#""differs_in""#,
                    r#""may_differ_in": ["p/c"], "differs_in""#,
                )),
                "p/c is listed twice",
            ),
            (
                file(&GOOD.replace(r#""differs_in""#, r#""may_differ_in": "p/d", "differs_in""#)),
                "`may_differ_in` must be an array",
            ),
            (
                file(&GOOD.replace(r#"["p/c"]"#, r#"["c"]"#)),
                "`<group>/<name>`",
            ),
            (
                file(&GOOD.replace("fnv1a-utf16-v1", "other")),
                "unknown protocol",
            ),
            (
                file(&GOOD.replace(r#""reading": "r""#, r#""reading": "r\nr""#)),
                "one line",
            ),
            (
                file(&GOOD.replace(
                    r#""edits": [{"file": "f.py", "find": "x", "replace": "y"}]"#,
                    r#""edits": []"#,
                )),
                "non-empty array",
            ),
            (
                file(GOOD).replace(r#""about": "a", "#, r#""about": "a", "extra": 1, "#),
                "unknown key `extra`",
            ),
        ];
        for (text, expected) in cases {
            let message = parse(&text).err().unwrap_or_default();
            assert!(message.contains(expected), "{expected}: {message}");
        }
    }

    #[test]
    fn the_repository_variants_load_and_their_patches_apply() {
        let root = crate::root();
        let loaded = load(&root);
        assert!(
            loaded.as_ref().is_ok_and(|v| v.len() >= 12),
            "{:?}",
            loaded.err()
        );
        let readme = std::fs::read_to_string(root.join("gallery/python/FAITHFUL.md"));
        let readme = readme.unwrap_or_default();
        for variant in loaded.iter().flatten() {
            let patched = patch(&root, "implementations/python", &variant.id, &variant.edits);
            assert!(patched.is_ok(), "{:?}", patched.err());
            let heading = format!("### `{}` (", variant.id);
            assert!(
                readme.contains(&heading),
                "FAITHFUL.md has no section {heading}"
            );
        }
    }
}
