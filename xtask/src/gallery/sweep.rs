//! `--seeds N`: the seed sweep. Only the cases of shape `generated` draw inputs from
//! the seed (`bloomproof_conformance::generated::Generation::rng` keys each such case
//! by the seed and its id; every other case is the same on every run), so a catch with
//! a failure of another case holds on every seed, and a catch that rests on generated
//! inputs alone may not. Each entry of the second kind is run again at N - 1 more
//! seeds (the run's own seed is the first of the N), and fails the gallery unless it is
//! caught at every one of them.
//!
//! A sweep run is one conformance run of the entry at one seed, of the checks that hold
//! a generated case only (the other checks passed at the run's own seed, and their
//! cases are the same at any seed), selected by a filter every one of their full names
//! contains and no other check's does (`/generated_`); where no such filter exists,
//! the groups of checks run one at a time as in the gallery run.
//!
//! The adapter protocol's own cases are not in `cases.json`, and one of its checks
//! holds lines the seed draws (`bloomproof_conformance::spelled_requests`: request
//! spellings and near-misses). Their case ids are the same at every seed, so they are
//! read from that module: a catch by one of them is a catch by generated inputs, and a
//! sweep run holds that check too (a run of its own, after the generated checks').
//!
//! A sweep run first runs each check that caught the entry at the run's own seed
//! alone, and the whole filters only when those pass: the catch is the same (any
//! failing check at that seed), at a fraction of the runs' cost.

use super::*;

/// The cases of shape `generated` of every protocol's `cases.json` under `spec/`.
pub(super) struct Generated {
    /// `(protocol, case id)`.
    cases: BTreeSet<(String, String)>,
    /// The full names (`<protocol>/<check>`) of the checks that hold such a case.
    checks: BTreeSet<String>,
    /// The full names of every other check.
    others: BTreeSet<String>,
    /// The full names of the checks of `checks` that hold a case of another shape too.
    mixed: BTreeSet<String>,
    /// The full names of the checks outside `cases.json` that hold seed-drawn cases
    /// (the adapter protocol's spelled request lines), each swept by a run of its own.
    drawn: BTreeSet<String>,
}

/// The substring every generated check's full name is expected to hold.
const GENERATED_FILTER: &str = "/generated_";

impl Generated {
    /// Reads `spec/<protocol>/cases.json` of every protocol folder of `spec/`.
    pub(super) fn load(root: &Path) -> Result<Self, String> {
        let spec = root.join("spec");
        let mut folders: Vec<PathBuf> = std::fs::read_dir(&spec)
            .map_err(|e| format!("{}: {e}", spec.display()))?
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.join("cases.json").is_file())
            .collect();
        folders.sort();
        let mut files = Vec::new();
        for folder in folders {
            let path = folder.join("cases.json");
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let value: Value = serde_json::from_str(&text)
                .map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
            files.push(value);
        }
        if files.is_empty() {
            return Err(format!(
                "no spec/<protocol>/cases.json under {}",
                spec.display()
            ));
        }
        let mut generated = Self::from_files(&files);
        generated.add_drawn(
            bloomproof_wire::report::ADAPTER_GROUP,
            &bloomproof_conformance::spelled_requests::cases(0)
                .into_iter()
                .map(|case| (case.id, case.check))
                .collect::<Vec<_>>(),
        );
        Ok(generated)
    }

    /// Adds `cases` (`(id, check)`) of `protocol`, which the seed draws outside
    /// `cases.json`: each is a generated case, and each of their checks is swept.
    pub(super) fn add_drawn(&mut self, protocol: &str, cases: &[(String, String)]) {
        for (id, check) in cases {
            self.cases.insert((protocol.to_owned(), id.clone()));
            self.drawn.insert(format!("{protocol}/{check}"));
        }
    }

    /// The generated cases of parsed `cases.json` files.
    pub(super) fn from_files(files: &[Value]) -> Self {
        let mut cases = BTreeSet::new();
        let mut checks = BTreeSet::new();
        let mut fixed = BTreeSet::new();
        let mut all = BTreeSet::new();
        for file in files {
            let protocol = file.get("protocol").and_then(Value::as_str).unwrap_or("");
            for case in file
                .get("cases")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let id = case.get("id").and_then(Value::as_str).unwrap_or("");
                let check = case.get("check").and_then(Value::as_str).unwrap_or("");
                let full = format!("{protocol}/{check}");
                if case.get("shape").and_then(Value::as_str) == Some("generated") {
                    cases.insert((protocol.to_owned(), id.to_owned()));
                    checks.insert(full.clone());
                } else {
                    fixed.insert(full.clone());
                }
                all.insert(full);
            }
        }
        let others = all.difference(&checks).cloned().collect();
        let mixed = checks.intersection(&fixed).cloned().collect();
        Generated {
            cases,
            checks,
            others,
            mixed,
            drawn: BTreeSet::new(),
        }
    }

    /// Whether the case `id` of `protocol` draws generated inputs.
    pub(super) fn is_generated(&self, protocol: &str, id: &str) -> bool {
        self.cases.contains(&(protocol.to_owned(), id.to_owned()))
    }

    /// The filter that selects the check `name` (a bare name, as a report gives it)
    /// and no other: its full name, when exactly one check has that name and no other
    /// check's full name holds it.
    pub(super) fn alone(&self, name: &str) -> Option<String> {
        let all = || self.checks.iter().chain(&self.others).chain(&self.drawn);
        let suffix = format!("/{name}");
        let mut named = all().filter(|full| full.ends_with(&suffix));
        let full = named.next()?.clone();
        (named.next().is_none() && all().filter(|c| c.contains(full.as_str())).count() == 1)
            .then_some(full)
    }

    /// The `--skip` that leaves out exactly the checks of `cases.json` whose every case
    /// is generated ([`GENERATED_FILTER`]), when one does: every check whose full name
    /// contains it holds generated cases alone, and no other check's does.
    pub(super) fn skip(&self) -> Option<&'static str> {
        let exact = !self.checks.is_empty()
            && self.mixed.is_empty()
            && self.checks.iter().all(|c| c.contains(GENERATED_FILTER))
            && !self
                .others
                .iter()
                .chain(&self.drawn)
                .any(|c| c.contains(GENERATED_FILTER));
        exact.then_some(GENERATED_FILTER)
    }

    /// How many checks of `group` a `--skip` of `skip` leaves out (`skip` as
    /// [`Generated::skip`] gave it: then exactly the checks whose every case is generated).
    pub(super) fn skipped_in(&self, group: &str, skip: &str) -> usize {
        let prefix = format!("{group}/");
        self.checks
            .iter()
            .filter(|c| c.starts_with(&prefix) && c.contains(skip))
            .count()
    }

    /// The filters of a sweep run, each a run of its own, if they select exactly the
    /// checks that hold generated cases: [`GENERATED_FILTER`] for those of `cases.json`,
    /// then each drawn check's full name (which only it contains).
    pub(super) fn filters(&self) -> Option<Vec<String>> {
        let generated = !self.checks.is_empty()
            && self.checks.iter().all(|c| c.contains(GENERATED_FILTER))
            && !self.others.iter().any(|c| c.contains(GENERATED_FILTER));
        let drawn = self.drawn.iter().all(|d| {
            !d.contains(GENERATED_FILTER)
                && self
                    .checks
                    .iter()
                    .chain(&self.others)
                    .all(|c| c == d || !c.contains(d.as_str()))
        });
        (generated && drawn).then(|| {
            std::iter::once(GENERATED_FILTER.to_owned())
                .chain(self.drawn.iter().cloned())
                .collect()
        })
    }
}

/// The `count` seeds of a sweep from the run's seed `base`: `base` itself, then
/// splitmix64 of `base + i` for i = 1, 2, ..., each below 2^53 (as every seed is).
/// The same `base` gives the same seeds: `--seed base --seeds N` replays a sweep.
pub(super) fn sweep_seeds(base: u64, count: u32) -> Vec<u64> {
    let mut seeds = vec![base];
    for i in 1..u64::from(count) {
        let mut z = base.wrapping_add(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        seeds.push(z >> 11);
    }
    seeds
}

/// How one entry fared at one seed of the sweep.
enum Swept {
    Caught,
    Passed,
    Broken(String),
}

/// Sweeps the entries of `rows` caught by generated inputs alone over
/// [`Context::seeds`] seeds; fails naming each entry that one of them lets pass, with
/// those seeds.
pub(super) fn sweep(
    context: &Context,
    subjects: &[(&Bug, Subject)],
    rows: &[Row],
    id_width: usize,
) -> Result<(), String> {
    let started = Instant::now();
    let kind = context.kind.name;
    let seeds = sweep_seeds(context.seed, context.seeds);
    let swept: Vec<usize> = rows
        .iter()
        .enumerate()
        .filter(
            |(_, row)| matches!(&row.verdict, Verdict::Caught(_, _, fixed, _) if fixed.is_empty()),
        )
        .map(|(index, _)| index)
        .collect();
    let fixed = rows
        .iter()
        .filter(|row| matches!(&row.verdict, Verdict::Caught(_, _, fixed, _) if !fixed.is_empty()))
        .count();
    let filters = context.generated.filters();
    println!(
        "\n==> {kind} gallery: seed sweep over {} seeds: {} (the run's own seed first; \
         replay the sweep with --seed {} --seeds {})",
        seeds.len(),
        seeds
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        context.seed,
        context.seeds
    );
    println!(
        "{} caught by generated inputs alone, swept; {} caught by a case without generated \
         inputs (the same on every seed), not swept; each sweep run holds {}\n",
        plural(swept.len(), "entry", "entries"),
        fixed,
        match &filters {
            Some(f) => format!(
                "the checks with generated cases only (filters {}, in turn)",
                f.iter()
                    .map(|f| format!("{f:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None => "the suite's groups of checks in turn".to_owned(),
        }
    );
    // Each entry's sweep runs try first the checks that caught it at the run's own seed,
    // each alone (a cheap run that most often catches it again), then the whole filters.
    let first: Vec<Option<Vec<String>>> = rows
        .iter()
        .map(|row| {
            let Verdict::Caught(checks, ..) = &row.verdict else {
                return None;
            };
            let filters = filters.as_ref()?;
            let mut tried: Vec<String> = checks
                .iter()
                .filter_map(|name| context.generated.alone(name))
                .filter(|f| filters.iter().any(|g| f.contains(g.as_str())))
                .collect();
            tried.extend(filters.iter().cloned());
            Some(tried)
        })
        .collect();
    let jobs: Vec<(usize, u64)> = swept
        .iter()
        .flat_map(|&entry| seeds.iter().skip(1).map(move |&seed| (entry, seed)))
        .collect();
    let outcomes = parallel(
        JOBS,
        &jobs,
        |index, &(entry, seed)| {
            let mut at = context.clone();
            at.seed = seed;
            match subjects.get(entry) {
                Some((_, subject)) => sweep_run(
                    &at,
                    index,
                    subject,
                    first.get(entry).and_then(Option::as_deref),
                ),
                None => Swept::Broken("no such entry".to_owned()),
            }
        },
        |_, _| {},
    );
    let mut escaped = Vec::new();
    let mut broken = Vec::new();
    for &entry in &swept {
        let Some((bug, _)) = subjects.get(entry) else {
            continue;
        };
        let mut passed = Vec::new();
        let mut caught = 1; // the run's own seed
        for ((_, seed), outcome) in jobs.iter().zip(&outcomes).filter(|((e, _), _)| *e == entry) {
            match outcome {
                Swept::Caught => caught += 1,
                Swept::Passed => passed.push(seed.to_string()),
                Swept::Broken(message) => {
                    broken.push(format!("bug {} at seed {seed}: {message}", bug.id));
                }
            }
        }
        if passed.is_empty() {
            println!(
                "{:<8}  {:<id_width$}  caught at {caught} of {} seeds",
                "swept",
                bug.id,
                seeds.len()
            );
        } else {
            println!(
                "{:<8}  {:<id_width$}  caught at {caught} of {} seeds; passed at seeds {}",
                "ESCAPED",
                bug.id,
                seeds.len(),
                passed.join(", ")
            );
            escaped.push(format!(
                "{} (passes at seeds {})",
                bug.id,
                passed.join(", ")
            ));
        }
    }
    let elapsed = started.elapsed().as_secs();
    println!(
        "\n{kind} gallery sweep: {} swept over {} seeds ({} runs): {} caught at every seed, \
         {} escaped at some, {} broken runs; sweep time {}m {:02}s",
        plural(swept.len(), "entry", "entries"),
        seeds.len(),
        jobs.len(),
        swept.len() - escaped.len(),
        escaped.len(),
        broken.len(),
        elapsed / 60,
        elapsed % 60
    );
    for message in &broken {
        println!("{message}");
    }
    if escaped.is_empty() && broken.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "seed sweep: {} caught at only some seeds{}{}",
            plural(escaped.len(), "entry", "entries"),
            if escaped.is_empty() {
                String::new()
            } else {
                format!(": {}", escaped.join("; "))
            },
            if broken.is_empty() {
                String::new()
            } else {
                format!("; {} broken sweep runs", broken.len())
            }
        ))
    }
}

/// One entry at one seed (`context.seed`).
fn sweep_run(
    context: &Context,
    index: usize,
    subject: &Subject,
    filters: Option<&[String]>,
) -> Swept {
    let run = |command: &str| match filters {
        Some(filters) => {
            let mut last = Run::Broken("no filter".to_owned());
            for filter in filters {
                last = conformance(context, command, Some(filter));
                if !matches!(&last, Run::Report { failed, .. } if failed.is_empty()) {
                    break;
                }
            }
            last
        }
        None => verdict_run(context, command, subject.first_group(context.kind)),
    };
    let run = match subject {
        Subject::Stale(message) => return Swept::Broken(message.clone()),
        Subject::Patched(files) => match impl_copy(context, &format!("sweep-{index}"), files) {
            Ok((_dir, command)) => run(&command),
            Err(message) => return Swept::Broken(message),
        },
        Subject::Liar(command) => run(command),
    };
    match run {
        Run::Broken(message) => Swept::Broken(message),
        Run::Report { total: 0, .. } => Swept::Broken("the runner ran no check".to_owned()),
        Run::Report { failed, .. } if failed.is_empty() => Swept::Passed,
        Run::Report {
            failed, timed_out, ..
        } if failed.iter().all(|name| timed_out.contains(name)) => Swept::Broken(format!(
            "no verdict: every failure was the adapter's silence past --timeout ({})",
            failed.join(", ")
        )),
        Run::Report { .. } => Swept::Caught,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sweep's seeds: the run's own first, then distinct ones below 2^53, the same
    /// for the same base (hand-checked: splitmix64 of 0 + 0x9E3779B97F4A7C15 is
    /// 0xE220A8397B1DCDAF, whose top 53 bits are 7066868012903014).
    #[test]
    fn sweep_seeds_start_with_the_base_and_are_reproducible() {
        let seeds = sweep_seeds(12345, 100);
        assert_eq!(seeds.len(), 100);
        assert_eq!(seeds[0], 12345);
        assert_eq!(seeds, sweep_seeds(12345, 100));
        assert!(seeds.iter().all(|&s| s < 1 << 53));
        let distinct: BTreeSet<u64> = seeds.iter().copied().collect();
        assert_eq!(distinct.len(), 100);
        assert_eq!(sweep_seeds(0, 2), [0, 0xE220_A839_7B1D_CDAF >> 11]);
        assert_eq!(sweep_seeds(7, 1), [7]);
        assert_ne!(sweep_seeds(1, 3)[1..], sweep_seeds(2, 3)[1..]);
    }

    fn file(protocol: &str, cases: &[(&str, &str, &str)]) -> Value {
        let cases: Vec<Value> = cases
            .iter()
            .map(|(id, check, shape)| serde_json::json!({"id": id, "check": check, "shape": shape}))
            .collect();
        serde_json::json!({"protocol": protocol, "cases": cases})
    }

    /// Generated cases are known by protocol and id; the filter selects exactly the
    /// checks that hold them, or there is none.
    #[test]
    fn generated_cases_and_their_filter() {
        let files = [
            file(
                "p",
                &[
                    ("01-a", "fixed_check", "lookup"),
                    ("02-generated/x", "generated_x", "generated"),
                ],
            ),
            file("q", &[("02-generated/x", "other", "lookup")]),
        ];
        let generated = Generated::from_files(&files);
        assert!(generated.is_generated("p", "02-generated/x"));
        assert!(!generated.is_generated("q", "02-generated/x"));
        assert!(!generated.is_generated("p", "01-a"));
        assert_eq!(generated.filters(), Some(vec!["/generated_".to_owned()]));
        // Every case of p/generated_x generated: the skip leaves it out, one check of p.
        assert_eq!(generated.skip(), Some("/generated_"));
        assert_eq!(generated.skipped_in("p", GENERATED_FILTER), 1);
        assert_eq!(generated.skipped_in("q", GENERATED_FILTER), 0);
        // A generated check that holds a case of another shape too: no skip (it would
        // leave that case out), though the sweep's filter still selects it.
        let mixed = [file(
            "p",
            &[
                ("01-a", "generated_x", "lookup"),
                ("02-generated/x", "generated_x", "generated"),
            ],
        )];
        assert_eq!(Generated::from_files(&mixed).skip(), None);
        assert!(Generated::from_files(&mixed).filters().is_some());
        // Drawn cases outside cases.json: generated, and their check a filter of its own.
        let mut drawn = Generated::from_files(&files);
        drawn.add_drawn("w", &[("spelled/9".to_owned(), "lines".to_owned())]);
        assert!(drawn.is_generated("w", "spelled/9"));
        assert!(!drawn.is_generated("w", "spelled/10"));
        assert_eq!(
            drawn.filters(),
            Some(vec!["/generated_".to_owned(), "w/lines".to_owned()])
        );
        // A check alone: by its full name, unless another check's holds it or the
        // name is another protocol's too.
        assert_eq!(drawn.alone("generated_x"), Some("p/generated_x".to_owned()));
        assert_eq!(drawn.alone("lines"), Some("w/lines".to_owned()));
        assert_eq!(drawn.alone("missing"), None);
        let mut twice = Generated::from_files(&files);
        twice.add_drawn("q", &[("s/1".to_owned(), "generated_x".to_owned())]);
        assert_eq!(twice.alone("generated_x"), None);
        let mut inside = Generated::from_files(&files);
        inside.add_drawn("p", &[("s/1".to_owned(), "generated_x_more".to_owned())]);
        assert_eq!(inside.alone("generated_x"), None);
        // A drawn check's name inside another check's: no filter selects it alone.
        let mut drawn = Generated::from_files(&files);
        drawn.add_drawn("p", &[("s/1".to_owned(), "fixed".to_owned())]);
        assert_eq!(drawn.filters(), None);
        // A generated case in a check whose name the filter misses: no filter.
        let files = [file("p", &[("03", "spelling", "generated")])];
        assert_eq!(Generated::from_files(&files).filters(), None);
        // Another check whose name the filter selects: no filter.
        let files = [file(
            "p",
            &[
                ("03", "generated_a", "generated"),
                ("04", "generated_b", "x"),
            ],
        )];
        assert_eq!(Generated::from_files(&files).filters(), None);
    }

    /// The spec's own generated cases: every one is in a check the filter selects.
    #[test]
    fn the_specs_generated_checks_have_a_filter() {
        let generated = Generated::load(&crate::root());
        let Ok(generated) = generated else {
            panic!("{:?}", generated.err());
        };
        assert!(
            generated
                .cases
                .iter()
                .any(|(protocol, _)| protocol == "fnv1a-utf16-v1")
        );
        // The adapter protocol's spelled request lines are drawn by the seed: a catch by
        // one of them is swept, with their check as a filter of its own.
        let spelled = format!(
            "{}/{}",
            bloomproof_wire::report::ADAPTER_GROUP,
            bloomproof_conformance::spelled_requests::CHECK
        );
        for case in bloomproof_conformance::spelled_requests::cases(7) {
            assert!(
                generated.is_generated(bloomproof_wire::report::ADAPTER_GROUP, &case.id),
                "{}",
                case.id
            );
        }
        assert_eq!(
            generated.filters(),
            Some(vec!["/generated_".to_owned(), spelled]),
            "a check with a generated case is not named generated_...: the sweep runs whole groups"
        );
    }
}
