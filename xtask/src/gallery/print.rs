//! Printing: one row per entry, then the summary.

use super::*;

/// `names` joined with `, ` in lines of at most [`NAMES_WIDTH`] characters.
pub(super) fn wrap(names: &[String]) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for (i, name) in names.iter().enumerate() {
        let piece = if i + 1 < names.len() {
            format!("{name},")
        } else {
            name.clone()
        };
        if !line.is_empty() && line.len() + 1 + piece.len() > NAMES_WIDTH {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

pub(super) fn print_row(bug: &Bug, row: &Row, id_width: usize, area_width: usize) {
    let (status, detail) = match &row.verdict {
        Verdict::Caught(names, ..) => ("caught", wrap(names)),
        Verdict::Survived => ("SURVIVED", vec!["no check caught it".to_owned()]),
        Verdict::Stale(message) => ("STALE", vec![message.clone()]),
        Verdict::Error(message) => ("ERROR", vec![message.clone()]),
        Verdict::Inert(message) => ("INERT", vec![message.clone()]),
    };
    let caught = match &row.verdict {
        Verdict::Caught(names, ..) => names.len().to_string(),
        _ => "-".to_owned(),
    };
    let prefix = format!(
        "{status:<8}  {:<id_width$}  {:<area_width$}  {:>5.1}s  {caught:>2}  ",
        bug.id, bug.area, row.seconds
    );
    let indent = " ".repeat(prefix.len());
    for (i, line) in detail.iter().enumerate() {
        if i == 0 {
            println!("{prefix}{line}");
        } else {
            println!("{indent}{line}");
        }
    }
}

pub(super) fn summarise(
    gallery: &Gallery,
    context: &Context,
    chosen: &[&Bug],
    rows: &[Row],
    started: Instant,
) -> Result<(), String> {
    let mut caught = 0;
    let mut survived = Vec::new();
    let mut problems = Vec::new();
    let mut catches: BTreeMap<&str, usize> = BTreeMap::new();
    let mut beyond_core_only = Vec::new();
    let mut by_timeout = Vec::new();
    for (bug, row) in chosen.iter().zip(rows) {
        match &row.verdict {
            Verdict::Caught(names, beyond, _, timed_out) => {
                caught += 1;
                if !timed_out.is_empty() {
                    by_timeout.push(format!("{} ({})", bug.id, timed_out.join(", ")));
                }
                if beyond.len() == names.len() {
                    beyond_core_only.push(format!("{} ({})", bug.id, beyond.join(", ")));
                }
                for name in names {
                    *catches.entry(name.as_str()).or_default() += 1;
                }
            }
            Verdict::Survived => survived.push(*bug),
            Verdict::Stale(message) => problems.push(message.clone()),
            Verdict::Error(message) => problems.push(format!("bug {}: {message}", bug.id)),
            Verdict::Inert(message) => problems.push(format!("bug {}: refused: {message}", bug.id)),
        }
    }
    let elapsed = started.elapsed().as_secs();
    let liars = chosen
        .iter()
        .filter(|b| matches!(b.plant, Plant::Liar { .. }))
        .count();
    let strongest: Vec<String> = strongest(&catches)
        .iter()
        .map(|(name, n)| format!("{name} ({n})"))
        .collect();
    if !strongest.is_empty() {
        println!(
            "\nthe checks that caught the most: {}",
            strongest.join(", ")
        );
    }
    let off_spec: Vec<bool> = chosen
        .iter()
        .zip(rows)
        .filter(|(bug, _)| bug.off_spec)
        .map(|(_, row)| matches!(row.verdict, Verdict::Caught(..)))
        .collect();
    if !off_spec.is_empty() {
        println!(
            "right on every input the spec's cases hold (off_spec): {} of {} caught",
            off_spec.iter().filter(|caught| **caught).count(),
            off_spec.len()
        );
    }
    // Every class is required (`--require all`), so these are caught. Under
    // `--every-check` the core checks alone would not catch them; otherwise a run stops
    // at its first failed check, and only the checks up to it are known.
    let label = if context.fail_fast != FailFast::Off {
        "caught first by interop or hardening checks (whether a core check catches them too: --every-check)"
    } else {
        "caught only by interop or hardening checks"
    };
    if beyond_core_only.is_empty() {
        println!("{label}: none");
    } else {
        println!(
            "{label} ({}): {}",
            beyond_core_only.len(),
            beyond_core_only.join("; ")
        );
    }
    // A check that failed only by a timeout judged the machine's speed, not the
    // answers: named, so that a catch which rests on it is seen (and not swept as
    // fixed).
    if !by_timeout.is_empty() {
        println!(
            "checks that failed only by the adapter's silence past --timeout ({}): {}",
            by_timeout.len(),
            by_timeout.join("; ")
        );
    }
    println!();
    for bug in &survived {
        println!(
            "{} survived: no check caught it ({})",
            bug.id, bug.description
        );
    }
    for problem in &problems {
        println!("{problem}");
    }
    println!(
        "{} gallery: {} of {} ({}, {}) against {} checks: {caught} caught, \
         {} survived, {} stale, broken or refused; total time {}m {:02}s",
        context.kind.name,
        chosen.len(),
        gallery.bugs.len(),
        plural(chosen.len() - liars, "planted bug", "planted bugs"),
        plural(liars, "liar", "liars"),
        context.total,
        survived.len(),
        problems.len(),
        elapsed / 60,
        elapsed % 60
    );
    if survived.is_empty() && problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} survived, {} stale, broken or refused, of {}",
            survived.len(),
            problems.len(),
            plural(
                chosen.len(),
                "planted bug or liar",
                "planted bugs and liars"
            )
        ))
    }
}

/// `1 bug`, `2 bugs`.
pub(super) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The five checks that caught the most bugs, most first.
pub(super) fn strongest<'a>(catches: &BTreeMap<&'a str, usize>) -> Vec<(&'a str, usize)> {
    let mut all: Vec<(&str, usize)> = catches.iter().map(|(name, n)| (*name, *n)).collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    all.truncate(5);
    all
}
