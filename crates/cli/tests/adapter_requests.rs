//! Regression tests from fuzzing `adapter::parse_request` + `adapter::answer`
//! (`fuzz/fuzz_targets/adapter_request.rs`): answering a request never panics.

use bloomproof::adapter::{answer, parse_request};
use bloomproof_adapter::protocols::fnv1a_utf16_v1::SCRIPT_HELPER_MAX;
use bloomproof_conformance::subject::SubjectError;

fn answer_line(line: &str) -> Result<serde_json::Value, SubjectError> {
    let (_, request) = parse_request(line).expect("the request parses");
    answer(&request)
}

fn script(step: &str) -> String {
    format!(r#"{{"id":1,"protocol":"fnv1a-utf16-v1","op":"session","script":[{step}]}}"#)
}

/// `save_local` with a length no string can have was `"x".repeat(units)`, and
/// `import_padded` to a size no string can have reserved `bytes - export` more bytes:
/// each a capacity-overflow panic. Each is refused as a helper the subject cannot run.
#[test]
fn a_helper_of_an_impossible_size_is_refused_not_a_panic() {
    for (op, field) in [("save_local", "units"), ("import_padded", "bytes")] {
        for size in [usize::MAX, usize::MAX / 2 + 1, SCRIPT_HELPER_MAX + 1] {
            let result = answer_line(&script(&format!(r#"{{"op":"{op}","{field}":{size}}}"#)));
            assert!(
                matches!(&result, Err(SubjectError::Broken(why)) if why.contains(op)),
                "{op} {size}: {result:?}"
            );
        }
    }
}

mod bounded {
    //! Issue 12: a request cannot make the adapter hold unbounded memory, an ambiguous
    //! request is refused, and an error quotes a bad value by a short prefix only.

    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use bloomproof::adapter::{
        REQUEST_MAX, REQUEST_VALUES_MAX, SCRIPT_MAX, parse_request, respond, serve,
    };
    use bloomproof_conformance::adapter::RESPONSE_MAX;
    use serde_json::{Value, json};
    use std::io::{BufReader, Cursor, Read};

    fn response(line: &str) -> Value {
        let text = respond(line);
        assert!(text.len() <= RESPONSE_MAX, "{} bytes", text.len());
        serde_json::from_str(&text).unwrap()
    }

    fn served(input: impl Read) -> Vec<Value> {
        let mut out = Vec::new();
        serve(BufReader::new(input), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    fn peak_mib() -> Option<u64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib / 1024)
    }

    fn session(steps: Vec<Value>) -> String {
        json!({"id": 9, "protocol": "fnv1a-utf16-v1", "op": "session", "script": steps}).to_string()
    }

    const SHA: &str = r#"{"id":3,"protocol":"doc-membership-v1","op":"sha256","data":"6162"}"#;

    #[test]
    fn duplicate_keys_are_refused_naming_the_key() {
        let r = response(
            r#"{"id":1,"protocol":"doc-membership-v1","op":"sha256","data":"61","data":"62"}"#,
        );
        assert_eq!(r["id"], Value::Null);
        assert_eq!(r["error"]["kind"], "bad_request");
        let message = r["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("duplicate key \"data\" in the request"),
            "{message}"
        );
        let r =
            response(r#"{"id":2,"id":3,"protocol":"doc-membership-v1","op":"sha256","data":"61"}"#);
        assert!(
            r["error"]["message"]
                .as_str()
                .unwrap()
                .contains("duplicate key \"id\"")
        );
        // In a nested object too: an import document with a repeated key is ambiguous.
        let line = r#"{"id":4,"protocol":"fnv1a-utf16-v1","op":"session","script":[{"op":"import","document":{"version":1,"version":99}}]}"#;
        let r = response(line);
        let message = r["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("duplicate key \"version\" in `script[0].document`"),
            "{message}"
        );
        // The same key in different objects is fine.
        let r = response(
            r#"{"id":5,"protocol":"doc-membership-v1","op":"mutate","params":{"m":16,"k":3,"seed_hex":""},"records":[],"other":{"params":{"m":16,"k":3,"seed_hex":""},"records":[]},"attempt":"reconstruct","probes":[]}"#,
        );
        assert!(r.get("result").is_some(), "{r}");
    }

    #[test]
    fn a_script_past_the_cap_is_refused_with_its_id() {
        let step = json!({"op": "set_panel", "panel": "model", "open": true});
        let r = response(&session(vec![step.clone(); SCRIPT_MAX + 1]));
        assert_eq!(r["id"], 9);
        assert_eq!(r["error"]["kind"], "bad_request");
        assert_eq!(
            r["error"]["message"],
            format!(
                "`script` has {} steps: a script has at most {SCRIPT_MAX} (split it)",
                SCRIPT_MAX + 1
            )
        );
        let r = response(&session(vec![step; SCRIPT_MAX]));
        assert_eq!(r["result"]["steps"].as_array().unwrap().len(), SCRIPT_MAX);
    }

    #[test]
    fn the_spec_s_scripts_fit_the_cap() {
        fn longest(value: &Value) -> usize {
            match value {
                Value::Object(map) => map
                    .iter()
                    .map(|(key, v)| match (key.as_str(), v) {
                        ("script", Value::Array(steps)) => steps.len().max(longest(v)),
                        _ => longest(v),
                    })
                    .max()
                    .unwrap_or(0),
                Value::Array(items) => items.iter().map(longest).max().unwrap_or(0),
                _ => 0,
            }
        }
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../spec/fnv1a-utf16-v1/cases.json"
        );
        let cases: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let most = longest(&cases);
        assert!(
            most > 10 && most <= SCRIPT_MAX,
            "longest script: {most} steps"
        );
    }

    #[test]
    fn a_long_session_answer_is_refused_before_it_outgrows_a_response() {
        // 1000 one-unit queries: every view carries the whole history, so the answer
        // used to grow to gigabytes (5000 queries: 2.49 GB); it stops at 1 MiB.
        let mut steps = vec![
            json!({"op": "set_draft", "field": "m", "value": "1024"}),
            json!({"op": "create"}),
        ];
        steps.extend(std::iter::repeat_n(
            json!({"op": "query", "value": [97]}),
            1000,
        ));
        let r = response(&session(steps));
        assert_eq!(r["id"], 9);
        assert_eq!(r["error"]["kind"], "bad_request");
        let message = r["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!(
                "the answer to this script would be longer than {RESPONSE_MAX} bytes (at step "
            )),
            "{message}"
        );
        if let Some(peak) = peak_mib() {
            assert!(peak < 200, "peak resident memory {peak} MiB");
        }
    }

    #[test]
    fn too_many_items_for_one_answer_are_refused_up_front() {
        let items = vec![json!(""); 20_000];
        let line = json!({"id": 1, "protocol": "doc-membership-v1", "op": "lookup_many", "params": {"m": 16, "k": 3, "seed_hex": ""}, "records": [], "items": items}).to_string();
        let r = response(&line);
        assert_eq!(r["id"], 1);
        let message = r["error"]["message"].as_str().unwrap();
        assert!(message.starts_with("`items` has 20000 items"), "{message}");
    }

    #[test]
    fn more_values_than_a_request_holds_are_refused() {
        let units = vec![json!(0); REQUEST_VALUES_MAX];
        let line = json!({"id": 1, "protocol": "fnv1a-utf16-v1", "op": "positions", "m": 8, "k": 1, "units": units}).to_string();
        let r = response(&line);
        // The id came first: it is echoed.
        assert_eq!(r["id"], 1);
        let message = r["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!(
                "a request holds at most {REQUEST_VALUES_MAX} JSON values"
            )),
            "{message}"
        );
        // After the limit: not read, null.
        let line = format!(
            r#"{{"units":{},"id":2}}"#,
            serde_json::to_string(&vec![0; REQUEST_VALUES_MAX]).unwrap()
        );
        assert_eq!(response(&line)["id"], Value::Null);
        // 100000 steps (the issue's second figure): refused at once, with the id.
        let step = json!({"op": "query", "value": [97]});
        let r = response(&session(vec![step; 100_000]));
        assert_eq!(r["id"], 9);
        assert_eq!(r["error"]["kind"], "bad_request");
    }

    #[test]
    fn errors_quote_a_short_prefix_of_a_bad_value() {
        let bad = "zz".repeat(5 << 20);
        let cases = [
            json!({"id": 1, "protocol": "doc-membership-v1", "op": "sha256", "data": bad}),
            json!({"id": 2, "protocol": "doc-membership-v1", "op": bad}),
            json!({"id": 3, "protocol": bad}),
            json!({"id": 4, "protocol": "doc-membership-v1", "op": "positions", "params": {"m": bad, "k": 1, "seed_hex": ""}, "item": ""}),
            json!({"id": 5, "protocol": "doc-membership-v1", "op": "sha256", "data": "", bad.as_str(): 1}),
            json!({"id": 6, "protocol": "fnv1a-utf16-v1", "op": "session", "script": [{"op": "set_draft", "field": bad, "value": ""}]}),
        ];
        for (i, request) in cases.iter().enumerate() {
            let r = response(&request.to_string());
            assert_eq!(r["id"], i + 1);
            let message = r["error"]["message"].as_str().unwrap();
            assert!(message.len() < 400, "{} bytes: {message}", message.len());
            assert!(
                message.contains(&format!("{}…", "z".repeat(64))),
                "{message}"
            );
        }
        // The first pass quotes a long duplicate key short too.
        let key = "k".repeat(100_000);
        let line = format!(r#"{{"{key}":1,"{key}":2}}"#);
        let message = response(&line)["error"]["message"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(message.len() < 400, "{message}");
    }

    #[test]
    fn a_line_that_is_not_utf8_is_answered_and_the_next_served() {
        let mut input =
            b"{\"id\":1,\"protocol\":\"doc-membership-v1\",\"op\":\"sha256\",\"data\":\"\xff\"}\n"
                .to_vec();
        input.extend_from_slice(b"\xc3\x28\r\n");
        input.extend_from_slice(SHA.as_bytes());
        let responses = served(Cursor::new(input));
        assert_eq!(responses.len(), 3, "{responses:?}");
        for r in &responses[..2] {
            assert_eq!(r["id"], Value::Null);
            assert_eq!(r["error"]["kind"], "bad_request");
            assert!(
                r["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("not UTF-8"),
                "{r}"
            );
        }
        assert_eq!(
            responses[0]["error"]["message"],
            "the request line is not UTF-8 (invalid byte at offset 61)"
        );
        assert_eq!(responses[2]["id"], 3);
        assert!(responses[2].get("result").is_some());
    }

    #[test]
    fn a_line_over_the_cap_is_skipped_without_being_held() {
        // 64 MiB without a newline, made on the fly: four times the cap.
        let long = std::io::repeat(b' ').take(4 * REQUEST_MAX as u64);
        let input = Cursor::new(
            b"{\"id\":1,\"protocol\":\"doc-membership-v1\",\"op\":\"sha256\",\"data\":\"".to_vec(),
        )
        .chain(long)
        .chain(Cursor::new(format!("\"}}\n\n{SHA}\n").into_bytes()));
        let responses = served(input);
        assert_eq!(responses.len(), 2, "{responses:?}");
        assert_eq!(responses[0]["id"], Value::Null);
        assert_eq!(
            responses[0]["error"]["message"],
            format!("a request line is at most {REQUEST_MAX} bytes (16 MiB); this one is longer")
        );
        assert_eq!(responses[1]["id"], 3);
        if let Some(peak) = peak_mib() {
            assert!(peak < 200, "peak resident memory {peak} MiB");
        }
    }

    #[test]
    fn parse_request_never_echoes_a_whole_array() {
        let line = serde_json::to_string(&vec![1u8; 100_000]).unwrap();
        let err = parse_request(&line).unwrap_err();
        assert_eq!(err.message, "a request is a JSON object, got an array");
    }
}

mod error_table {
    //! Rows of ADAPTER.md's error table that the types reading a request cannot say:
    //! a `frame` index not below k (or negative, or past 255) and a negative
    //! `estimates` input are contract errors naming the field; 127 levels of nesting
    //! are read and 128 refused.

    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use bloomproof::adapter::respond;
    use serde_json::{Value, json};

    fn error_of(line: &str) -> (Value, Value, Value) {
        let v: Value = serde_json::from_str(&respond(line)).unwrap();
        (
            v["id"].clone(),
            v["error"]["kind"].clone(),
            v["error"]["field"].clone(),
        )
    }

    #[test]
    fn a_frame_index_not_below_k_names_index() {
        for index in ["3", "8", "-1", "256", "18446744073709551615"] {
            let line = format!(
                r#"{{"id":2,"protocol":"doc-membership-v1","op":"frame","params":{{"m":16,"k":3,"seed_hex":""}},"index":{index},"item":""}}"#
            );
            assert_eq!(
                error_of(&line),
                (json!(2), json!("value"), json!("index")),
                "{index}"
            );
        }
        let below = r#"{"id":2,"protocol":"doc-membership-v1","op":"frame","params":{"m":16,"k":3,"seed_hex":""},"index":2,"item":""}"#;
        assert!(respond(below).contains("\"result\""));
    }

    #[test]
    fn a_negative_estimates_input_names_the_first() {
        let line = r#"{"id":3,"protocol":"fnv1a-utf16-v1","op":"estimates","m":8,"k":-1,"n":-3}"#;
        assert_eq!(error_of(line), (json!(3), json!("value"), json!("k")));
        let clamped =
            r#"{"id":3,"protocol":"fnv1a-utf16-v1","op":"estimates","m":5000,"k":50,"n":5000}"#;
        assert!(respond(clamped).contains("\"result\""));
    }

    #[test]
    fn nesting_127_levels_is_read_128_refused() {
        let nested = |depth: usize| {
            format!(
                r#"{{"id":1,"protocol":"fnv1a-utf16-v1","op":"session","script":[{{"op":"import","document":{{"x":{}{}}}}}]}}"#,
                "[".repeat(depth - 4),
                "]".repeat(depth - 4)
            )
        };
        assert!(respond(&nested(127)).contains("\"result\""));
        for depth in [128, 10_000] {
            let (id, kind, _) = error_of(&nested(depth));
            assert_eq!((id, kind), (Value::Null, json!("bad_request")), "{depth}");
        }
    }
}
