//! Request lines of the adapter protocol in the other spellings RFC 8259 allows, and
//! their near-misses, generated on every run for the adapter protocol's own check
//! `line_not_an_object_refused` (class adapter: ADAPTER-REQUEST-LINE, "each request is
//! one JSON object on one line", and ADAPTER-ERR-LINE).
//!
//! A few canonical requests (a `sha256` with hex in both cases, a doc `positions` with
//! nested `params`, an fnv `positions` whose code units hold a surrogate pair, a
//! `session` whose string id and drafts hold characters every escape touches) are each
//! written again as the run's seed draws (`respell_line`: spaces and tabs wherever
//! whitespace may stand, any character of any string or key escaped or not, `\uXXXX` in
//! either case, astral characters as escaped pairs, the keys of every object in any
//! order): each must be answered as the canonical request is, its answer holding what
//! the oracle (`crates/oracle`) or, for the drafts, SESSION.md (drafts verbatim) gives.
//! Then each near-miss that breaks RFC 8259 (whitespace it does not allow, a malformed
//! escape, a raw control character, a lone-surrogate escape, a trailing comma, a key
//! twice, `+1`, `01`), planted at the last place of its kind in each canonical request
//! that has one (whitespace at the first place too) and at a drawn place of a drawn
//! request, must be refused
//! `bad_request` with `"id": null` (ADAPTER-ERR-LINE, ADAPTER-DUPLICATE-KEY,
//! ADAPTER-LONE-SURROGATE).

use crate::protocols::fnv1a_utf16_v1::generated::spelling::{NearMiss, respell_line};
use bloomproof_oracle::{doc_membership, fnv1a_utf16, sha256};
use bloomproof_wire::adapter_checks::{WireCase, WireExpect, WireSend};
use serde_json::{Value, json};

/// The check the lines belong to.
pub const CHECK: &str = "line_not_an_object_refused";

/// The first id of these lines: past those of `crate::bound_edges`, below the runner's
/// own requests (`crate::adapter_checks::FIRST_REQUEST_ID`).
const FIRST_ID: u64 = 600;

/// Spellings of each canonical request a run sends.
const SPELLINGS: u64 = 2;

/// The places of a near-miss (`None`: a drawn one): whitespace that RFC 8259 does not
/// allow at the first place whitespace may stand (the start of the line), the last (its
/// end, where a reader that trims the line meets it) and a drawn one; every other
/// near-miss at the last place of its kind and a drawn one.
fn places(miss: NearMiss) -> &'static [Option<usize>] {
    match miss {
        NearMiss::NoBreakSpace
        | NearMiss::LineSeparator
        | NearMiss::VerticalTab
        | NearMiss::FormFeed => &[Some(0), Some(usize::MAX), None],
        _ => &[Some(usize::MAX), None],
    }
}

/// The near-misses a request line can carry that RFC 8259 refuses (the import's other
/// near-misses are JSON: a byte-order mark a reader may skip, numbers that
/// `integers_written_as_integers` judges).
pub(crate) fn misses() -> impl Iterator<Item = NearMiss> {
    NearMiss::ALL.into_iter().filter(|miss| {
        !matches!(
            miss,
            NearMiss::ByteOrderMark
                | NearMiss::IntegralFloat
                | NearMiss::Exponent
                | NearMiss::MinusZero
        )
    })
}

/// The canonical requests with id `id` (number `which` of four), and what the answer
/// to each must hold.
fn canonical(which: u64, id: u64) -> (Value, Value) {
    match which % 4 {
        0 => {
            let data = [0x00, 0xff, 0x5c];
            (
                json!({"id": id, "protocol": "doc-membership-v1", "op": "sha256", "data": "00fF5c"}),
                json!({"digest": sha256::hex_digest(&data)}),
            )
        }
        1 => {
            let positions = doc_membership::positions(
                doc_membership::DOMAIN_HEX,
                64,
                3,
                &[0xa0, 0xfb],
                &[0xe9, 0x22],
            );
            (
                json!({"id": id, "protocol": "doc-membership-v1", "op": "positions",
                    "params": {"m": 64, "k": 3, "seed_hex": "a0Fb"}, "item": "e922"}),
                json!({"positions": positions}),
            )
        }
        2 => {
            let units = [0xe9u16, 0xd83d, 0xde00, 0x2f, 0x22, 0x5c, 0];
            (
                json!({"id": id, "protocol": "fnv1a-utf16-v1", "op": "positions",
                    "m": 64, "k": 3, "units": units}),
                json!({"h1": fnv1a_utf16::h1(&units), "h2": fnv1a_utf16::h2(&units),
                    "positions": fnv1a_utf16::positions(64, 3, &units)}),
            )
        }
        _ => {
            // A string id, and drafts kept verbatim (SESSION.md 7.1).
            let insert = "\u{e9}\u{1F600}\"\\/\t<>&'\u{7f}\u{2028}";
            let query = "\u{1}q\u{a0}";
            (
                json!({"id": format!("s\u{e9}/\"{id}"), "protocol": "fnv1a-utf16-v1", "op": "session",
                "script": [
                    {"op": "set_draft", "field": "insert", "value": insert},
                    {"op": "set_draft", "field": "query", "value": query},
                ]}),
                json!({"steps": [
                    {"view": {"drafts": {"insert": insert}}},
                    {"view": {"drafts": {"insert": insert, "query": query}}},
                ]}),
            )
        }
    }
}

/// A 64-bit mix of the run's seed and a line's number (SplitMix64's finaliser).
fn mix(seed: u64, n: u64) -> u64 {
    let mut z = seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The lines of one run of `seed`: every canonical request spelled `SPELLINGS` ways,
/// then every near-miss of `misses` at each of its `places`.
pub fn cases(seed: u64) -> Vec<WireCase> {
    lines(seed).into_iter().map(|line| line.case).collect()
}

/// The ids of [`cases`]: the adapter protocol's cases that draw generated inputs (a
/// failure of one is the seed's, `--fail-fast=fixed` does not stop at it).
pub fn ids(seed: u64) -> std::collections::BTreeSet<String> {
    lines(seed).into_iter().map(|line| line.case.id).collect()
}

/// What a line is, beside its case (for the tests, which must not read it back out of
/// the comment's prose).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    /// Canonical request `request`, its `n`-th spelling (the last uses every freedom).
    Spelling { request: u64, full: bool },
    /// `miss` planted in canonical request `request`, at a fixed place or a drawn one
    /// (`at`, taken modulo the number of places of its kind).
    NearMiss {
        miss: NearMiss,
        request: u64,
        fixed: bool,
        at: usize,
    },
}

/// One line and what it is.
struct Line {
    case: WireCase,
    #[cfg_attr(not(test), expect(dead_code, reason = "what the tests read"))]
    kind: Kind,
}

/// [`cases`], each with its [`Kind`].
fn lines(seed: u64) -> Vec<Line> {
    let mut out = Vec::new();
    let mut id = FIRST_ID;
    let case = |id: u64, comment: String, line: String, expect: WireExpect, kind: Kind| Line {
        case: WireCase {
            id: format!("spelled/{id}"),
            check: CHECK.into(),
            rules: Vec::new(),
            comment: Some(comment),
            send: WireSend::Line(line),
            expect,
        },
        kind,
    };
    for which in 0..4 {
        for n in 0..SPELLINGS {
            let (request, result) = canonical(which, id);
            let spelling = mix(seed, id);
            // The last spelling of each request uses every freedom at every place.
            let full = n + 1 == SPELLINGS;
            let Some(line) = respell_line(&request, spelling, None, full) else {
                continue;
            };
            out.push(case(
                id,
                format!(
                    "request {which} spelled again (spelling seed {spelling}, {n}): answered as written canonically"
                ),
                line,
                WireExpect::Holds {
                    id: request["id"].clone(),
                    result,
                },
                Kind::Spelling {
                    request: which,
                    full,
                },
            ));
            id += 1;
        }
    }
    for (n, miss) in misses().enumerate() {
        // A fixed place goes into every canonical request that has a place of its kind
        // (an implementation may read some requests more strictly than others: the
        // same near-miss in each, on every seed); a drawn place into a drawn request.
        let planted = places(miss).iter().flat_map(|&place| {
            let requests: Vec<Option<u64>> = match place {
                Some(_) => (0..4).map(Some).collect(),
                None => vec![None],
            };
            requests.into_iter().map(move |which| (place, which))
        });
        for (place, which) in planted {
            let drawn = mix(seed, id);
            let at = place.unwrap_or((drawn >> 8) as usize);
            // The request given, or the drawn one (or the next one that has a place of
            // the near-miss's kind).
            let candidates: Vec<u64> = match which {
                Some(which) => vec![which],
                None => (0..4).map(|step| drawn.wrapping_add(step) % 4).collect(),
            };
            let line = candidates.into_iter().find_map(|which| {
                let (request, _) = canonical(which, id);
                respell_line(&request, drawn, Some((miss, at)), false).map(|line| (which, line))
            });
            let Some((which, line)) = line else {
                continue;
            };
            let comment = format!(
                "near-miss {n} ({miss:?}) in request {which} at place {} of its kind (spelling seed {drawn}): not JSON, refused",
                match place {
                    Some(0) => "first".to_string(),
                    Some(_) => "last".to_string(),
                    None => format!("{at} (drawn)"),
                }
            );
            let refused = WireExpect::Error {
                kind: "bad_request".into(),
                id: Value::Null,
                field: None,
            };
            let kind = Kind::NearMiss {
                miss,
                request: which,
                fixed: place.is_some(),
                at,
            };
            out.push(case(id, comment, line, refused, kind));
            id += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every spelling is one line, parses to its canonical request, and differs from it
    /// for some seed; every near-miss is one line that a strict reader refuses (or, for
    /// a key twice and a lone surrogate, reads only by breaking a rule of the adapter).
    #[test]
    fn spellings_are_the_request_and_near_misses_are_not_json() {
        let mut varied = false;
        // (near-miss, request) of the lines at a fixed place, and of those at a drawn one.
        let kinds = |lines: &[Line], at_fixed: bool| -> std::collections::BTreeSet<String> {
            lines
                .iter()
                .filter_map(|line| match line.kind {
                    Kind::NearMiss {
                        miss,
                        request,
                        fixed,
                        ..
                    } if fixed == at_fixed => Some(format!("{miss:?} in request {request}")),
                    _ => None,
                })
                .collect()
        };
        let fixed = kinds(&lines(0), true);
        let mut drawn_anywhere = std::collections::BTreeSet::new();
        for seed in 0..40u64 {
            let lines = lines(seed);
            assert!(lines.len() as u64 > 4 * SPELLINGS + 2 * misses().count() as u64);
            assert_eq!(kinds(&lines, true), fixed, "seed {seed}");
            drawn_anywhere.extend(kinds(&lines, false));
            for Line { case, kind } in &lines {
                let WireSend::Line(line) = &case.send else {
                    panic!("{}", case.id);
                };
                assert!(!line.contains('\n') && !line.contains('\r'), "{line}");
                let parsed = serde_json::from_str::<Value>(line);
                match &case.expect {
                    WireExpect::Holds { id, .. } => {
                        let parsed = parsed.unwrap_or_else(|e| panic!("{line}: {e}"));
                        assert_eq!(&parsed["id"], id);
                        assert!(
                            (0..4).any(|w| canonical(w, 0).0["op"] == parsed["op"]),
                            "{line}"
                        );
                        varied |= line != &parsed.to_string();
                    }
                    WireExpect::Error { .. } => {
                        let json_but_refused = matches!(
                            kind,
                            Kind::NearMiss {
                                miss: NearMiss::DuplicateKey | NearMiss::LoneSurrogateEscape,
                                ..
                            }
                        );
                        assert!(json_but_refused || parsed.is_err(), "{}: {line}", case.id);
                    }
                    _ => panic!("{}", case.id),
                }
            }
        }
        assert!(varied);
        // The seed never reaches a request that the fixed places leave out: each
        // near-miss stands in every request it can, on every seed.
        assert!(!fixed.is_empty());
        let missed: Vec<&String> = drawn_anywhere.difference(&fixed).collect();
        assert!(missed.is_empty(), "drawn only: {missed:?}");
    }

    /// The mix is SplitMix64's: its published outputs for state 0 (`0xE220A8397B1DCDAF`,
    /// `0x6E789E6AA1B965F4`), and the seed entering by XOR (a seed whose XOR with the
    /// golden ratio is twice it gives the second output at line 1).
    #[test]
    fn the_mix_is_splitmix64() {
        assert_eq!(mix(0, 1), 0xE220_A839_7B1D_CDAF);
        assert_eq!(mix(0, 2), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(mix(0xA259_8ACB_81DE_843F, 1), 0x6E78_9E6A_A1B9_65F4);
    }

    /// The four canonical requests are four different requests, by hand: both
    /// protocols, a hash, positions of each, and a session; numbered modulo four.
    #[test]
    fn the_canonical_requests_are_four_different_ops() {
        let ops: Vec<(String, String)> = (0..4)
            .map(|which| {
                let (request, _) = canonical(which, 7);
                (
                    request["protocol"].as_str().unwrap_or_default().to_string(),
                    request["op"].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect();
        let pair = |p: &str, o: &str| (p.to_string(), o.to_string());
        assert_eq!(
            ops,
            [
                pair("doc-membership-v1", "sha256"),
                pair("doc-membership-v1", "positions"),
                pair("fnv1a-utf16-v1", "positions"),
                pair("fnv1a-utf16-v1", "session"),
            ]
        );
        assert_eq!(canonical(5, 7), canonical(1, 7));
    }

    /// Whitespace that RFC 8259 does not allow stands, in every request on every seed,
    /// at the start of a line and at its end (where a reader that trims the line meets
    /// it; only the spelling's own whitespace around it), besides a drawn place.
    #[test]
    fn bad_whitespace_stands_first_and_last_in_every_request() {
        let whitespace = [
            (NearMiss::NoBreakSpace, '\u{a0}'),
            (NearMiss::LineSeparator, '\u{2028}'),
            (NearMiss::VerticalTab, '\u{b}'),
            (NearMiss::FormFeed, '\u{c}'),
        ];
        for seed in 0..8u64 {
            let lines = lines(seed);
            for (kind, space) in whitespace {
                for which in 0..4 {
                    let fixed: Vec<&str> = lines
                        .iter()
                        .filter(|l| {
                            matches!(l.kind, Kind::NearMiss { miss, request, fixed: true, .. }
                                if miss == kind && request == which)
                        })
                        .filter_map(|l| match &l.case.send {
                            WireSend::Line(line) => Some(line.as_str()),
                            _ => None,
                        })
                        .collect();
                    // Around it, the spelling's own whitespace (RFC 8259's).
                    let json_space = [' ', '\t', '\n', '\r'];
                    let first = fixed
                        .iter()
                        .any(|line| line.trim_start_matches(json_space).starts_with(space));
                    let last = fixed
                        .iter()
                        .any(|line| line.trim_end_matches(json_space).ends_with(space));
                    assert!(
                        first && last,
                        "{kind:?} in request {which}, seed {seed}: {fixed:?}"
                    );
                }
            }
        }
    }

    /// The spelling that uses every freedom puts a tab and an escape in every request.
    #[test]
    fn the_full_spelling_holds_tabs_and_escapes() {
        for seed in 0..20u64 {
            for Line { case, .. } in lines(seed)
                .iter()
                .filter(|l| matches!(l.kind, Kind::Spelling { full: true, .. }))
            {
                let WireSend::Line(line) = &case.send else {
                    panic!("{}", case.id);
                };
                assert!(line.contains('\t') && line.contains("\\u"), "{line}");
            }
        }
    }

    /// Each request is spelled `SPELLINGS` ways, the last (only) with every freedom; the
    /// lines' ids count up by one from `FIRST_ID`, spellings first.
    #[test]
    fn the_last_spelling_is_the_full_one_and_ids_count_up() {
        for seed in 0..4u64 {
            let lines = lines(seed);
            for which in 0..4 {
                let full: Vec<bool> = lines
                    .iter()
                    .filter_map(|l| match l.kind {
                        Kind::Spelling { request, full } if request == which => Some(full),
                        _ => None,
                    })
                    .collect();
                assert_eq!(full, [false, true], "request {which}, seed {seed}");
            }
            let ids: Vec<String> = lines.iter().map(|l| l.case.id.clone()).collect();
            let counted: Vec<String> = (FIRST_ID..)
                .take(ids.len())
                .map(|id| format!("spelled/{id}"))
                .collect();
            assert_eq!(ids, counted, "seed {seed}");
        }
    }

    /// A drawn place is drawn from all of the line's draw (its bits above the request's
    /// two), so that taken modulo a number of places it reaches every one: over a few
    /// seeds, drawn places of either parity and in each residue modulo 4 and 3.
    #[test]
    fn drawn_places_reach_every_residue() {
        let mut residues = std::collections::BTreeSet::new();
        for seed in 0..16u64 {
            for line in lines(seed) {
                if let Kind::NearMiss {
                    fixed: false, at, ..
                } = line.kind
                {
                    residues.insert((4, at % 4));
                    residues.insert((3, at % 3));
                }
            }
        }
        let every: std::collections::BTreeSet<(usize, usize)> = (0..4)
            .map(|r| (4, r))
            .chain((0..3).map(|r| (3, r)))
            .collect();
        assert_eq!(residues, every);
    }
}
