//! # bloomproof-vectors-writer: the writer of the test vectors
//!
//! Writes the files of `vectors/` (types: `bloomproof_wire::vectors`): every value
//! computed by the production crates (`bloomproof-protocol`, `bloomproof-filter`),
//! checked against the independent oracle (`bloomproof-oracle`), rendered, and read back
//! by the strict loader (`bloomproof-vectors`) before anything is returned ([`files`],
//! [`render`]). The doc-membership files are written for any version of the family
//! ([`doc_files`] of a [`DocVersion`]; `vectors/` holds [`DocVersion::V1`]'s). Also the files' JSON Schemas ([`schemas`]), written from the same
//! types, and the freshness check behind `cargo xtask vectors --check` ([`fresh`]).
//!
//! A disagreement between production and the oracle is an error naming the file and
//! the case; the caller then writes nothing. Output is deterministic: fixed PRNG seeds
//! ([`prng::SplitMix64`]), ordered collections only, no clock. The hand-picked
//! `doc-membership-v1` rejections are data (`data/doc-membership-v1.hand-picked.json`).

mod doc;
pub mod flags;
mod fnv;
mod fnv_hand_picked;
pub mod fresh;
mod hand_picked;
pub mod prng;
pub mod schemas;

pub use doc::{DocVersion, doc_files};

use bloomproof_vectors::{FileKind, VectorFile, Version};
use bloomproof_wire::hand_picked::{Figure, Published};
use bloomproof_wire::vectors::{CaseHeader, FORMAT_VERSION, VectorFileOf};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Written files as (path relative to the repository root, contents), or the error
/// that stopped them.
pub(crate) type Files = Result<Vec<(String, String)>, String>;

/// One protocol's vector files: its module of this crate.
pub(crate) struct Protocol {
    /// The protocol's name (its folder under `vectors/`).
    pub(crate) name: &'static str,
    /// Its vector files, rendered and loaded back ([`finish`]), in [`FileKind::ALL`]'s
    /// order.
    pub(crate) files: fn() -> Files,
    /// The JSON Schema of each of its file kinds.
    pub(crate) schemas: fn() -> Vec<(FileKind, String)>,
    /// The JSON Schema of its hand-picked data: (path relative to the repository root,
    /// contents).
    pub(crate) hand_picked_schema: fn() -> (String, String),
    /// What each of its files must cover.
    pub(crate) coverage: &'static [Coverage],
}

/// What a vector file written must cover, which `tests/committed.rs` holds every
/// file to: the flags it must use and the fewest cases it may hold.
#[derive(Clone, Copy, Debug)]
pub struct Coverage {
    /// The file.
    pub kind: FileKind,
    /// Flags at least one case of the file must carry.
    pub flags: &'static [&'static str],
    /// The fewest cases the file may hold.
    pub min_cases: usize,
}

/// What every protocol's files must cover, in [`FileKind::ALL`]'s order.
pub fn coverage() -> impl Iterator<Item = &'static Coverage> {
    REGISTRY.iter().flat_map(|protocol| protocol.coverage)
}

/// Every protocol with vector files, in the order of `bloomproof_protocol::PROTOCOLS`.
pub(crate) static REGISTRY: &[Protocol] = &[doc::PROTOCOL, fnv::PROTOCOL];

/// The `generator` header value of every file.
pub const GENERATOR: &str = concat!(
    "cargo xtask vectors (bloomproof-vectors-writer ",
    env!("CARGO_PKG_VERSION"),
    ")"
);

/// Flags as a sorted, duplicate-free list.
#[derive(Clone, Debug, Default)]
pub(crate) struct FlagSet(BTreeSet<&'static str>);

impl FlagSet {
    pub(crate) fn new(flags: &[&'static str]) -> Self {
        FlagSet(flags.iter().copied().collect())
    }

    /// Flags given by name (from data): an error names an unknown one.
    pub(crate) fn given(flags: &[String]) -> Result<Self, String> {
        let mut set = FlagSet::default();
        set.extend(flags)?;
        Ok(set)
    }

    pub(crate) fn set(&mut self, flag: &'static str, on: bool) {
        if on {
            self.0.insert(flag);
        }
    }

    pub(crate) fn extend(&mut self, other: &[String]) -> Result<(), String> {
        for flag in other {
            let known = flags::ALL
                .iter()
                .find(|(name, _)| name == flag)
                .map(|(name, _)| *name)
                .ok_or_else(|| format!("unknown flag {flag:?}"))?;
            self.0.insert(known);
        }
        Ok(())
    }

    pub(crate) fn into_vec(self) -> Vec<String> {
        self.0.into_iter().map(str::to_string).collect()
    }
}

/// Every file written, as (path relative to the repository root, contents): the
/// five vector files, then their JSON Schemas under `vectors/schemas/`.
///
/// # Errors
///
/// A message naming the file and case when production and the oracle disagree, when
/// production rejects a valid input or accepts an invalid one, or when a rendered file
/// does not load back to the same value.
pub fn files() -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for protocol in REGISTRY {
        out.extend((protocol.files)()?);
    }
    for (kind, text) in schemas::all() {
        out.push((format!("vectors/schemas/{}", kind.schema_file()), text));
    }
    Ok(out)
}

/// Builds the header of `version`'s file of `kind` (a file of the kind's format under
/// the version's name), renders the file, and loads it back: the loader, holding the
/// cases to the version's bounds, must accept it and give back exactly the same value.
pub(crate) fn finish<C>(
    version: Version<'_>,
    kind: FileKind,
    cases: Vec<C>,
    inner_flags: impl Fn(&C) -> Vec<Vec<String>>,
) -> Result<(String, String), String>
where
    C: Serialize + CaseHeader + Clone,
    VectorFileOf<C>: Into<VectorFile>,
{
    let path = format!("vectors/{}/{}.json", version.name, kind.kind());
    let mut used = FlagSet::default();
    for case in &cases {
        used.extend(case.flags())
            .map_err(|err| format!("{path}: case `{}`: {err}", case.id()))?;
        for flags in inner_flags(case) {
            used.extend(&flags)
                .map_err(|err| format!("{path}: case `{}`: {err}", case.id()))?;
        }
    }
    let mut table = BTreeMap::new();
    for flag in used.0 {
        let description =
            flags::description(flag).ok_or_else(|| format!("{path}: undescribed flag {flag:?}"))?;
        table.insert(flag.to_string(), description.to_string());
    }
    let file = VectorFileOf {
        schema: kind.schema_ref(),
        protocol: version.name.to_string(),
        kind: kind.kind().to_string(),
        format_version: FORMAT_VERSION,
        generator: GENERATOR.to_string(),
        case_count: cases.len(),
        flags: table,
        cases,
    };
    let text = render(&file).map_err(|err| format!("{path}: cannot render: {err}"))?;
    let loaded = bloomproof_vectors::parse_named_in(&path, &text, &[version])
        .map_err(|err| format!("the written file does not load back (a writer bug):\n{err}"))?;
    if loaded != file.into() {
        return Err(format!(
            "{path}: the written file loads back to a different value (a writer bug)"
        ));
    }
    Ok((path, text))
}

/// Renders a file: the header one field per line, the flags one per line, and each
/// case as one compact JSON line (standard JSON; the layout only keeps diffs readable).
pub fn render<C: Serialize>(file: &VectorFileOf<C>) -> Result<String, serde_json::Error> {
    use serde_json::to_string as json;
    let mut text = String::from("{\n");
    for (name, value) in [
        ("$schema", json(&file.schema)?),
        ("protocol", json(&file.protocol)?),
        ("kind", json(&file.kind)?),
        ("format_version", json(&file.format_version)?),
        ("generator", json(&file.generator)?),
        ("case_count", json(&file.case_count)?),
    ] {
        text.push_str(&format!("  \"{name}\": {value},\n"));
    }
    if file.flags.is_empty() {
        text.push_str("  \"flags\": {},\n");
    } else {
        text.push_str("  \"flags\": {\n");
        let last = file.flags.len() - 1;
        for (index, (flag, description)) in file.flags.iter().enumerate() {
            let comma = if index == last { "" } else { "," };
            text.push_str(&format!(
                "    {}: {}{comma}\n",
                json(flag)?,
                json(description)?
            ));
        }
        text.push_str("  },\n");
    }
    if file.cases.is_empty() {
        text.push_str("  \"cases\": []\n");
    } else {
        text.push_str("  \"cases\": [\n");
        let last = file.cases.len() - 1;
        for (index, case) in file.cases.iter().enumerate() {
            let comma = if index == last { "" } else { "," };
            text.push_str(&format!("    {}{comma}\n", json(case)?));
        }
        text.push_str("  ]\n");
    }
    text.push_str("}\n");
    Ok(text)
}

/// Flags that depend only on m and k and the protocol's bounds, each given as
/// `(value, min, max)`.
pub(crate) fn param_flags(flags: &mut FlagSet, m: (u32, u32, u32), k: (u32, u32, u32)) {
    flags.set("min-m", m.0 == m.1);
    flags.set("max-m", m.0 == m.2);
    flags.set("min-k", k.0 == k.1);
    flags.set("max-k", k.0 == k.2);
    flags.set("m-not-multiple-of-8", !m.0.is_multiple_of(8));
}

/// The figures a hand-picked case states in its data file (`expect`), compared one by
/// one with what production computed.
#[derive(Default)]
pub(crate) struct Figures(Vec<String>);

impl Figures {
    /// Notes `name` when the data states a value (`want`) other than `got`.
    pub(crate) fn compare<T: PartialEq + std::fmt::Debug>(
        &mut self,
        name: &str,
        want: Option<&T>,
        got: &T,
    ) {
        if let Some(want) = want
            && want != got
        {
            self.0.push(format!("{name} {got:?}, not {want:?}"));
        }
    }

    /// [`Figures::compare`] of a figure the data file gives or names among the
    /// protocol's `published` figures; a name that is not published, or whose value does
    /// not have the figure's type, is noted too.
    pub(crate) fn compare_figure<T>(
        &mut self,
        name: &str,
        published: &PublishedFigures,
        want: Option<&Figure<T>>,
        got: &T,
    ) where
        T: serde::de::DeserializeOwned + Clone + PartialEq + std::fmt::Debug,
    {
        match published.values(want) {
            Ok(want) => self.compare(name, want.as_ref(), got),
            Err(err) => self.note(format!("{name}: {err}")),
        }
    }

    /// Notes a figure that could not be compared, saying why.
    pub(crate) fn note(&mut self, message: String) {
        self.0.push(message);
    }

    /// `Ok` when every stated figure matched, else a message naming the data file and
    /// each figure that did not.
    pub(crate) fn verdict(self, data: &str) -> Result<(), String> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "does not reproduce the figures of {data}: {}",
                self.0.join(", ")
            ))
        }
    }
}

/// One protocol's published figures, by name: the `published_figures` of its
/// `spec/<protocol>/checks.json`, the one place a published figure is written. The
/// hand-picked data names them (`{"published": "<name>"}`) rather than restating them.
pub(crate) struct PublishedFigures {
    path: String,
    figures: BTreeMap<String, serde_json::Value>,
    /// Whether a name the checks file does not publish is skipped rather than an error
    /// (the checks file of a version other than the one the data was picked for).
    skip_unpublished: bool,
}

impl PublishedFigures {
    /// The published figures of the checks file whose text is `text` (`path`, relative
    /// to the repository root, in errors).
    pub(crate) fn read(path: &str, text: &str) -> Result<Self, String> {
        let checks: bloomproof_wire::spec::ChecksFile = hand_picked::parse_json(path, text)?;
        let figures = checks
            .published_figures
            .into_iter()
            .map(|figure| (figure.name, figure.value))
            .collect();
        Ok(PublishedFigures {
            path: path.to_string(),
            figures,
            skip_unpublished: false,
        })
    }

    /// These figures, a name they do not publish standing for no figure (skipped)
    /// rather than an error.
    pub(crate) fn skipping_unpublished(self) -> Self {
        PublishedFigures {
            skip_unpublished: true,
            ..self
        }
    }

    /// The value `figure` stands for: the one given, or the published figure it names.
    pub(crate) fn value<T: serde::de::DeserializeOwned + Clone>(
        &self,
        figure: &Figure<T>,
    ) -> Result<T, String> {
        match figure {
            Figure::Given(value) => Ok(value.clone()),
            Figure::Published(Published { published }) => {
                let value = self.figures.get(published).ok_or_else(|| {
                    format!("{}: no published figure is named {published:?}", self.path)
                })?;
                serde_json::from_value(value.clone())
                    .map_err(|err| format!("{}: published figure {published:?}: {err}", self.path))
            }
        }
    }

    /// The values of `figure`, if given (see [`PublishedFigures::value`]); a name not
    /// published is no value when these figures skip unpublished names.
    pub(crate) fn values<T: serde::de::DeserializeOwned + Clone>(
        &self,
        figure: Option<&Figure<T>>,
    ) -> Result<Option<T>, String> {
        match figure {
            Some(Figure::Published(Published { published }))
                if self.skip_unpublished && !self.figures.contains_key(published) =>
            {
                Ok(None)
            }
            figure => figure.map(|figure| self.value(figure)).transpose(),
        }
    }
}

/// Whether a list of positions holds a repeat.
pub(crate) fn has_repeat<T: Ord>(positions: &[T]) -> bool {
    let distinct: BTreeSet<&T> = positions.iter().collect();
    distinct.len() != positions.len()
}

#[cfg(test)]
mod tests {
    use super::REGISTRY;
    use bloomproof_vectors::FileKind;

    #[test]
    fn the_registry_lists_every_protocol_in_order() {
        let names: Vec<&str> = REGISTRY.iter().map(|protocol| protocol.name).collect();
        assert_eq!(names, bloomproof_protocol::PROTOCOLS);
    }

    #[test]
    fn each_protocol_gives_a_schema_for_each_of_its_file_kinds() {
        for protocol in REGISTRY {
            let kinds: Vec<FileKind> = (protocol.schemas)().into_iter().map(|(k, _)| k).collect();
            let own: Vec<FileKind> = FileKind::ALL
                .into_iter()
                .filter(|kind| kind.protocol() == protocol.name)
                .collect();
            assert_eq!(kinds, own, "{}", protocol.name);
        }
    }

    /// A hand-picked figure given by name is the checks file's published figure of that
    /// name; a name not published, or a value of another type, is an error naming the
    /// checks file and the name.
    #[test]
    fn a_published_figure_is_read_by_its_name() {
        use super::{Figure, Published, PublishedFigures};
        let checks = r#"{"$schema": "s", "protocol": "p", "format_version": 1, "check_count": 0, "checks": [],
            "published_figures": [{"name": "x.bits", "check": "c", "value": 7, "source": "s"}]}"#;
        let published = PublishedFigures::read("spec/p/checks.json", checks).unwrap();
        let named = |name: &str| {
            Figure::<u32>::Published(Published {
                published: name.to_string(),
            })
        };
        assert_eq!(published.value(&named("x.bits")), Ok(7));
        assert_eq!(published.value(&Figure::Given(8)), Ok(8));
        assert_eq!(
            published.value(&named("x.bytes")),
            Err("spec/p/checks.json: no published figure is named \"x.bytes\"".to_string())
        );
        let text = Figure::<String>::Published(Published {
            published: "x.bits".to_string(),
        });
        let err = published.value(&text).unwrap_err();
        assert!(
            err.starts_with("spec/p/checks.json: published figure \"x.bits\": invalid type"),
            "{err}"
        );
    }

    /// Every figure the hand-picked data of either protocol names is published, with a
    /// value of the figure's type (`cargo xtask vectors --check` holds them to the
    /// cases written).
    #[test]
    fn the_hand_picked_data_names_published_figures() {
        let doc = crate::hand_picked::published().unwrap();
        let mut named = 0;
        for snapshot in crate::hand_picked::read().unwrap().snapshots {
            let expect = &snapshot.expect;
            doc.values(expect.packed_hex.as_ref()).unwrap();
            doc.values(expect.bits_set.as_ref()).unwrap();
            doc.values(expect.documents.as_ref()).unwrap();
            doc.values(expect.false_positives.as_ref()).unwrap();
            named += usize::from(expect.packed_hex.is_some());
        }
        let fnv = crate::fnv_hand_picked::published().unwrap();
        for position in crate::fnv_hand_picked::read().unwrap().positions {
            for figure in position.expect.positions.iter().flatten() {
                fnv.value(figure).unwrap();
                named += 1;
            }
            fnv.values(position.expect.h1.as_ref()).unwrap();
            fnv.values(position.expect.h2.as_ref()).unwrap();
        }
        assert!(named >= 2 + 9, "{named}");
    }
}
