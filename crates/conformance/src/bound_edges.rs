//! The edges of every row of the table of bounds (`spec/bounds.json`), on every run:
//! each row has a driver ([`DRIVERS`]) that turns its value into inputs at the bound,
//! one past it and far past it (and at, and one below, its `min` where the low end is a
//! bound too), judged by a check of the row's own class:
//!
//! * the `doc-membership-v1` contract rows: the edges of the `typed` generator
//!   (`doc_membership_v1::generated::typed`, core and interop);
//! * the `fnv1a-utf16-v1` core rows (m, k, a string's length, the distinct entries):
//!   edge scripts of the generated sessions judged by the page's rules
//!   (`generated_sessions_follow_the_page`, core);
//! * the `fnv1a-utf16-v1` interop rows (history, drafts, import size, local save):
//!   edge scripts judged against the reference session model
//!   (`generated_sessions_agree_with_model`, interop), with text whose UTF-8 bytes,
//!   UTF-16 code units and code points differ;
//! * the adapter-protocol rows and the interop rows of the adapter's contract errors:
//!   request lines of the adapter protocol's own checks ([`wire_cases`]), each with the
//!   answer the rule gives it.
//!
//! "Far past" is 2^32 plus the row's lowest valid value for an integer (so a reader that
//! cuts it to 32 bits reads a valid value), four times the bound for a count, a length
//! or a size (which the adapter builds or reads whole). A row without a driver is a load
//! error ([`undriven`]), so a bound added to the table is driven or the spec does not
//! load.

use bloomproof_wire::adapter_checks::{WireCase, WireExpect, WireFile, WireSend};
use serde_json::{Value, json};

/// The file's name in the spec folder.
pub const FILE: &str = "bounds.json";

/// One row of the table: what the drivers read of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// Its id (`doc.m`, `fnv.save`, ...).
    pub id: String,
    /// Its unit (`integer`, `bytes`, `UTF-16 code units`, ...).
    pub unit: String,
    /// The low bound, where there is one.
    pub min: Option<u64>,
    /// The high bound, inclusive.
    pub max: u64,
    /// The class of its rule.
    pub class: String,
}

/// The rows of a table's text.
pub fn rows_of(bytes: &[u8]) -> Result<Vec<Row>, String> {
    let table: Value =
        serde_json::from_slice(bytes).map_err(|err| format!("spec/{FILE}: {err}"))?;
    let rows = table["bounds"]
        .as_array()
        .ok_or_else(|| format!("spec/{FILE} has no `bounds` array"))?;
    rows.iter()
        .map(|row| {
            let text = |key: &str| {
                row[key]
                    .as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("spec/{FILE}: a row without `{key}`: {row}"))
            };
            Ok(Row {
                id: text("id")?,
                unit: text("unit")?,
                min: row["min"].as_u64(),
                max: row["max"]
                    .as_u64()
                    .ok_or_else(|| format!("spec/{FILE}: a row without `max`: {row}"))?,
                class: text("class")?,
            })
        })
        .collect()
}

/// The rows of the table the runner carries.
pub fn rows() -> Result<Vec<Row>, String> {
    rows_of(
        crate::embedded::file(FILE).ok_or_else(|| format!("the runner carries no spec/{FILE}"))?,
    )
}

/// Where a row's edges are judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Driver {
    /// The edges of `doc-membership-v1`'s `typed` generator.
    DocTyped,
    /// Edge scripts of `fnv1a-utf16-v1`'s generated sessions, judged by the page (core).
    FnvPage,
    /// Edge scripts of `fnv1a-utf16-v1`'s generated sessions, judged against the
    /// reference model (interop).
    FnvModel,
    /// Request lines of this adapter-protocol check.
    Wire(&'static str),
}

/// The driver of every row the table holds.
pub const DRIVERS: [(&str, Driver); 25] = [
    ("doc.m", Driver::DocTyped),
    ("doc.k", Driver::DocTyped),
    ("doc.seed", Driver::DocTyped),
    ("doc.records", Driver::DocTyped),
    ("doc.record", Driver::DocTyped),
    ("doc.item", Driver::DocTyped),
    ("doc.read.records", Driver::Wire("contract_errors_named")),
    ("doc.read.record", Driver::Wire("contract_errors_named")),
    ("doc.params.m", Driver::Wire("contract_errors_named")),
    ("doc.params.k", Driver::Wire("contract_errors_named")),
    ("doc.params.seed", Driver::Wire("contract_errors_named")),
    ("doc.frame.index", Driver::Wire("contract_errors_named")),
    ("fnv.m", Driver::FnvPage),
    ("fnv.k", Driver::FnvPage),
    ("fnv.string", Driver::FnvPage),
    ("fnv.entries", Driver::FnvPage),
    ("fnv.history", Driver::FnvModel),
    ("fnv.draft", Driver::FnvModel),
    ("fnv.import", Driver::FnvModel),
    ("fnv.save", Driver::FnvModel),
    ("fnv.positions.units", Driver::Wire("contract_errors_named")),
    ("adapter.script", Driver::Wire("script_step_limit")),
    ("adapter.nesting", Driver::Wire("nesting_limit")),
    ("adapter.response", Driver::Wire("response_size_limit")),
    ("adapter.items", Driver::Wire("response_size_limit")),
];

/// The driver of row `id`.
pub fn driver(id: &str) -> Option<Driver> {
    DRIVERS.iter().find(|(row, _)| *row == id).map(|&(_, d)| d)
}

/// What is wrong with a table's rows: a row without a driver, or a driver of an
/// adapter check judging a row of another class (an adapter check is of class
/// `adapter`, `contract_errors_named` of class `interop`).
pub fn undriven(rows: &[Row]) -> Vec<String> {
    let mut out = Vec::new();
    for row in rows {
        match driver(&row.id) {
            None => out.push(format!(
                "bound {} has no edge generator (crates/conformance/src/bound_edges.rs DRIVERS): \
                 every row of the table is driven at its edges on every run",
                row.id
            )),
            Some(Driver::Wire(check)) => {
                let class = if check == "contract_errors_named" {
                    "interop"
                } else {
                    "adapter"
                };
                if row.class != class {
                    out.push(format!(
                        "bound {} is of class {} but its edges go to adapter-protocol/{check} ({class})",
                        row.id, row.class
                    ));
                }
            }
            Some(Driver::FnvPage | Driver::DocTyped) if row.class != "core" => out.push(format!(
                "bound {} is of class {} but its edges are judged by a core check",
                row.id, row.class
            )),
            Some(Driver::FnvModel) if row.class != "interop" => out.push(format!(
                "bound {} is of class {} but its edges are judged by an interop check",
                row.id, row.class
            )),
            Some(_) => {}
        }
    }
    out
}

/// One edge value of a row and whether the rule lets it through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// The value.
    pub value: u64,
    /// Whether it is within the bounds.
    pub within: bool,
}

/// The edge values of a row: its max (within), one past it, far past it; its min
/// (within) and one below it, where it has a min above 0.
pub fn points(row: &Row) -> Vec<Point> {
    let far = if row.unit == "integer" {
        (1u64 << 32) + row.min.unwrap_or(0)
    } else {
        4 * row.max
    };
    let mut out = vec![
        Point {
            value: row.max,
            within: true,
        },
        Point {
            value: row.max + 1,
            within: false,
        },
        Point {
            value: far,
            within: false,
        },
    ];
    if let Some(min) = row.min.filter(|&min| min > 0) {
        out.push(Point {
            value: min,
            within: true,
        });
        out.push(Point {
            value: min - 1,
            within: false,
        });
    }
    out
}

/// The rows of the table the runner carries that `driver` drives.
pub fn rows_driven_by(driver: Driver) -> Result<Vec<Row>, String> {
    Ok(rows()?
        .into_iter()
        .filter(|row| self::driver(&row.id) == Some(driver))
        .collect())
}

/// `wire` with the request lines of [`wire_cases`] after its own cases (none when the
/// runner's table cannot be read: the loader refuses such a spec), then the spellings
/// and near-misses of `crate::spelled_requests` the run's `seed` draws: the adapter
/// protocol's own checks with their generated lines.
pub fn with_edges(wire: &WireFile, seed: u64) -> WireFile {
    let mut out = wire.clone();
    if let Ok(rows) = rows() {
        out.cases.extend(wire_cases(&rows));
    }
    if out
        .checks
        .iter()
        .any(|c| c.name == crate::spelled_requests::CHECK)
    {
        out.cases.extend(crate::spelled_requests::cases(seed));
    }
    out.case_count = out.cases.len();
    out
}

/// The most bytes a response line may hold (ADAPTER-RESPONSE-LINE; the row
/// `adapter.response`, which the bounds test holds to the rule's text).
const RESPONSE_LINE_MAX: u64 = 1_048_576;

/// The first id of the generated request lines: above every id of the file's cases
/// (all below 100), below the runner's own requests
/// (`crate::adapter_checks::FIRST_REQUEST_ID`).
const FIRST_ID: u64 = 100;

/// The request lines of every row driven by an adapter-protocol check, with what the
/// rule answers each (the check each belongs to is the row's driver).
pub fn wire_cases(rows: &[Row]) -> Vec<WireCase> {
    let mut out = Vec::new();
    let mut id = FIRST_ID;
    for row in rows {
        let Some(Driver::Wire(check)) = driver(&row.id) else {
            continue;
        };
        for point in points(row) {
            for (send, expect, comment) in row_lines(row, point, id) {
                out.push(WireCase {
                    id: format!("bounds/{}/{}", row.id, point.value),
                    check: check.to_string(),
                    rules: Vec::new(),
                    comment: Some(comment),
                    send,
                    expect,
                });
                id += 1;
            }
        }
    }
    distinct_ids(&mut out);
    out
}

/// Two lines of one point (no row has them today) keep distinct case ids: the second
/// and later of an id get `#1`, `#2`, ...
fn distinct_ids(cases: &mut [WireCase]) {
    let mut seen = std::collections::BTreeMap::new();
    for case in cases {
        let n = seen.entry(case.id.clone()).or_insert(0u32);
        if *n > 0 {
            case.id = format!("{}#{n}", case.id);
        }
        *n += 1;
    }
}

fn doc_line(id: u64, op: &str, rest: Value) -> String {
    let mut request =
        json!({"id": id, "protocol": crate::subjects::doc_membership_v1::NAME, "op": op});
    if let (Some(request), Some(rest)) = (request.as_object_mut(), rest.as_object()) {
        request.extend(rest.clone());
    }
    request.to_string()
}

/// The lines of one point of one row: the request, what comes back, and why.
fn row_lines(row: &Row, point: Point, id: u64) -> Vec<(WireSend, WireExpect, String)> {
    let v = point.value;
    let value_error = |field: &str| WireExpect::Error {
        kind: "value".into(),
        id: json!(id),
        field: Some(field.into()),
    };
    let answered = WireExpect::Result { id: json!(id) };
    let refused_with_id = WireExpect::Error {
        kind: "bad_request".into(),
        id: json!(id),
        field: None,
    };
    let judged = |field: &str| {
        if point.within {
            answered.clone()
        } else {
            value_error(field)
        }
    };
    let hex = |n: u64, byte: u8| oracle_hex(&vec![byte; n as usize]);
    let params = |m: u64, k: u64, seed: String| json!({"m": m, "k": k, "seed_hex": seed});
    let why = |what: &str| {
        format!(
            "{}: {what} {v} ({})",
            row.id,
            if point.within {
                "within the bound"
            } else {
                "past the bound"
            }
        )
    };
    match row.id.as_str() {
        "doc.params.m" => vec![(
            WireSend::Line(doc_line(id, "positions", json!({"params": params(v, 3, String::new()), "item": ""}))),
            judged("m"),
            why("positions with m"),
        )],
        "doc.params.k" => vec![(
            WireSend::Line(doc_line(id, "positions", json!({"params": params(16, v, String::new()), "item": ""}))),
            judged("k"),
            why("positions with k"),
        )],
        "doc.params.seed" => vec![(
            WireSend::Line(doc_line(id, "positions", json!({"params": params(16, 3, hex(v, 0xa5)), "item": ""}))),
            judged("seed"),
            why("positions with a seed of bytes"),
        )],
        "doc.read.records" => {
            let records: Vec<String> = (0..v).map(|i| format!("{:04x}", i)).collect();
            vec![(
                WireSend::Line(doc_line(id, "build", json!({"params": params(64, 3, String::new()), "records": records}))),
                judged("records"),
                why("build with distinct records:"),
            )]
        }
        "doc.read.record" => vec![(
            WireSend::Line(doc_line(id, "build", json!({"params": params(64, 3, String::new()), "records": ["00", hex(v, 0x5a)]}))),
            judged("records[1]"),
            why("build whose second record has bytes:"),
        )],
        // k 8: the hash indices are 0..=7, so every point of the row (255, 256, 2^32,
        // which a 32-bit reader cuts to 0) is not below k: a contract error naming `index`.
        "doc.frame.index" => vec![(
            WireSend::Line(doc_line(id, "frame", json!({"params": params(16, 8, String::new()), "index": v, "item": ""}))),
            if v < 8 { answered } else { value_error("index") },
            why("frame with k 8 and index"),
        )],
        "fnv.positions.units" => vec![(
            WireSend::Line(
                json!({"id": id, "protocol": crate::subjects::fnv1a_utf16_v1::NAME, "op": "positions",
                    "m": 8, "k": 1, "units": vec![0xe9u16; v as usize]})
                .to_string(),
            ),
            judged("units"),
            why("positions of units (U+00E9, two UTF-8 bytes each):"),
        )],
        "adapter.script" => vec![(
            WireSend::Session { id, steps: v as usize },
            if point.within { answered } else { refused_with_id },
            why("a session script of steps:"),
        )],
        "adapter.nesting" => vec![(
            WireSend::Line(nested(id, v as usize)),
            if point.within {
                answered
            } else {
                WireExpect::Error {
                    kind: "bad_request".into(),
                    id: Value::Null,
                    field: None,
                }
            },
            why("a request nested levels:"),
        )],
        // Within: answered. Past: an answer longer than a response line is refused; one
        // that still fits (16369 items written compactly, about 1047649 bytes) may be
        // written or refused by the adapter's own count (ADAPTER-RESPONSE-SIZE names
        // 16368 as what every writing fits), so only one every writing overflows must be
        // refused.
        "adapter.items" => {
            let items = v as usize;
            let overflows = least_answer_bytes(items, id) > RESPONSE_LINE_MAX;
            vec![(
                WireSend::LookupMany { id, items },
                if point.within {
                    answered
                } else if overflows {
                    refused_with_id
                } else {
                    WireExpect::ResultOrRefused { id: json!(id) }
                },
                why("lookup_many of items:"),
            )]
        }
        "adapter.response" => {
            // A response's length in bytes depends on the adapter's whitespace: the byte
            // bound is driven by `lookup_many` answers whose every spelling is longer than
            // the point (one past, far past), and at it by the most items the rule lets
            // through (16368, ADAPTER-RESPONSE-SIZE), whose compact answer is under it.
            let items = if point.within {
                16368
            } else {
                least_items_over(v, id)
            };
            vec![(
                WireSend::LookupMany { id, items },
                if point.within { answered } else { refused_with_id },
                format!(
                    "{}: lookup_many of {items} items: an answer {} {v} bytes however written",
                    row.id,
                    if point.within { "that fits within" } else { "longer than" }
                ),
            )]
        }
        _ => Vec::new(),
    }
}

fn oracle_hex(bytes: &[u8]) -> String {
    bloomproof_oracle::hex::encode(bytes)
}

/// The shortest a `lookup_many` answer of `items` results to request `id` can be: the
/// compact `{"id":..,"result":{"results":[..]}}` with each triple
/// `{"maybe_present":false,"exact_checked":false,"duplicate":false}` (63 bytes; `true`
/// is shorter by one: the empty snapshot answers false) and a comma between two.
pub fn least_answer_bytes(items: usize, id: u64) -> u64 {
    let shell = format!("{{\"id\":{id},\"result\":{{\"results\":[]}}}}").len() as u64;
    let triple =
        "{\"maybe_present\":false,\"exact_checked\":false,\"duplicate\":false}".len() as u64;
    shell + triple * items as u64 + (items as u64).saturating_sub(1)
}

/// The fewest items whose every answer is longer than `bytes`: the least answer of
/// n >= 1 items is `least_answer_bytes(1, id) - 64 + 64 n` bytes (a triple and its
/// comma are 64), so n is the least with that over `bytes`.
fn least_items_over(bytes: u64, id: u64) -> usize {
    let base = least_answer_bytes(1, id) - 64;
    usize::try_from(bytes.saturating_sub(base) / 64 + 1).unwrap_or(usize::MAX)
}

/// A `session` request whose `import` document nests arrays so that the request is
/// `levels` deep (the request object the first level, the script the second, the step
/// the third, the document the fourth).
fn nested(id: u64, levels: usize) -> String {
    let arrays = levels.saturating_sub(4);
    format!(
        "{{\"id\":{id},\"protocol\":\"{}\",\"op\":\"session\",\"script\":[{{\"op\":\"import\",\"document\":{{\"x\":{}{}}}}}]}}",
        crate::subjects::fnv1a_utf16_v1::NAME,
        "[".repeat(arrays),
        "]".repeat(arrays)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Vec<Row> {
        let text = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/bounds.json"),
        )
        .unwrap_or_default();
        rows_of(&text).unwrap_or_else(|err| panic!("{err}"))
    }

    /// Every row of the table has a driver of its class, every driver a row, and the
    /// runner carries the same table.
    #[test]
    fn every_row_is_driven_at_its_class() {
        let rows = table();
        assert_eq!(undriven(&rows), Vec::<String>::new());
        for (id, _) in DRIVERS {
            assert!(rows.iter().any(|r| r.id == id), "driver of no row: {id}");
        }
        let response = rows.iter().find(|r| r.id == "adapter.response");
        assert_eq!(response.map(|r| r.max), Some(RESPONSE_LINE_MAX));
        assert_eq!(super::rows().ok(), Some(rows));
    }

    /// The check a row's driver feeds is among the checks the table says judge it.
    #[test]
    fn the_table_names_the_check_each_driver_feeds() {
        let text = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/bounds.json"),
        )
        .unwrap_or_default();
        let table: Value = serde_json::from_slice(&text).unwrap_or(Value::Null);
        for row in table["bounds"].as_array().into_iter().flatten() {
            let id = row["id"].as_str().unwrap_or_default();
            let fed = match driver(id) {
                Some(Driver::DocTyped) => {
                    "doc-membership-v1/generated_typed_contract_agrees_with_oracle".to_string()
                }
                Some(Driver::FnvPage) => {
                    "fnv1a-utf16-v1/generated_sessions_follow_the_page".to_string()
                }
                Some(Driver::FnvModel) => {
                    "fnv1a-utf16-v1/generated_sessions_agree_with_model".to_string()
                }
                Some(Driver::Wire(check)) => format!("adapter-protocol/{check}"),
                None => panic!("{id}: no driver"),
            };
            let judged = row["judged_by"].as_array().into_iter().flatten();
            assert!(
                judged.clone().any(|c| c.as_str() == Some(fed.as_str())),
                "{id}: judged_by does not name {fed}"
            );
        }
    }

    /// The id a wire case's request carries (a line's `id` read from its text).
    fn sent_id(send: &WireSend) -> Option<u64> {
        match send {
            WireSend::Line(line) => serde_json::from_str::<Value>(line).ok()?["id"].as_u64(),
            WireSend::Session { id, .. } | WireSend::LookupMany { id, .. } => Some(*id),
            WireSend::LineHex(_) => None,
        }
    }

    /// Each generated line carries an id of its own, above every id of the file's cases
    /// and below the runner's own requests, so an answer in a log names its line.
    #[test]
    fn edge_lines_have_ids_of_their_own_between_the_files_and_the_runners() {
        let cases = wire_cases(&table());
        let ids: Vec<u64> = cases.iter().filter_map(|c| sent_id(&c.send)).collect();
        assert!(ids.len() > 1, "edge lines with ids: {}", ids.len());
        let distinct: std::collections::BTreeSet<_> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len(), "ids repeat: {ids:?}");
        for id in ids {
            assert!(
                (FIRST_ID..crate::adapter_checks::FIRST_REQUEST_ID).contains(&id),
                "id {id} outside {FIRST_ID}..{}",
                crate::adapter_checks::FIRST_REQUEST_ID
            );
        }
    }

    /// Every edge line is answered as its rule says by an honest adapter, the
    /// repository's Rust one (`bloomproof adapter`'s line handler): a line that is not
    /// the request its row means, or an expectation the rule does not give, fails here.
    #[test]
    fn an_honest_adapter_answers_every_edge_line_as_expected() {
        let cases = wire_cases(&table());
        assert!(!cases.is_empty());
        for case in &cases {
            let line = crate::adapter_checks::line(&case.send);
            let line = String::from_utf8(line).unwrap_or_else(|_| panic!("{}: not UTF-8", case.id));
            let line = line.trim_end_matches('\n');
            let response = bloomproof_adapter::serve::respond(line);
            let response: Option<Value> = serde_json::from_str(&response).ok();
            let verdict = crate::adapter_checks::judge(&case.expect, response.as_ref());
            assert_eq!(verdict, None, "{}: {}", case.id, quote(line));
        }
    }

    /// Case ids repeated by several lines of one point get a number each.
    #[test]
    fn repeated_case_ids_are_numbered() {
        let mut cases = wire_cases(&table());
        let first = cases[0].id.clone();
        for case in cases.iter_mut().take(3) {
            case.id = first.clone();
        }
        let unchanged = cases[3].id.clone();
        distinct_ids(&mut cases);
        let ids: Vec<&str> = cases.iter().take(4).map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                first.clone(),
                format!("{first}#1"),
                format!("{first}#2"),
                unchanged
            ]
        );
    }

    /// The `adapter.items` row's lines, by hand: a `lookup_many` answer to a 3-digit id
    /// is at least `{"id":NNN,"result":{"results":[]}}` (34 bytes) plus 63 bytes a
    /// triple and a comma between two, 33 + 64 n bytes. At the bound (16368 items) it is
    /// answered; one past (16369: 1047649 bytes, under 1048576) an adapter may write or
    /// refuse it; far past (4 x 16368 = 65472: 4190241 bytes) every writing overflows,
    /// so it must be refused with the request's id.
    #[test]
    fn items_past_the_bound_are_refused_only_where_every_answer_overflows() {
        assert_eq!(least_answer_bytes(16369, 100), 1_047_649);
        assert_eq!(least_answer_bytes(65472, 100), 4_190_241);
        assert_eq!(least_answer_bytes(16383, 100), 1_048_545);
        assert_eq!(least_answer_bytes(16384, 100), 1_048_609);
        let rows = table();
        let row = rows.iter().find(|r| r.id == "adapter.items");
        let lines = wire_cases(row.map(std::slice::from_ref).unwrap_or_default());
        let kinds: Vec<(usize, &str)> = lines
            .iter()
            .map(|case| {
                let WireSend::LookupMany { items, .. } = case.send else {
                    panic!("{}: not a lookup_many", case.id)
                };
                let kind = match &case.expect {
                    WireExpect::Result { .. } => "answered",
                    WireExpect::ResultOrRefused { .. } => "either",
                    WireExpect::Error { kind, .. } if kind == "bad_request" => "refused",
                    other => panic!("{}: {other:?}", case.id),
                };
                (items, kind)
            })
            .collect();
        assert_eq!(
            kinds,
            [(16368, "answered"), (16369, "either"), (65472, "refused")]
        );
    }

    /// The fewest items over a response line, by hand: 33 + 64 n bytes for a 3-digit id
    /// (`items_past_the_bound_are_refused_only_where_every_answer_overflows`), over
    /// 1048576 from n = 16384 (1048609; 16383 give 1048545), over 4194304 from 65536.
    #[test]
    fn the_fewest_items_over_a_size_by_hand() {
        assert_eq!(least_items_over(1_048_576, 100), 16384);
        assert_eq!(least_items_over(1_048_577, 100), 16384);
        assert_eq!(least_items_over(1_048_608, 100), 16384);
        assert_eq!(least_items_over(1_048_609, 100), 16385);
        assert_eq!(least_items_over(4_194_304, 100), 65536);
        // A 4-digit id's answer is a byte longer: 16384 items are 1048610 bytes.
        assert_eq!(least_items_over(1_048_609, 1000), 16384);
    }

    fn quote(line: &str) -> String {
        line.chars().take(200).collect()
    }

    /// The spelled request lines are added to a wire file only when it documents their
    /// check (a file without it gets the bounds' lines alone).
    #[test]
    fn spelled_lines_join_only_a_file_that_documents_their_check() {
        let full = crate::load::load_embedded().unwrap_or_else(|err| panic!("{err:?}"));
        let wire = full.wire.as_ref().unwrap_or_else(|| panic!("no wire file"));
        let spelled = |file: &WireFile| {
            file.cases
                .iter()
                .filter(|c| c.check == crate::spelled_requests::CHECK)
                .count()
        };
        let own = spelled(wire);
        assert!(
            spelled(&with_edges(wire, 7)) > own,
            "the spelled lines were not added"
        );
        let mut without = wire.clone();
        without
            .checks
            .retain(|c| c.name != crate::spelled_requests::CHECK);
        without
            .cases
            .retain(|c| c.check != crate::spelled_requests::CHECK);
        assert_eq!(spelled(&with_edges(&without, 7)), 0);
    }

    /// A row without a driver, or driven at another class, is an error.
    #[test]
    fn a_row_without_a_driver_is_an_error() {
        let row = |id: &str, class: &str| Row {
            id: id.into(),
            unit: "bytes".into(),
            min: None,
            max: 4,
            class: class.into(),
        };
        assert_eq!(undriven(&[row("fnv.save", "interop")]).len(), 0);
        assert_eq!(undriven(&[row("fnv.new-limit", "interop")]).len(), 1);
        assert_eq!(undriven(&[row("fnv.save", "core")]).len(), 1);
        assert_eq!(undriven(&[row("adapter.script", "interop")]).len(), 1);
        assert_eq!(undriven(&[row("adapter.script", "adapter")]).len(), 0);
        // Each kind of driver judges at its own class: the page and the typed contract
        // at core, `contract_errors_named` at interop.
        for (id, class) in [
            ("doc.m", "core"),
            ("fnv.m", "core"),
            ("doc.read.records", "interop"),
        ] {
            assert_eq!(undriven(&[row(id, class)]).len(), 0, "{id} at {class}");
            for other in ["core", "interop", "hardening", "adapter"] {
                if other != class {
                    assert_eq!(undriven(&[row(id, other)]).len(), 1, "{id} at {other}");
                }
            }
        }
    }

    #[test]
    fn points_are_at_one_past_and_far_past() {
        let row = Row {
            id: "doc.m".into(),
            unit: "integer".into(),
            min: Some(8),
            max: 512,
            class: "core".into(),
        };
        let got: Vec<(u64, bool)> = points(&row).iter().map(|p| (p.value, p.within)).collect();
        assert_eq!(
            got,
            [
                (512, true),
                (513, false),
                ((1 << 32) + 8, false),
                (8, true),
                (7, false)
            ]
        );
        let row = Row {
            unit: "bytes".into(),
            min: None,
            max: 64,
            ..row
        };
        let got: Vec<u64> = points(&row).iter().map(|p| p.value).collect();
        assert_eq!(got, [64, 65, 256]);
    }

    /// Every row driven by a wire check gives a line for each of its points, each
    /// expecting what its rule says; every line is one line of text.
    #[test]
    fn every_wire_row_drives_a_line_at_every_point() {
        let rows = table();
        let cases = wire_cases(&rows);
        for row in rows
            .iter()
            .filter(|r| matches!(driver(&r.id), Some(Driver::Wire(_))))
        {
            for point in points(row) {
                let id = format!("bounds/{}/{}", row.id, point.value);
                assert!(cases.iter().any(|c| c.id == id), "{id}");
            }
        }
        let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), cases.len());
        for case in &cases {
            let line = crate::adapter_checks::line(&case.send);
            assert!(!line.contains(&b'\n'), "{}", case.id);
        }
    }

    /// A request of `levels` levels is that deep, by hand: 127 levels are the four
    /// around the document and 123 arrays.
    #[test]
    fn nesting_is_counted_from_the_request_object() {
        let line = nested(1, 127);
        assert_eq!(line.matches('[').count(), 123 + 1);
        let value: Value = serde_json::from_str(&nested(1, 8)).unwrap_or(Value::Null);
        assert_eq!(value["script"][0]["document"]["x"], json!([[[[]]]]));
    }

    /// The answer of 16384 items is longer than 1 MiB however written; the most items
    /// the rule lets through fit when written compactly (by hand: 63 · 16368 + 16367 +
    /// 34 = 1047585 bytes).
    #[test]
    fn the_response_points_are_on_either_side() {
        assert_eq!(least_answer_bytes(16368, 100), 1_047_585);
        assert!(least_answer_bytes(16368, 999) <= 1_048_576);
        let over = least_items_over(1_048_576, 100);
        assert!(least_answer_bytes(over, 100) > 1_048_576);
        assert!(least_answer_bytes(over - 1, 100) <= 1_048_576);
    }
}
