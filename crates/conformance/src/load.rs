//! Loading `spec/`, refusing anything malformed.
//!
//! The loader guards the runner: an unknown protocol folder, an unknown field, bad
//! hex, a declared count that does not match, a duplicate check name or case id, a
//! case naming an undocumented check, a case whose `input` or `expect` does not have
//! the form of its `shape`, an undeclared flag, a documented check with no case, a
//! check with a hook (its protocol's `hooks.rs`) that is not documented, a case of a
//! hooked check whose shape the hook neither reads nor passes over: each is a [`LoadError`]
//! naming the file, the case and what is wrong. Every error is collected, not just
//! the first. An empty spec folder is an error, never an empty run.

use crate::model::{CasesFile, ChecksFile, DocumentedCheck, FORMAT_VERSION, PublishedFigure};
use crate::protocols::Registry;
use crate::report::Class;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

/// One problem found while loading.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file (or folder) at fault.
    pub file: PathBuf,
    /// The case id, when the problem is in one case.
    pub case: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.case {
            Some(case) => write!(
                f,
                "{}: case `{case}`: {}",
                self.file.display(),
                self.message
            ),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

/// One protocol's documented checks and cases.
#[derive(Clone, Debug)]
pub struct ProtocolSpec {
    /// The protocol name (and folder name).
    pub protocol: String,
    /// The documented checks, in file order.
    pub checks: Vec<DocumentedCheck>,
    /// The figures the source document published.
    pub published_figures: Vec<PublishedFigure>,
    /// Case ids per check name, in file order.
    pub case_ids: BTreeMap<String, Vec<String>>,
    /// Every case, in file order, typed by its protocol's registry entry
    /// ([`crate::protocols::Protocol::new_cases`]).
    pub cases: Box<dyn crate::protocols::ProtocolCases>,
    /// The seed and count of the generated cases' inputs (the spec's, so that every
    /// protocol of one run draws from one seed): a fresh seed when loaded
    /// ([`Spec::set_generation`] replaces it).
    pub generation: crate::generated::Generation,
}

/// The rule ids' file in the spec folder.
pub const RULES_FILE: &str = "rules.json";

/// The whole loaded spec.
#[derive(Clone, Debug)]
pub struct Spec {
    /// One entry per protocol folder, in name order.
    pub protocols: Vec<ProtocolSpec>,
    /// The adapter protocol's own checks (`adapter-protocol.json`), when the spec
    /// folder has the file; run only against an adapter.
    pub wire: Option<bloomproof_wire::adapter_checks::WireFile>,
    /// The rule ids (`rules.json`), when the spec folder has the file; then every rule
    /// has a case (or is a known gap) and every id a check or case names is a rule.
    pub rules: Option<bloomproof_wire::spec::RulesFile>,
    /// `accumulated.json`, when the spec folder has one.
    pub accumulated: Option<crate::accumulated::AccumulatedFile>,
    /// Whether the accumulated check runs the full count rather than the checkpoint
    /// (`--accumulated-full`; false when loaded).
    pub accumulated_full: bool,
    /// `--fail-fast`: where the run stops early ([`crate::fail_fast::FailFast`]); `None`
    /// (when loaded): every check runs.
    pub fail_fast: Option<crate::fail_fast::FailFast>,
    /// `--skip`: a check whose full name (`<group>/<check>`) contains one of these is
    /// not run (as the filter's checks, it is then not in the report); none when loaded.
    pub skip: Vec<String>,
    /// Vector files run as checks `<protocol>/vectors.<kind>` (`--vectors DIR`,
    /// [`crate::vectors::load`]; none when loaded).
    pub vectors: Vec<crate::vectors::Loaded>,
    /// The registry the spec was loaded with ([`load_with`]; the built-in one by
    /// [`load`]): its protocol folders are this registry's entries, and a run of it
    /// makes its subjects from it ([`crate::run::Subjects::rust_of`]).
    pub registry: Registry,
}

impl Spec {
    /// Whether `--skip` leaves out the check of full name `full` (`<group>/<check>`).
    pub fn skips(&self, full: &str) -> bool {
        self.skip
            .iter()
            .any(|pattern| full.contains(pattern.as_str()))
    }

    /// Every rule id with the ids of the cases that pin it (`<protocol>/<case id>`), in
    /// the order of `rules.json`: a case pins its check's rules and its own.
    pub fn rule_cases(&self) -> Vec<(String, Vec<String>)> {
        self.rules
            .as_ref()
            .map(|file| self.rule_cases_of(file))
            .unwrap_or_default()
    }

    fn rule_cases_of(&self, file: &bloomproof_wire::spec::RulesFile) -> Vec<(String, Vec<String>)> {
        let mut pinned: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for (group, _, case_id, case_rules) in self.case_rules() {
            for rule in case_rules {
                pinned
                    .entry(rule.as_str())
                    .or_default()
                    .push(format!("{group}/{case_id}"));
            }
        }
        file.rules
            .iter()
            .map(|rule| {
                let cases = pinned.remove(rule.id.as_str()).unwrap_or_default();
                (rule.id.clone(), cases)
            })
            .collect()
    }

    /// (group, its check's rules, case id, the case's own rules) for every case.
    fn case_rules(&self) -> Vec<(&str, &[String], &str, &[String])> {
        let mut out = Vec::new();
        for protocol in &self.protocols {
            let check_rules = |name: &str| {
                protocol
                    .checks
                    .iter()
                    .find(|c| c.name == name)
                    .map_or(&[][..], |c| c.rules.as_slice())
            };
            let group = protocol.protocol.as_str();
            out.extend(
                protocol
                    .cases
                    .each()
                    .into_iter()
                    .map(|(id, check, rules, _)| (group, check_rules(check), id, rules)),
            );
        }
        if let Some(wire) = &self.wire {
            for case in &wire.cases {
                let check_rules = wire
                    .checks
                    .iter()
                    .find(|c| c.name == case.check)
                    .map_or(&[][..], |c| c.rules.as_slice());
                out.push((
                    crate::adapter_checks::GROUP,
                    check_rules,
                    case.id.as_str(),
                    case.rules.as_slice(),
                ));
            }
        }
        out
    }
}

impl Spec {
    /// The seed and count of the generated inputs of every protocol.
    pub fn set_generation(&mut self, generation: crate::generated::Generation) {
        for protocol in &mut self.protocols {
            protocol.generation = generation;
        }
    }

    /// The seed and count of the generated inputs (a fresh seed when the spec has
    /// no protocol).
    pub fn generation(&self) -> crate::generated::Generation {
        self.protocols
            .first()
            .map_or_else(crate::generated::Generation::fresh, |p| p.generation)
    }

    /// Number of documented checks over all protocols.
    pub fn check_count(&self) -> usize {
        self.protocols.iter().map(|p| p.checks.len()).sum()
    }
}

struct Loader {
    /// The protocols whose folders it reads.
    registry: Registry,
    errors: Vec<LoadError>,
    /// File texts given in memory ([`parse_protocol`]), read instead of the disk.
    texts: BTreeMap<PathBuf, String>,
    /// Whether a file not in `texts` is read from the disk (otherwise it is missing).
    from_disk: bool,
    /// The text of each file read, as written, kept while the files of one protocol
    /// folder are read: a refusal quotes an integer too large for 64 bits from it, which
    /// the parsed value holds only as a float.
    read: BTreeMap<PathBuf, String>,
}

impl Loader {
    fn new(registry: Registry, texts: BTreeMap<PathBuf, String>, from_disk: bool) -> Self {
        Loader {
            registry,
            errors: Vec::new(),
            texts,
            from_disk,
            read: BTreeMap::new(),
        }
    }

    /// The spec of the protocols in `folders` ((folder, protocol name), in order),
    /// or every error found on the way; a spec without a protocol is an error of `root`.
    fn spec(mut self, root: &Path, folders: &[(PathBuf, String)]) -> Result<Spec, Vec<LoadError>> {
        let protocols: Vec<ProtocolSpec> = folders
            .iter()
            .filter_map(|(dir, name)| {
                let loaded = self.protocol(dir, name);
                // Its files' texts are needed only while its own refusals are written.
                self.read.clear();
                loaded
            })
            .collect();
        let accumulated = self.accumulated(root);
        if self.errors.is_empty() && protocols.is_empty() {
            self.error(
                root,
                None,
                "no protocol folder with a checks.json: an empty spec is a failure, not a pass",
            );
        }
        let wire = self.wire(&root.join(crate::adapter_checks::FILE));
        self.bounds(&root.join(crate::bound_edges::FILE));
        let mut spec = Spec {
            protocols,
            wire,
            rules: None,
            accumulated,
            accumulated_full: false,
            fail_fast: None,
            skip: Vec::new(),
            vectors: Vec::new(),
            registry: self.registry,
        };
        spec.rules = self.rules(&root.join(RULES_FILE), &spec);
        if self.errors.is_empty() {
            spec.set_generation(crate::generated::Generation::fresh());
            Ok(spec)
        } else {
            Err(self.errors)
        }
    }

    /// `rules.json`, when the spec has it: the count, ids unique, every id a check or
    /// case names a rule, every rule pinned by a case or listed as a known gap (and no
    /// gap pinned).
    fn rules(&mut self, file: &Path, spec: &Spec) -> Option<bloomproof_wire::spec::RulesFile> {
        if !(self.texts.contains_key(file) || self.from_disk && file.exists()) {
            return None;
        }
        let value = self.read_json(file)?;
        self.rule_class_names(file, &value);
        let rules: bloomproof_wire::spec::RulesFile = self.typed(file, None, value)?;
        self.rule_origins(file, &rules);
        if rules.rule_count != rules.rules.len() {
            let message = format!(
                "`rule_count` says {} but the file has {}",
                rules.rule_count,
                rules.rules.len()
            );
            self.error(file, None, message);
        }
        let mut ids = BTreeSet::new();
        for rule in &rules.rules {
            if !ids.insert(rule.id.as_str()) {
                self.error(file, None, format!("rule `{}` is listed twice", rule.id));
            }
        }
        for (group, check_rules, case, case_rules) in spec.case_rules() {
            for rule in check_rules.iter().chain(case_rules) {
                if !ids.contains(rule.as_str()) {
                    let message =
                        format!("{group} names rule `{rule}`, which rules.json does not list");
                    self.error(file, Some(case), message);
                }
            }
            // A case names every rule it pins itself, its check's among them.
            if case_rules.is_empty() {
                let message = format!("a case of {group} names no rule (`rules`)");
                self.error(file, Some(case), message);
            }
            for rule in check_rules {
                if !case_rules.contains(rule) {
                    let message = format!(
                        "a case of {group} leaves out rule `{rule}` of its check (a case names its check's rules, then its own)"
                    );
                    self.error(file, Some(case), message);
                }
            }
        }
        let pinned = spec.rule_cases_of(&rules);
        for (rule, cases) in pinned {
            let gap = rules.known_gaps.iter().any(|g| g.rule == rule);
            if cases.is_empty() && !gap {
                let message = format!(
                    "rule `{rule}` has no case (pin it, or list it under known_gaps with the reason)"
                );
                self.error(file, None, message);
            }
            if !cases.is_empty() && gap {
                let message = format!(
                    "rule `{rule}` is listed as a known gap but cases pin it: remove the entry"
                );
                self.error(file, None, message);
            }
        }
        for gap in &rules.known_gaps {
            if !ids.contains(gap.rule.as_str()) {
                let message = format!("known gap `{}` is not a rule", gap.rule);
                self.error(file, None, message);
            }
        }
        Some(rules)
    }

    /// A rule whose `class` is missing or no class's name, named by its id (the typed
    /// reading that follows names only its index).
    fn rule_class_names(&mut self, file: &Path, value: &serde_json::Value) {
        use bloomproof_wire::spec::Class;
        let rules = value.get("rules").and_then(serde_json::Value::as_array);
        for (index, rule) in rules.into_iter().flatten().enumerate() {
            let id = rule
                .get("id")
                .and_then(serde_json::Value::as_str)
                .map_or_else(|| format!("rules[{index}]"), |id| format!("rule `{id}`"));
            let known = |name: &str| Class::ALL.iter().any(|c| c.name() == name);
            match rule.get("class") {
                Some(serde_json::Value::String(name)) if known(name) => {}
                Some(other) => {
                    let written = match other {
                        serde_json::Value::String(name) => crate::quote::prefix(name),
                        _ => crate::quote::prefix(&other.to_string()),
                    };
                    let message = format!(
                        "{id}: unknown class {written} (core, interop, hardening or adapter)"
                    );
                    self.error(file, None, message);
                }
                None => {
                    let message =
                        format!("{id} has no `class` (core, interop, hardening or adapter)");
                    self.error(file, None, message);
                }
            }
        }
    }

    /// Every core rule names the source passage it restates, and nothing else; every
    /// other rule gives the reason it was decided so, and no source passage.
    fn rule_origins(&mut self, file: &Path, rules: &bloomproof_wire::spec::RulesFile) {
        use bloomproof_wire::spec::Class;
        let blank = |text: &str| text.trim().is_empty();
        for rule in &rules.rules {
            let (id, class) = (&rule.id, rule.class.name());
            let problem = match (rule.class, &rule.source, &rule.decision) {
                (Class::Core, None, _) => Some(format!(
                    "core rule `{id}` names no source passage (`source`: the seed, where, what it says)"
                )),
                (Class::Core, Some(_), Some(_)) => Some(format!(
                    "core rule `{id}` carries a `decision`: a rule the source states is core, one bloomproof decided is not"
                )),
                (Class::Core, Some(source), None) => (blank(&source.place)
                    || blank(&source.says))
                .then(|| {
                    format!(
                        "core rule `{id}`: its source passage needs a `where` and what it `says`"
                    )
                }),
                (_, _, None) => Some(format!(
                    "{class} rule `{id}` gives no `decision` (why bloomproof decided so)"
                )),
                (_, Some(_), Some(_)) => Some(format!(
                    "{class} rule `{id}` names a source passage: only a core rule restates one (say it in its `decision`)"
                )),
                (_, None, Some(decision)) => {
                    blank(decision).then(|| format!("{class} rule `{id}`: its `decision` is empty"))
                }
            };
            if let Some(message) = problem {
                self.error(file, None, message);
            }
        }
    }

    /// `bounds.json`, when the spec has it: every row has an edge generator of its
    /// class (`crate::bound_edges`), so that no bound of the table goes undriven.
    fn bounds(&mut self, file: &Path) {
        if !(self.texts.contains_key(file) || self.from_disk && file.exists()) {
            return;
        }
        let Some(value) = self.read_json(file) else {
            return;
        };
        match crate::bound_edges::rows_of(value.to_string().as_bytes()) {
            Ok(rows) => {
                for message in crate::bound_edges::undriven(&rows) {
                    self.error(file, None, message);
                }
            }
            Err(err) => self.error(file, None, err),
        }
    }

    /// `adapter-protocol.json`, when the spec has it: counts, versions, case ids
    /// unique, every case's check documented, every check with a case.
    fn wire(&mut self, file: &Path) -> Option<bloomproof_wire::adapter_checks::WireFile> {
        if !(self.texts.contains_key(file) || self.from_disk && file.exists()) {
            return None;
        }
        let value = self.read_json(file)?;
        let wire: bloomproof_wire::adapter_checks::WireFile = self.typed(file, None, value)?;
        if wire.format_version != FORMAT_VERSION {
            let message = format!(
                "`format_version` is {}; this runner reads {FORMAT_VERSION}",
                wire.format_version
            );
            self.error(file, None, message);
        }
        for (what, declared, counted) in [
            ("check_count", wire.check_count, wire.checks.len()),
            ("case_count", wire.case_count, wire.cases.len()),
        ] {
            if declared != counted {
                self.error(
                    file,
                    None,
                    format!("`{what}` says {declared} but the file has {counted}"),
                );
            }
        }
        let mut ids = BTreeSet::new();
        for case in &wire.cases {
            if !ids.insert(case.id.as_str()) {
                self.error(file, Some(&case.id), "the case id is used twice");
            }
            if !wire.checks.iter().any(|c| c.name == case.check) {
                let message = format!("check `{}` is not documented in the file", case.check);
                self.error(file, Some(&case.id), message);
            }
        }
        for check in &wire.checks {
            if !wire.cases.iter().any(|c| c.check == check.name) {
                let message = format!("documented check `{}` has no case", check.name);
                self.error(file, None, message);
            }
            if check.class == Class::Core {
                let message = format!(
                    "check `{}` has class `core`: an adapter-protocol check has class `adapter` (or `interop`, `hardening` for what bloomproof decided)",
                    check.name
                );
                self.error(file, None, message);
            }
        }
        Some(wire)
    }

    fn error(&mut self, file: &Path, case: Option<&str>, message: impl Into<String>) {
        self.errors.push(LoadError {
            file: file.to_path_buf(),
            case: case.map(str::to_string),
            message: message.into(),
        });
    }

    fn read_json(&mut self, file: &Path) -> Option<serde_json::Value> {
        let read = match self.texts.remove(file) {
            Some(text) => Ok(text),
            None if self.from_disk => crate::embedded::read_file(file).and_then(|bytes| {
                String::from_utf8(bytes).map_err(|err| format!("not UTF-8: {}", err.utf8_error()))
            }),
            None => Err("cannot read: not in the spec files".to_string()),
        };
        let text = match read {
            Ok(text) => text,
            Err(err) => {
                self.error(file, None, err);
                return None;
            }
        };
        let parsed = serde_json::from_str(&text);
        self.read.insert(file.to_path_buf(), text);
        match parsed {
            Ok(value) => Some(value),
            Err(err) => {
                self.error(file, None, format!("not valid JSON: {err}"));
                None
            }
        }
    }

    /// What serde's `err` says of a value of `file`, an integer beyond 64 bits (which
    /// serde_json reads as a float) named as the file writes it.
    fn typed_error(&self, file: &Path, err: &serde_json::Error) -> String {
        let text = self.read.get(file).map_or("", String::as_str);
        crate::quote::name_huge_integers(&err.to_string(), text)
    }

    fn typed<T: DeserializeOwned>(
        &mut self,
        file: &Path,
        case: Option<&str>,
        value: serde_json::Value,
    ) -> Option<T> {
        match T::deserialize(&value) {
            Ok(typed) => Some(typed),
            Err(err) => {
                let message = self.typed_error(file, &err);
                self.error(file, case, message);
                None
            }
        }
    }

    fn header(&mut self, file: &Path, protocol: &str, declared: &str, version: u32) {
        if declared != protocol {
            self.error(
                file,
                None,
                format!("`protocol` is {declared:?} but the file is in the folder of {protocol:?}"),
            );
        }
        if version != FORMAT_VERSION {
            self.error(
                file,
                None,
                format!("`format_version` is {version}; this runner reads {FORMAT_VERSION}"),
            );
        }
    }

    /// A generated case whose domain the runner cannot draw from is a load error.
    fn generated(
        &mut self,
        file: &Path,
        protocol: &str,
        case: &crate::model::Case<crate::model::GeneratedInput, crate::model::GeneratedExpect>,
    ) {
        if let Some(error) = crate::generated::domain_error(
            protocol,
            self.registry.find(protocol).map(|entry| entry.generators()),
            &case.input,
            &case.expect,
        ) {
            self.error(file, Some(&case.id), error);
        }
    }

    /// `accumulated.json` of the spec folder `root`: `None` when there is none; a file
    /// that cannot be read or is not the format (or asks for more inputs than
    /// [`crate::accumulated::COUNT_MAX`]) is a load error.
    fn accumulated(&mut self, root: &Path) -> Option<crate::accumulated::AccumulatedFile> {
        let path = root.join("accumulated.json");
        let text = match self.texts.remove(&path) {
            Some(text) => text,
            None if self.from_disk && path.exists() => {
                match crate::embedded::read_file(&path).map(String::from_utf8) {
                    Ok(Ok(text)) => text,
                    Ok(Err(err)) => {
                        self.error(&path, None, format!("not UTF-8: {}", err.utf8_error()));
                        return None;
                    }
                    Err(err) => {
                        self.error(&path, None, err);
                        return None;
                    }
                }
            }
            None => return None,
        };
        match crate::accumulated::parse_with(&text, self.registry) {
            Ok(file) => Some(file),
            Err(err) => {
                self.error(&path, None, err);
                None
            }
        }
    }

    fn protocol(&mut self, dir: &Path, protocol: &str) -> Option<ProtocolSpec> {
        let Some(entry) = self.registry.find(protocol) else {
            self.error(
                dir,
                None,
                format!(
                    "unknown protocol folder {protocol:?}: this runner knows {:?}",
                    self.registry.names()
                ),
            );
            return None;
        };

        let checks_path = dir.join("checks.json");
        let checks_file: ChecksFile = {
            let value = self.read_json(&checks_path)?;
            self.typed(&checks_path, None, value)?
        };
        self.header(
            &checks_path,
            protocol,
            &checks_file.protocol,
            checks_file.format_version,
        );
        if checks_file.check_count != checks_file.checks.len() {
            self.error(
                &checks_path,
                None,
                format!(
                    "`check_count` says {} but the file has {} checks",
                    checks_file.check_count,
                    checks_file.checks.len()
                ),
            );
        }
        let mut documented = BTreeSet::new();
        for check in &checks_file.checks {
            if check.class == Class::Adapter {
                self.error(
                    &checks_path,
                    None,
                    format!(
                        "check `{}` has class `adapter`, which only adapter-protocol.json's checks have",
                        check.name
                    ),
                );
            }
            if check.name == crate::accumulated::CHECK {
                self.error(
                    &checks_path,
                    None,
                    format!(
                        "check `{}` takes the name of the accumulated digests (accumulated.json)",
                        check.name
                    ),
                );
            }
            if !documented.insert(check.name.clone()) {
                self.error(
                    &checks_path,
                    None,
                    format!("check `{}` is listed twice", check.name),
                );
            }
        }
        // A protocol's spec takes up its hooked checks all or none (a version's spec
        // folder that documents some of them and not another has renamed a check).
        let hooked = entry.hooked_checks();
        let undocumented: Vec<&str> = hooked
            .iter()
            .copied()
            .filter(|name| !documented.contains(*name))
            .collect();
        if undocumented.len() < hooked.len() {
            for name in undocumented {
                self.error(
                    &checks_path,
                    None,
                    format!(
                        "the runner has a hook for `{name}` but it is not documented here \
                         (a spec documents every hooked check of its protocol, or none)"
                    ),
                );
            }
        }

        let cases_path = dir.join("cases.json");
        let cases_value = self.read_json(&cases_path)?;
        let cases_file: CasesFile<serde_json::Value> =
            self.typed(&cases_path, None, cases_value)?;
        self.header(
            &cases_path,
            protocol,
            &cases_file.protocol,
            cases_file.format_version,
        );
        if cases_file.case_count != cases_file.cases.len() {
            self.error(
                &cases_path,
                None,
                format!(
                    "`case_count` says {} but the file has {} cases",
                    cases_file.case_count,
                    cases_file.cases.len()
                ),
            );
        }
        let mut ids = BTreeSet::new();
        let mut case_ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut cases = entry.new_cases();
        for (index, raw) in cases_file.cases.into_iter().enumerate() {
            let id = raw
                .get("id")
                .and_then(|v| v.as_str())
                .map(str::to_string)
                .unwrap_or_else(|| format!("#{index} (no `id`)"));
            if !ids.insert(id.clone()) {
                self.error(&cases_path, Some(&id), "duplicate case id");
            }
            let check = raw
                .get("check")
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string();
            if !documented.contains(&check) {
                self.error(
                    &cases_path,
                    Some(&id),
                    format!("field `check`: {check:?} is not a check that checks.json documents"),
                );
                continue;
            }
            let text = self.read.get(&cases_path).map_or("", String::as_str);
            if let Some(why) = raw
                .get("input")
                .and_then(|input| beyond_bounds(input, "input", text))
            {
                self.error(&cases_path, Some(&id), why);
                continue;
            }
            case_ids.entry(check.clone()).or_default().push(id.clone());
            if let Some(flags) = raw.get("flags").and_then(|v| v.as_array()) {
                for flag in flags {
                    let flag = flag.as_str().unwrap_or_default();
                    if !cases_file.flags.contains_key(flag) {
                        self.error(
                            &cases_path,
                            Some(&id),
                            format!("flag {flag:?} is not declared in the file's `flags` table"),
                        );
                    }
                }
            }
            let shape = match cases.push(&raw) {
                Ok((shape, generated)) => {
                    if let Some(case) = generated {
                        self.generated(&cases_path, protocol, case);
                    }
                    Some(shape)
                }
                Err(err) => {
                    let message = self.typed_error(&cases_path, &err);
                    self.error(&cases_path, Some(&id), message);
                    None
                }
            };
            if let Some(misfit) = shape.and_then(|shape| entry.hook_misfit(&check, shape)) {
                self.error(&cases_path, Some(&id), misfit);
            }
        }
        for check in &checks_file.checks {
            if !case_ids.contains_key(&check.name) {
                self.error(
                    &cases_path,
                    None,
                    format!("documented check `{}` has no case", check.name),
                );
            }
        }
        let mut published = BTreeSet::new();
        for figure in &checks_file.published_figures {
            if !checks_file.checks.iter().any(|c| c.name == figure.check) {
                self.error(
                    &checks_path,
                    None,
                    format!(
                        "published figure `{}` names check `{}`, which is not documented",
                        figure.name, figure.check
                    ),
                );
            }
            if !published.insert(figure.name.as_str()) {
                self.error(
                    &checks_path,
                    None,
                    format!("published figure `{}` is listed twice", figure.name),
                );
            }
        }
        Some(ProtocolSpec {
            protocol: protocol.to_string(),
            published_figures: checks_file.published_figures.clone(),
            checks: checks_file.checks,
            case_ids,
            cases,
            generation: crate::generated::Generation::fresh(),
        })
    }
}

/// The largest `m`, `n` or `count` a case's input may give (spec/README.md, "Bounds").
pub const CASE_SIZE_MAX: u64 = 1 << 16;

/// The largest `k` a case's input may give.
pub const CASE_K_MAX: u64 = 256;

/// The largest `bytes` or `units` number a case's input may give (a padded import, a
/// save of that many code units): 16 MiB.
pub const CASE_BYTES_MAX: u64 = 16 << 20;

/// The most items of one array in a case's input.
pub const CASE_ARRAY_MAX: usize = 1 << 16;

/// The most characters of one string in a case's input: 4 MiB.
pub const CASE_STRING_MAX: usize = 4 << 20;

/// Where `value` (a case's input, at `path`) gives a size the runner would have to
/// compute or allocate without bound: an `m`, `n` or `count` above
/// [`CASE_SIZE_MAX`], a `k` above [`CASE_K_MAX`], a `bytes` or `units` above
/// [`CASE_BYTES_MAX`], an array of more than [`CASE_ARRAY_MAX`] items or a string of
/// more than [`CASE_STRING_MAX`] characters; the first one found, named by its path
/// and, for a number, as the file's text `json` writes it. A number that is not a
/// whole one within the bound, such as 1.5 or -1, is left to the case's typed reading,
/// which names its type.
fn beyond_bounds(value: &serde_json::Value, path: &str, json: &str) -> Option<String> {
    use serde_json::Value;
    match value {
        Value::Object(map) => map.iter().find_map(|(key, item)| {
            let limit = match key.as_str() {
                "m" | "n" | "count" => Some(CASE_SIZE_MAX),
                "k" => Some(CASE_K_MAX),
                "bytes" | "units" => Some(CASE_BYTES_MAX),
                _ => None,
            };
            let here = format!("{path}.{key}");
            match (limit, item) {
                (Some(limit), Value::Number(n))
                    if n.as_f64().is_some_and(|f| f > limit as f64) =>
                {
                    let written = n
                        .as_f64()
                        .filter(|_| n.is_f64())
                        .and_then(|f| crate::quote::huge_integer_as_written(json, f))
                        .map_or_else(|| n.to_string(), str::to_string);
                    Some(format!(
                        "`{here}` is {written}, beyond the bound of {limit} a case may give (spec/README.md, \"Bounds\")"
                    ))
                }
                _ => beyond_bounds(item, &here, json),
            }
        }),
        Value::Array(items) if items.len() > CASE_ARRAY_MAX => Some(format!(
            "`{path}` has {} items, beyond the bound of {CASE_ARRAY_MAX} a case may give (spec/README.md, \"Bounds\")",
            items.len()
        )),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, item)| beyond_bounds(item, &format!("{path}[{i}]"), json)),
        // A string of at most CASE_STRING_MAX bytes has at most as many characters: only
        // a longer one is counted.
        Value::String(text)
            if text.len() > CASE_STRING_MAX && text.chars().nth(CASE_STRING_MAX).is_some() =>
        {
            Some(format!(
            "`{path}` is a string of {} characters, beyond the bound of {CASE_STRING_MAX} characters a case may give (spec/README.md, \"Bounds\")",
            text.chars().count()
        ))
        }
        _ => None,
    }
}

/// Loads every protocol folder under `spec_dir` (folders without a `checks.json`,
/// such as `schemas/`, are not protocols), each a protocol of the built-in registry.
pub fn load(spec_dir: &Path) -> Result<Spec, Vec<LoadError>> {
    load_with(spec_dir, Registry::BUILT_IN)
}

/// [`load`], each protocol folder read as the entry of `registry` that has its name (a
/// folder of any other name is a load error).
pub fn load_with(spec_dir: &Path, registry: Registry) -> Result<Spec, Vec<LoadError>> {
    let mut loader = Loader::new(registry, BTreeMap::new(), true);
    let mut dirs = Vec::new();
    match std::fs::read_dir(spec_dir) {
        Ok(entries) => {
            for entry in entries.flatten() {
                let path = entry.path();
                if path.is_dir() && path.join("checks.json").exists() {
                    dirs.push(path);
                }
            }
        }
        Err(err) => loader.error(
            spec_dir,
            None,
            format!("cannot read the spec folder: {err}"),
        ),
    }
    dirs.sort();
    let folders: Vec<(PathBuf, String)> = dirs
        .into_iter()
        .map(|dir| {
            let name = dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (dir, name)
        })
        .collect();
    loader.spec(spec_dir, &folders)
}

/// Loads the spec built into this crate ([`crate::embedded`]), with every check
/// [`load`] makes of a folder.
pub fn load_embedded() -> Result<Spec, Vec<LoadError>> {
    load_files(Path::new(crate::embedded::LABEL), crate::embedded::FILES)
}

/// Loads a spec from its files in memory, as (name relative to the spec folder with
/// `/` between components, bytes), with every check [`load`] makes of a folder; the
/// protocols are the folders that have a `checks.json`, in name order, and errors name
/// the files under `root`. The disk is never read.
pub fn load_files(root: &Path, files: &[(&str, &[u8])]) -> Result<Spec, Vec<LoadError>> {
    load_files_with(root, files, Registry::BUILT_IN)
}

/// [`load_files`], each protocol folder read as the entry of `registry` that has its
/// name.
pub fn load_files_with(
    root: &Path,
    files: &[(&str, &[u8])],
    registry: Registry,
) -> Result<Spec, Vec<LoadError>> {
    let mut loader = Loader::new(registry, BTreeMap::new(), false);
    let mut protocols_named = BTreeSet::new();
    for (name, bytes) in files {
        let path = name.split('/').fold(root.to_path_buf(), |p, c| p.join(c));
        match std::str::from_utf8(bytes) {
            Ok(text) => {
                loader.texts.insert(path, text.to_string());
            }
            Err(err) => loader.error(&path, None, format!("not UTF-8: {err}")),
        }
        if let Some((protocol, "checks.json")) = name.split_once('/') {
            protocols_named.insert(protocol.to_string());
        }
    }
    let folders: Vec<(PathBuf, String)> = protocols_named
        .into_iter()
        .map(|name| (root.join(&name), name))
        .collect();
    loader.spec(root, &folders)
}

/// Loads one protocol from the texts of its `checks.json` and `cases.json`, with
/// every check [`load`] makes of a protocol folder (errors name the files
/// `<protocol>/checks.json` and `<protocol>/cases.json`). Never panics, whatever the
/// texts: it is the spec loader's fuzzing entry point.
pub fn parse_protocol(
    protocol: &str,
    checks_json: &str,
    cases_json: &str,
) -> Result<ProtocolSpec, Vec<LoadError>> {
    let dir = Path::new(protocol);
    let mut loader = Loader::new(
        Registry::BUILT_IN,
        BTreeMap::from([
            (dir.join("checks.json"), checks_json.to_string()),
            (dir.join("cases.json"), cases_json.to_string()),
        ]),
        false,
    );
    match loader.protocol(dir, protocol) {
        Some(spec) if loader.errors.is_empty() => Ok(spec),
        _ => Err(loader.errors),
    }
}
