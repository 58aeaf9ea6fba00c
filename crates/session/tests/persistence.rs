//! Export, import, migration, the v1 fixture and the local-save rule.
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

mod common;

use bloomproof_session::{
    DraftField, ErrorKind, HISTORY_CAP, IMPORT_MAX_BYTES, ImportError, LOCAL_SAVE_MAX_UNITS, Op,
    Outcome, Panel, SaveOutcome, Session, Text, save_local,
};
use common::*;
use serde_json::{Value, json};

const FIXTURE: &str = "../../spec/fnv1a-utf16-v1/session-v1.json";

/// The session the v1 fixture was written from.
fn fixture_session() -> Session {
    let mut session = created(8, 1);
    ok(&mut session, &Op::InsertExample {});
    ok(&mut session, &query("i"));
    ok(&mut session, &query("a"));
    ok(&mut session, &query(Text(vec![0xd800])));
    ok(
        &mut session,
        &Op::SetPanel {
            panel: Panel::Positions,
            open: true,
        },
    );
    ok(&mut session, &set_draft(DraftField::Query, "i"));
    session
}

/// A session exercising most of the state.
fn busy_session() -> Session {
    let mut session = created(16, 3);
    ok(&mut session, &Op::InsertExample {});
    ok(&mut session, &insert(Text(vec![0xd800, 0x62])));
    ok(&mut session, &insert("e\u{301} \"q\"\n"));
    ok(&mut session, &insert("a"));
    for q in ["x", "y", "a", "zz", "😀", "y"] {
        ok(&mut session, &query(q));
    }
    ok(
        &mut session,
        &Op::SetPanel {
            panel: Panel::Model,
            open: true,
        },
    );
    ok(
        &mut session,
        &set_draft(DraftField::Insert, "  spaced \u{e9} "),
    );
    ok(&mut session, &set_draft(DraftField::M, "016"));
    session
}

fn import_rejected(session: &mut Session, text: &str) -> ImportError {
    let before = session.clone();
    let error = match session.import(text) {
        Ok(()) => panic!("import accepted:\n{text}"),
        Err(error) => error,
    };
    assert_eq!(*session, before, "a failed import changed the session");
    error
}

#[test]
fn export_import_round_trip_gives_an_equal_session() {
    for session in [
        Session::new(),
        created(8, 1),
        fixture_session(),
        busy_session(),
        {
            let mut discarded = busy_session();
            ok(&mut discarded, &set_draft(DraftField::K, "4"));
            discarded
        },
        {
            let mut reset = busy_session();
            ok(&mut reset, &Op::Reset {});
            reset
        },
    ] {
        let text = session.export();
        let mut target = busy_session();
        target.import(&text).unwrap();
        assert_eq!(target, session, "{text}");
        assert_eq!(target.export(), text);
        assert_eq!(Session::from_export(&text).unwrap(), session);
    }
}

#[test]
fn export_has_the_documented_shape_and_no_bits() {
    let text = busy_session().export();
    let value: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = [
        "format",
        "version",
        "protocol",
        "params",
        "drafts",
        "entries",
        "counters",
        "last_operation",
        "history",
        "panels",
    ];
    expected.sort_unstable();
    assert_eq!(keys, expected);
    assert_eq!(value["format"], "bloomproof-session");
    assert_eq!(value["version"], 1);
    assert_eq!(value["protocol"], "fnv1a-utf16-v1");
    assert_eq!(value["params"], json!({"m": 16, "k": 3}));
    assert_eq!(value["drafts"]["m"], "016");
    assert_eq!(value["entries"][8], json!([55296, 98]));
    assert_eq!(value["entries"][9], "e\u{301} \"q\"\n");
    assert_eq!(value["panels"], json!({"positions": false, "model": true}));
    assert!(!text.contains("bits"));
    // One top-level field per line, one entry per line.
    assert!(text.starts_with("{\n  \"format\": \"bloomproof-session\",\n  \"version\": 1,\n"));
    assert!(text.contains("\n  \"entries\": [\n    \"a\",\n    \"b\",\n"));
}

#[test]
fn the_v1_fixture_stays_readable() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FIXTURE);
    if std::env::var_os("BLOOMPROOF_WRITE_FIXTURES").is_some() {
        std::fs::write(&path, fixture_session().export()).unwrap();
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let mut session = Session::new();
    session.import(&text).unwrap();
    let view = session.view();
    assert_eq!(view.params.map(|p| (p.m, p.k)), Some((8, 1)));
    assert_eq!(view.drafts.query, "i");
    assert_eq!(view.bits.as_deref(), Some("11111111"));
    let entries: Vec<String> = session
        .entries()
        .iter()
        .map(|e| String::from_utf16(e).unwrap())
        .collect();
    assert_eq!(entries, ["a", "b", "c", "d", "e", "f", "g", "h"]);
    assert_eq!(
        (
            view.counters.negative_queries,
            view.counters.false_positives
        ),
        (2, 2)
    );
    let last = view.last_operation.unwrap();
    assert_eq!(
        (last.units.as_slice(), last.display.as_str(), last.outcome),
        (&[0xd800][..], "\"\\ud800\"", Outcome::FalsePositive)
    );
    assert_eq!(view.history.len(), 11);
    assert_eq!(view.history[1].outcome, Outcome::TrulyPresent);
    assert!(view.panels.positions && !view.panels.model);
    assert_eq!(session, fixture_session());
    // Today's writer still writes exactly the v1 fixture. If this fails the
    // format changed: raise the version, add a migration from v1, and keep
    // this fixture readable (the assertions above).
    assert_eq!(fixture_session().export(), text);
}

#[test]
fn import_over_2_mib_is_rejected_before_parsing() {
    let mut session = busy_session();
    let text = format!("{}{}", session.export(), " ".repeat(IMPORT_MAX_BYTES));
    let error = import_rejected(&mut session, &text);
    assert_eq!(error.kind(), ErrorKind::TooLarge);
    assert_eq!(
        error.to_string(),
        format!("file is {} bytes, at most 2097152", text.len())
    );
    // Not even JSON: still "too large", since size is checked first.
    let junk = "x".repeat(IMPORT_MAX_BYTES + 1);
    let error = import_rejected(&mut session, &junk);
    assert_eq!(
        error,
        ImportError::TooLarge {
            bytes: 2_097_153,
            max: 2_097_152
        }
    );
    assert_eq!(error.to_string(), "file is 2097153 bytes, at most 2097152");
    // Exactly 2 MiB (a valid export padded with whitespace) is accepted.
    let export = fixture_session().export();
    let padded = format!("{export}{}", " ".repeat(IMPORT_MAX_BYTES - export.len()));
    assert_eq!(padded.len(), IMPORT_MAX_BYTES);
    session.import(&padded).unwrap();
    assert_eq!(session, fixture_session());
}

#[test]
fn import_syntax_errors_name_line_and_column() {
    let mut session = busy_session();
    let error = import_rejected(
        &mut session,
        "{\n  \"format\": \"bloomproof-session\",\n  oops\n}",
    );
    assert_eq!(error.kind(), ErrorKind::Syntax);
    match &error {
        ImportError::Syntax { line, column, .. } => assert_eq!((*line, *column), (3, 3)),
        other => panic!("{other:?}"),
    }
    assert!(
        error
            .to_string()
            .starts_with("JSON syntax error at line 3, column 3: "),
        "{error}"
    );
    for text in [
        "",
        "{",
        "{\"format\": \"bloomproof-session\"} trailing",
        "nul",
    ] {
        assert_eq!(
            import_rejected(&mut session, text).kind(),
            ErrorKind::Syntax,
            "{text:?}"
        );
    }
}

/// The v1 fixture's text with the single occurrence of `from` replaced by `to`.
fn fixture_with(from: &str, to: &str) -> String {
    let text = fixture_session().export();
    assert_eq!(text.matches(from).count(), 1, "{from}");
    text.replacen(from, to, 1)
}

/// A document that stage B passes for any version but 1, with a field `x`.
fn with_x(version: &str, x: &str) -> String {
    format!(r#"{{"format": "bloomproof-session", "version": {version}, "x": {x}}}"#)
}

fn kind_of(text: &str) -> Option<ErrorKind> {
    Session::from_export(text).err().map(|error| error.kind())
}

#[test]
fn a_key_twice_anywhere_is_invalid_before_the_version_is_read() {
    let mut session = busy_session();
    for (first, second) in [("1", "99"), ("99", "1"), ("1", "1")] {
        let text = fixture_with(
            "\"version\": 1,",
            &format!("\"version\": {first}, \"version\": {second},"),
        );
        let error = import_rejected(&mut session, &text);
        assert_eq!(error.kind(), ErrorKind::Invalid, "{first} then {second}");
        assert_eq!(
            error.to_string(),
            "version: this key (\"version\") appears twice in one object (every key is unique)"
        );
    }
    // Keys are compared after unescaping.
    let escaped = fixture_with("\"version\": 1,", "\"versio\\u006e\": 99, \"version\": 1,");
    assert_eq!(kind_of(&escaped), Some(ErrorKind::Invalid));
    for (from, to, path) in [
        (
            "\"query\":\"i\"}",
            "\"query\":\"i\",\"query\":\"i\"}",
            "drafts.query",
        ),
        (
            "{\"kind\":\"query\",\"value\":\"a\",\"outcome\":\"truly_present\"}",
            "{\"kind\":\"query\",\"value\":\"a\",\"outcome\":\"truly_present\",\"outcome\":\"truly_present\"}",
            "history[1].outcome",
        ),
        (
            "\"before\":true,",
            "\"before\":true,\"before\":true,",
            "last_operation.positions[0].before",
        ),
    ] {
        match import_rejected(&mut session, &fixture_with(from, to)) {
            ImportError::Invalid {
                path: got, kind, ..
            } => assert_eq!((got.as_str(), kind), (path, ErrorKind::Invalid)),
            other => panic!("{other:?}"),
        }
    }
    // Stage B alone would answer unsupported_version for these.
    assert_eq!(
        kind_of(&with_x("2", r#"[{"y": 1, "y": 1}]"#)),
        Some(ErrorKind::Invalid)
    );
    assert_eq!(
        kind_of(r#"{"format": "bloomproof-session", "version": 99, "": 1, "": 1}"#),
        Some(ErrorKind::Invalid)
    );
    // Step 2 comes first: a repeated key in a text that is not JSON is a syntax error.
    assert_eq!(
        kind_of(r#"{"format": "bloomproof-session", "version": 1, "version": 1,}"#),
        Some(ErrorKind::Syntax)
    );
}

#[test]
fn lone_surrogate_escapes_are_named_by_their_kind() {
    let mut session = busy_session();
    let low = import_rejected(
        &mut session,
        &fixture_with("\"query\":\"i\"}", "\"query\":\"\\udc00x\"}"),
    );
    assert_eq!(low.kind(), ErrorKind::Syntax);
    let message = low.to_string();
    assert!(
        message
            .contains("\\udc00 is a low (trailing) surrogate not preceded by a high (leading) one"),
        "{message}"
    );
    assert!(!message.contains("leading surrogate"), "{message}");
    for escape in ["\\ud800x", "\\ud800\\u0041", "\\ud800\\ud800", "\\ud800"] {
        let high = import_rejected(
            &mut session,
            &fixture_with("\"query\":\"i\"}", &format!("\"query\":\"{escape}\"}}")),
        );
        assert_eq!(high.kind(), ErrorKind::Syntax);
        assert!(
            high.to_string().contains(
                "\\ud800 is a high (leading) surrogate not followed by a low (trailing) one"
            ),
            "{escape}: {high}"
        );
    }
    for (escape, unit) in [
        ("\\ude00\\ud83d", "\\ude00"),
        ("\\ud83d\\ude00\\udfff", "\\udfff"),
    ] {
        let error = import_rejected(
            &mut session,
            &fixture_with("\"query\":\"i\"}", &format!("\"query\":\"{escape}\"}}")),
        );
        assert!(
            error
                .to_string()
                .contains(&format!("{unit} is a low (trailing) surrogate")),
            "{escape}: {error}"
        );
    }
    // An escaped pair (either case) is one character.
    let pairs = fixture_with(
        "\"query\":\"i\"}",
        "\"query\":\"\\ud83d\\ude00\\uD83D\\uDE00\"}",
    );
    assert_eq!(Session::from_export(&pairs).unwrap().drafts().query, "😀😀");
}

#[test]
fn a_byte_order_mark_raw_controls_deep_nesting_and_huge_numbers_are_syntax() {
    use ErrorKind::*;
    let text = fixture_session().export();
    assert_eq!(kind_of(&format!("\u{feff}{text}")), Some(Syntax));
    assert_eq!(kind_of(&format!("{text}\u{feff}")), Some(Syntax));
    assert_eq!(
        kind_of(&fixture_with(
            "\"query\":\"i\"}",
            "\"query\":\"\u{feff}i\"}"
        )),
        None
    );
    for raw in ["\u{0}", "\u{1}", "\u{1f}", "\t", "\n"] {
        let text = fixture_with("\"insert\":\"\"", &format!("\"insert\":\"{raw}\""));
        assert_eq!(kind_of(&text), Some(Syntax), "{raw:?}");
    }
    assert_eq!(
        kind_of(&fixture_with(
            "\"insert\":\"\"",
            "\"insert\":\"\u{7f}\u{2028}\""
        )),
        None
    );
    // At most 127 levels of arrays and objects, the outermost counting as one.
    let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert_eq!(
        kind_of(&with_x("2", &nested(126))),
        Some(UnsupportedVersion)
    );
    assert_eq!(kind_of(&with_x("2", &nested(127))), Some(Syntax));
    assert_eq!(kind_of(&nested(127)), Some(Invalid));
    assert_eq!(kind_of(&nested(128)), Some(Syntax));
    // Numbers a double cannot hold.
    let nines = "9".repeat(400);
    for big in ["1e400", "-1e400", "1E+999", &nines, &format!("-{nines}.5")] {
        assert_eq!(kind_of(&with_x("2", big)), Some(Syntax), "{big}");
    }
    let fits = "9".repeat(300);
    for fine in ["1e-400", "1e308", &fits, "-0", "18446744073709551616"] {
        assert_eq!(
            kind_of(&with_x("2", fine)),
            Some(UnsupportedVersion),
            "{fine}"
        );
    }
    assert_eq!(
        kind_of(&fixture_with("\"version\": 1,", "\"version\": 1e400,")),
        Some(Syntax)
    );
}

/// Applies `change` to the busy session's export and expects a rejection of
/// this kind at this path, with the session unchanged.
fn expect_invalid(change: impl FnOnce(&mut Value), kind: ErrorKind, path: &str, message: &str) {
    let mut value: Value = serde_json::from_str(&busy_session().export()).unwrap();
    change(&mut value);
    let text = serde_json::to_string_pretty(&value).unwrap();
    let mut session = fixture_session();
    let error = import_rejected(&mut session, &text);
    assert_eq!(error.kind(), kind, "{error}");
    match &error {
        ImportError::Invalid { path: got, .. } => assert_eq!(got, path, "{error}"),
        ImportError::UnsupportedVersion { .. } => assert_eq!(path, "version"),
        other => panic!("{other:?}"),
    }
    assert!(
        error.to_string().contains(message),
        "{error} lacks {message:?}"
    );
}

#[test]
fn invalid_documents_are_rejected_and_named() {
    use ErrorKind::*;
    expect_invalid(
        |v| *v = json!([]),
        Invalid,
        "(root)",
        "expected a JSON object",
    );
    expect_invalid(
        |v| v["format"] = json!("other"),
        Invalid,
        "format",
        "not a session file",
    );
    expect_invalid(
        |v| {
            v.as_object_mut().unwrap().remove("format");
        },
        Invalid,
        "format",
        "missing",
    );
    expect_invalid(
        |v| v["version"] = json!(2),
        UnsupportedVersion,
        "version",
        "unsupported session format version 2",
    );
    expect_invalid(
        |v| v["version"] = json!(0),
        UnsupportedVersion,
        "version",
        "version 0",
    );
    expect_invalid(
        |v| v["version"] = json!("1"),
        Invalid,
        "version",
        "not a non-negative integer",
    );
    expect_invalid(
        |v| v["protocol"] = json!("doc-membership-v1"),
        Invalid,
        "protocol",
        "not supported",
    );
    expect_invalid(
        |v| v["bits"] = json!("1111"),
        Invalid,
        "bits",
        "unknown field `bits`",
    );
    expect_invalid(
        |v| {
            v.as_object_mut().unwrap().remove("counters");
        },
        Invalid,
        "(root)",
        "missing field `counters`",
    );
    expect_invalid(
        |v| v["drafts"]["extra"] = json!(""),
        Invalid,
        "drafts.extra",
        "unknown field `extra`",
    );
    expect_invalid(
        |v| v["panels"]["model"] = json!(1),
        Invalid,
        "panels.model",
        "invalid type",
    );
}

#[test]
fn invalid_params_and_drafts_are_rejected() {
    use ErrorKind::*;
    expect_invalid(
        |v| {
            v["params"]["m"] = json!(7);
            v["drafts"]["m"] = json!("7");
        },
        OutOfRange,
        "params.m",
        "7 is out of range: must be an integer in 8..=1024",
    );
    expect_invalid(
        |v| {
            v["params"]["m"] = json!(1025);
            v["drafts"]["m"] = json!("1025");
        },
        OutOfRange,
        "params.m",
        "8..=1024",
    );
    expect_invalid(
        |v| {
            v["params"]["k"] = json!(13);
            v["drafts"]["k"] = json!("13");
        },
        OutOfRange,
        "params.k",
        "1..=12",
    );
    expect_invalid(
        |v| v["params"]["k"] = json!(-1),
        Invalid,
        "params.k",
        "invalid value",
    );
    expect_invalid(
        |v| v["drafts"]["m"] = json!("17"),
        Invalid,
        "drafts.m",
        "does not denote params.m = 16",
    );
    expect_invalid(
        |v| v["drafts"]["k"] = json!(" 3"),
        Invalid,
        "drafts.k",
        "does not denote params.k = 3",
    );
    expect_invalid(
        |v| v["drafts"]["query"] = json!("q".repeat(1025)),
        TooLong,
        "drafts.query",
        "1025 UTF-16 code units, at most 1024",
    );
    expect_invalid(
        |v| v["params"] = Value::Null,
        Invalid,
        "entries",
        "when params is null",
    );
}

#[test]
fn invalid_entries_are_rejected() {
    use ErrorKind::*;
    expect_invalid(
        |v| v["entries"][3] = json!("x".repeat(257)),
        TooLong,
        "entries[3]",
        "entries[3]: 257 code units, at most 256",
    );
    expect_invalid(
        |v| v["entries"][3] = json!([]),
        EmptyString,
        "entries[3]",
        "empty string",
    );
    expect_invalid(
        |v| v["entries"][3] = json!(""),
        EmptyString,
        "entries[3]",
        "empty string",
    );
    expect_invalid(
        |v| v["entries"][5] = json!([97]),
        Invalid,
        "entries[5]",
        "duplicate of entries[0]",
    );
    expect_invalid(
        |v| v["entries"][5] = json!([65536]),
        Invalid,
        "entries[5][0]",
        "invalid value",
    );
    expect_invalid(
        |v| v["entries"][5] = json!(5),
        Invalid,
        "entries[5]",
        "invalid type",
    );
    expect_invalid(
        |v| {
            let entries: Vec<Value> = (0..1025).map(|i| json!(format!("e{i}"))).collect();
            v["entries"] = Value::Array(entries);
        },
        TooManyEntries,
        "entries",
        "1025 distinct entries, at most 1024",
    );
    // An entry that no insertion in the (complete) history accounts for.
    expect_invalid(
        |v| v["entries"].as_array_mut().unwrap().push(json!("extra")),
        Invalid,
        "history",
        "must be exactly the entries",
    );
    // Swapped insertion order.
    expect_invalid(
        |v| v["entries"].as_array_mut().unwrap().swap(0, 1),
        Invalid,
        "history",
        "must be exactly the entries",
    );
}

#[test]
fn inconsistent_counters_history_and_last_operation_are_rejected() {
    use ErrorKind::*;
    expect_invalid(
        |v| v["counters"] = json!({"negative_queries": 1, "false_positives": 2}),
        Invalid,
        "counters",
        "false_positives = 2 exceeds negative_queries = 1",
    );
    expect_invalid(
        |v| v["counters"]["negative_queries"] = json!(99),
        Invalid,
        "counters",
        "disagree with the history",
    );
    expect_invalid(
        |v| v["last_operation"]["h1"] = json!(1),
        Invalid,
        "last_operation.h1",
        "is 1, but",
    );
    expect_invalid(
        |v| v["last_operation"]["h2"] = json!(2),
        Invalid,
        "last_operation.h2",
        "is 2, but",
    );
    expect_invalid(
        |v| v["last_operation"]["display"] = json!("y"),
        Invalid,
        "last_operation.display",
        "",
    );
    expect_invalid(
        |v| v["last_operation"]["positions"][1]["before"] = json!(false),
        Invalid,
        "last_operation.positions[1]",
        "",
    );
    expect_invalid(
        |v| {
            v["last_operation"]["positions"]
                .as_array_mut()
                .unwrap()
                .pop();
        },
        Invalid,
        "last_operation.positions",
        "2 positions",
    );
    expect_invalid(
        |v| v["last_operation"]["value"] = json!("z"),
        Invalid,
        "last_operation.value",
        "",
    );
    expect_invalid(
        |v| v["last_operation"]["outcome"] = json!("false_positive"),
        Invalid,
        "last_operation.outcome",
        "last_operation.outcome: is false_positive, but history[0] replayed on the entries gives definitely_absent",
    );
    expect_invalid(
        |v| v["last_operation"]["outcome"] = json!("nonsense"),
        Invalid,
        "last_operation.outcome",
        "unknown variant",
    );
    expect_invalid(
        |v| v["last_operation"] = Value::Null,
        Invalid,
        "last_operation",
        "null, but history is not empty",
    );
    expect_invalid(
        |v| v["last_operation"]["extra"] = json!(0),
        Invalid,
        "last_operation.extra",
        "unknown field",
    );
    // history[0] is the query "y", definitely absent.
    expect_invalid(
        |v| v["history"][0]["outcome"] = json!("new"),
        Invalid,
        "history[0].outcome",
        "new is not an outcome of an operation of kind query",
    );
    expect_invalid(
        |v| v["history"][5]["outcome"] = json!("truly_present"),
        Invalid,
        "history[5].outcome",
        "replaying the history",
    );
    expect_invalid(
        |v| v["history"][2]["value"] = json!("x".repeat(257)),
        TooLong,
        "history[2].value",
        "257 code units, at most 256",
    );
    expect_invalid(
        |v| v["history"][2]["value"] = json!(""),
        EmptyString,
        "history[2].value",
        "empty string",
    );
    expect_invalid(
        |v| {
            v["history"].as_array_mut().unwrap().clear();
        },
        Invalid,
        "history",
        "must be exactly the entries",
    );
    expect_invalid(
        |v| {
            let item = v["history"][0].clone();
            v["history"] = Value::Array(vec![item; HISTORY_CAP + 1]);
        },
        TooLong,
        "history",
        "257 items, at most 256",
    );
}

#[test]
fn a_duplicate_outcome_for_a_new_insertion_is_rejected() {
    // Turn the insertion of "a" (the 11th, a duplicate) into a claimed "new".
    let mut value: Value = serde_json::from_str(&busy_session().export()).unwrap();
    let history = value["history"].as_array_mut().unwrap();
    let position = history
        .iter()
        .position(|h| h["outcome"] == "duplicate")
        .unwrap();
    history[position]["outcome"] = json!("new");
    let mut session = Session::new();
    let error = import_rejected(&mut session, &value.to_string());
    assert_eq!(error.kind(), ErrorKind::Invalid);
}

#[test]
fn a_truncated_history_allows_earlier_counts_but_not_impossible_ones() {
    // 300 queries after one insertion: the history keeps the last 256, the
    // counters count all 300 (the insertion's reset is no longer in history).
    let mut session = created(64, 2);
    ok(&mut session, &insert("base"));
    for i in 0..300 {
        ok(&mut session, &query(format!("q{i}").as_str()));
    }
    assert_eq!(session.history().len(), HISTORY_CAP);
    assert_eq!(session.counters().negative_queries, 300);
    let text = session.export();
    assert_eq!(Session::from_export(&text).unwrap(), session);
    let mut value: Value = serde_json::from_str(&text).unwrap();
    value["counters"]["negative_queries"] = json!(255);
    let error = Session::from_export(&value.to_string()).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Invalid);
    assert!(error.to_string().starts_with("counters: "), "{error}");
    // Counts from before the oldest history item must be a valid pair themselves:
    // 44 negative queries there (300 - 256) cannot hold 45 more false positives, even
    // though the totals (at most 45 + the real ones, of 300) are a valid pair.
    let mut value: Value = serde_json::from_str(&text).unwrap();
    let false_positives = session.counters().false_positives + 45;
    assert!(false_positives <= 300);
    value["counters"]["false_positives"] = json!(false_positives);
    let error = Session::from_export(&value.to_string()).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Invalid);
    assert!(
        error.to_string().contains("disagree with the history"),
        "{error}"
    );
}

#[test]
fn a_session_without_filter_must_have_nothing_else() {
    let mut value: Value = serde_json::from_str(&Session::new().export()).unwrap();
    assert_eq!(value["params"], Value::Null);
    value["counters"]["negative_queries"] = json!(1);
    let error = Session::from_export(&value.to_string()).unwrap_err();
    assert!(
        error.to_string().starts_with("counters: must be empty"),
        "{error}"
    );
}

#[test]
fn the_largest_session_exports_under_2_mib_and_round_trips() {
    // Worst cases for JSON size: 1024 entries of 256 lone surrogates (array
    // form, 6 bytes a unit), 256 history queries of 256 control characters
    // (string form, "\u0001" is 6 bytes), four drafts of 1024 such characters.
    let mut session = created(1024, 12);
    for i in 0..1024u16 {
        let mut units = vec![0xdfff_u16; 256];
        units[0] = 0xdc00 + i;
        ok(&mut session, &insert(Text(units)));
    }
    for i in 0..HISTORY_CAP {
        let mut text = "\u{1}".repeat(256);
        text.replace_range(0..3, &format!("{:03}", i));
        ok(&mut session, &query(text.as_str()));
    }
    ok(&mut session, &query(Text(vec![0xdbff; 256])));
    let control = "\u{1}".repeat(1024);
    for field in [DraftField::Insert, DraftField::Query] {
        ok(&mut session, &set_draft(field, &control));
    }
    let text = session.export();
    assert!(text.len() <= IMPORT_MAX_BYTES, "{} bytes", text.len());
    eprintln!("largest export: {} bytes", text.len());
    assert_eq!(Session::from_export(&text).unwrap(), session);
}

#[test]
fn local_save_counts_utf16_code_units_up_to_100000() {
    assert_eq!(LOCAL_SAVE_MAX_UNITS, 100_000);
    let exact = "x".repeat(100_000);
    assert_eq!(
        save_local(&exact, Some("old")),
        SaveOutcome::Saved {
            stored: exact.clone()
        }
    );
    let over = "x".repeat(100_001);
    let outcome = save_local(&over, Some("old"));
    assert_eq!(outcome.stored(), Some("old"));
    assert!(matches!(
        outcome,
        SaveOutcome::Kept {
            units: 100_001,
            max: 100_000,
            ..
        }
    ));
    assert!(
        outcome.warning().unwrap().contains("100001"),
        "{:?}",
        outcome.warning()
    );
    assert_eq!(save_local(&over, None).stored(), None);
    assert!(save_local(&over, None).warning().is_some());
    // 50000 emoji are 100000 code units (200000 bytes, 50000 chars): saved.
    let emoji = "😀".repeat(50_000);
    assert_eq!(save_local(&emoji, None).stored(), Some(emoji.as_str()));
    // 50001 emoji are 100002 code units but only 50001 chars: not saved.
    assert_eq!(
        save_local(&"😀".repeat(50_001), Some("old")).stored(),
        Some("old")
    );
    // 100000 "é" are 200000 bytes: saved (bytes are not what counts).
    assert!(matches!(
        save_local(&"\u{e9}".repeat(100_000), None),
        SaveOutcome::Saved { .. }
    ));
    // Through the session.
    assert!(matches!(
        fixture_session().save_local(None),
        SaveOutcome::Saved { .. }
    ));
    let mut big = created(1024, 3);
    for i in 0..1024 {
        ok(&mut big, &insert(format!("{i:0>200}").as_str()));
    }
    let outcome = big.save_local(Some("previous"));
    assert_eq!(outcome.stored(), Some("previous"));
    assert!(matches!(outcome, SaveOutcome::Kept { .. }));
}
