//! The explorer's HTTP API: happy paths, and every kind of bad input answered
//! with a 4xx and a JSON error (never a panic).
#![allow(clippy::unwrap_used, clippy::panic)] // helpers outside #[test] functions

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use bloomproof_explorer::{APPLY_BODY_LIMIT, Options, router, url_for};
use bloomproof_session::{IMPORT_MAX_BYTES, LOCAL_SAVE_MAX_UNITS};
use serde_json::{Value, json};
use tower::ServiceExt;

async fn send(method: &str, uri: &str, body: Vec<u8>) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .unwrap();
    let response = router().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value)
}

async fn post(uri: &str, body: Value) -> (StatusCode, Value) {
    send("POST", uri, body.to_string().into_bytes()).await
}

/// Asserts a 4xx JSON error of this status and kind; returns its message.
fn expect_error(answer: &(StatusCode, Value), status: StatusCode, kind: &str) -> String {
    assert_eq!(answer.0, status, "{}", answer.1);
    assert_eq!(answer.1["error"]["kind"], kind, "{}", answer.1);
    let message = answer.1["error"]["message"].as_str().unwrap().to_owned();
    assert!(!message.is_empty());
    message
}

fn set_draft(field: &str, value: &str) -> Value {
    json!({"op": "set_draft", "field": field, "value": value})
}

/// A session with m=8, k=1, "a" inserted and "i", "a", "b" queried.
async fn half_rate_session() -> (String, Value) {
    let (status, body) = post(
        "/api/apply",
        json!({"session": null, "ops": [
            set_draft("m", "8"), set_draft("k", "1"), {"op": "create"},
            {"op": "insert", "value": "a"},
            {"op": "query", "value": "i"}, {"op": "query", "value": "a"}, {"op": "query", "value": "b"},
        ]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    (
        body["session"].as_str().unwrap().to_owned(),
        body["view"].clone(),
    )
}

#[tokio::test]
async fn apply_example_and_half_rate() {
    let (status, body) = post(
        "/api/apply",
        json!({"session": null, "ops": [set_draft("m", "8"), set_draft("k", "1"), {"op": "create"}, {"op": "insert_example"}]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["view"]["bits"], "11111111");
    assert_eq!(body["view"]["bits_set"], 8);

    let (session, view) = half_rate_session().await;
    assert_eq!(
        view["rate"],
        json!({"state": "defined", "false_positives": 1, "negative_queries": 2, "value": 0.5})
    );
    assert_eq!(view["history"][0]["display"], "\"b\"");

    // The next call carries the session back: stateless.
    let (status, body) = post(
        "/api/apply",
        json!({"session": session, "op": {"op": "reset"}}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["view"]["bits_set"], 0);
    assert_eq!(body["view"]["drafts"]["m"], "8");
    assert_eq!(body["view"]["rate"]["state"], "undefined");

    // No op: validate and view. The session may also come as an object.
    let object: Value = serde_json::from_str(&session).unwrap();
    let (status, body) = post("/api/apply", json!({"session": object})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["session"], session);
}

#[tokio::test]
async fn malformed_json_is_400() {
    for body in [
        &b"{bad"[..],
        b"",
        b"{\"session\": nul",
        b"{\"session\": null} trailing",
        b"\xff\xfe",
    ] {
        let answer = send("POST", "/api/apply", body.to_vec()).await;
        expect_error(&answer, StatusCode::BAD_REQUEST, "malformed_json");
    }
}

#[tokio::test]
async fn unknown_op_or_field_is_400() {
    let answer = post(
        "/api/apply",
        json!({"session": null, "op": {"op": "delete", "value": "a"}}),
    )
    .await;
    let message = expect_error(&answer, StatusCode::BAD_REQUEST, "invalid_request");
    assert!(
        message.contains("delete") && message.contains("op"),
        "{message}"
    );

    let answer = post(
        "/api/apply",
        json!({"session": null, "op": {"op": "create", "m": 8}}),
    )
    .await;
    expect_error(&answer, StatusCode::BAD_REQUEST, "invalid_request");

    let answer = post(
        "/api/apply",
        json!({"session": null, "ops": [], "extra": 1}),
    )
    .await;
    expect_error(&answer, StatusCode::BAD_REQUEST, "invalid_request");

    let answer = post(
        "/api/apply",
        json!({"session": null, "op": {"op": "reset"}, "ops": []}),
    )
    .await;
    let message = expect_error(&answer, StatusCode::BAD_REQUEST, "invalid_request");
    assert!(message.contains("not both"));

    let answer = post("/api/apply", json!({"session": 7, "ops": []})).await;
    expect_error(&answer, StatusCode::BAD_REQUEST, "invalid_request");
}

/// One shape per input: an array is never read as an object's fields in order.
#[tokio::test]
async fn array_shaped_bodies_are_400() {
    let create = json!([set_draft("m", "8"), set_draft("k", "1"), {"op": "create"}]);
    for (uri, body) in [
        ("/api/apply", json!([null, {"op": "create"}])),
        ("/api/apply", json!([null, null, create])),
        ("/api/apply", json!([])),
        (
            "/api/apply",
            json!({"session": null, "op": ["insert", "a"]}),
        ),
        ("/api/apply", json!({"session": null, "ops": [["create"]]})),
        (
            "/api/apply",
            json!({"session": null, "ops": [{"op": "create"}, ["reset"]]}),
        ),
        ("/api/save", json!(["state", null])),
        ("/api/share", json!([null])),
        ("/api/restore", json!([null, "#share=e30"])),
        ("/api/apply", json!("a string")),
        ("/api/apply", json!(7)),
        ("/api/apply", json!(null)),
    ] {
        let answer = post(uri, body.clone()).await;
        let message = expect_error(&answer, StatusCode::BAD_REQUEST, "invalid_request");
        assert!(
            message.contains("a JSON object") && message.contains("array"),
            "{uri} {body}: {message}"
        );
    }
    // The same requests as objects are fine.
    let answer = post("/api/apply", json!({"session": null, "ops": create})).await;
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    // And a key twice is refused, not read as the last one.
    let answer = send(
        "POST",
        "/api/apply",
        br#"{"session": null, "ops": [], "ops": [{"op": "create"}]}"#.to_vec(),
    )
    .await;
    let message = expect_error(&answer, StatusCode::BAD_REQUEST, "invalid_request");
    assert!(message.contains("duplicate field"), "{message}");
}

#[tokio::test]
async fn session_failing_validation_is_400() {
    let (session, _) = half_rate_session().await;
    let tampered = session.replace(
        "\"counters\": {\"negative_queries\":2,\"false_positives\":1}",
        "\"counters\": {\"negative_queries\":2,\"false_positives\":2}",
    );
    assert_ne!(tampered, session);
    let answer = post("/api/apply", json!({"session": tampered, "ops": []})).await;
    let message = expect_error(&answer, StatusCode::BAD_REQUEST, "invalid");
    assert!(message.contains("counters"), "{message}");

    let answer = post("/api/apply", json!({"session": "not json", "ops": []})).await;
    expect_error(&answer, StatusCode::BAD_REQUEST, "syntax");

    let answer = post(
        "/api/apply",
        json!({"session": {"format": "other"}, "ops": []}),
    )
    .await;
    expect_error(&answer, StatusCode::BAD_REQUEST, "invalid");
}

#[tokio::test]
async fn rule_rejections_are_422_and_change_nothing() {
    let answer = post(
        "/api/apply",
        json!({"session": null, "op": {"op": "insert", "value": "a"}}),
    )
    .await;
    expect_error(
        &answer,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no_active_filter",
    );

    let (session, _) = half_rate_session().await;
    let answer = post(
        "/api/apply",
        json!({"session": session, "ops": [{"op": "insert", "value": "z"}, {"op": "query", "value": ""}]}),
    )
    .await;
    expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "empty_string");
    assert_eq!(answer.1["error"]["op_index"], 1);

    let answer = post(
        "/api/apply",
        json!({"session": null, "ops": [set_draft("m", "2000"), {"op": "create"}]}),
    )
    .await;
    expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "out_of_range");

    let long = "x".repeat(257);
    let answer = post(
        "/api/apply",
        json!({"session": session, "op": {"op": "insert", "value": long}}),
    )
    .await;
    expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "too_long");
    assert!(answer.1["error"].get("op_index").is_none());
}

#[tokio::test]
async fn apply_body_over_its_limit_is_413() {
    let mut body = b"{\"session\": \"".to_vec();
    body.resize(APPLY_BODY_LIMIT + 1, b' ');
    let answer = send("POST", "/api/apply", body).await;
    expect_error(&answer, StatusCode::PAYLOAD_TOO_LARGE, "too_large");
}

#[tokio::test]
async fn import_round_trip_and_bad_files() {
    let (session, view) = half_rate_session().await;
    let answer = send("POST", "/api/import", session.clone().into_bytes()).await;
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    assert_eq!(answer.1["view"], view);
    assert_eq!(answer.1["session"], session);

    // A UTF-8 byte order mark is `syntax`, as in SESSION.md (import step 2)
    // and the adapter, and the view is not replaced.
    let mut with_bom = "\u{feff}".as_bytes().to_vec();
    with_bom.extend_from_slice(session.as_bytes());
    let answer = send("POST", "/api/import", with_bom).await;
    let message = expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "syntax");
    assert!(message.contains("byte-order mark"), "{message}");
    // A session text with one, inside a request, is not a valid session either.
    let answer = post(
        "/api/apply",
        json!({"session": format!("\u{feff}{session}"), "ops": []}),
    )
    .await;
    expect_error(&answer, StatusCode::BAD_REQUEST, "syntax");

    let broken = send(
        "POST",
        "/api/import",
        b"{\"format\": \"bloomproof-session\", broken".to_vec(),
    )
    .await;
    let message = expect_error(&broken, StatusCode::UNPROCESSABLE_ENTITY, "syntax");
    assert!(message.contains("line 1"), "{message}");

    let answer = send("POST", "/api/import", vec![0xff, 0xfe, 0x00]).await;
    expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "syntax");

    let answer = send(
        "POST",
        "/api/import",
        b"{\"format\": \"bloomproof-session\", \"version\": 9}".to_vec(),
    )
    .await;
    expect_error(
        &answer,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unsupported_version",
    );

    let answer = send("POST", "/api/import", b"[]".to_vec()).await;
    expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "invalid");
}

#[tokio::test]
async fn import_over_two_mib_is_413_before_parsing() {
    // Valid-looking JSON padded past the limit: refused on its size alone.
    let mut body = b"{\"format\": \"bloomproof-session\"".to_vec();
    body.resize(IMPORT_MAX_BYTES + 1, b' ');
    body.push(b'}');
    let answer = send("POST", "/api/import", body).await;
    let message = expect_error(&answer, StatusCode::PAYLOAD_TOO_LARGE, "too_large");
    assert!(
        message.contains("2097152") && message.contains("not parsed"),
        "{message}"
    );

    // Exactly at the limit: read, and judged on its content.
    let mut body = b"{\"format\": \"bloomproof-session\"".to_vec();
    body.resize(IMPORT_MAX_BYTES - 1, b' ');
    body.push(b'}');
    let answer = send("POST", "/api/import", body).await;
    expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "invalid");
}

#[tokio::test]
async fn save_applies_the_local_save_rule() {
    let answer = post("/api/save", json!({"state": "short", "previous": "old"})).await;
    assert_eq!(answer.0, StatusCode::OK);
    assert_eq!(answer.1, json!({"outcome": "saved", "stored": "short"}));

    let long = "é".repeat(LOCAL_SAVE_MAX_UNITS + 1);
    let answer = post("/api/save", json!({"state": long, "previous": "old"})).await;
    assert_eq!(answer.0, StatusCode::OK);
    assert_eq!(answer.1["outcome"], "kept");
    assert_eq!(answer.1["stored"], "old");
    assert!(
        answer.1["warning"]
            .as_str()
            .unwrap()
            .contains("previous copy is kept")
    );

    let answer = post("/api/save", json!({"previous": "old"})).await;
    expect_error(&answer, StatusCode::BAD_REQUEST, "invalid_request");
}

#[tokio::test]
async fn estimates_series_and_bad_queries() {
    let answer = send("GET", "/api/estimates?m=8&k=1&n=1", Vec::new()).await;
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    assert_eq!(answer.1["m"], 8);
    assert_eq!(answer.1["n"], 1);
    let at_one = answer.1["points"]
        .as_array()
        .unwrap()
        .iter()
        .find(|point| point["n"] == 1)
        .unwrap();
    assert!((at_one["classic"].as_f64().unwrap() - (1.0 - (-1.0_f64 / 8.0).exp())).abs() < 1e-12);
    assert_eq!(at_one["exact"], 0.125);

    for uri in [
        "/api/estimates",
        "/api/estimates?m=8",
        "/api/estimates?m=x&k=1",
        "/api/estimates?m=8&k=-1",
        "/api/estimates?m=8&k=1&colour=red",
    ] {
        let answer = send("GET", uri, Vec::new()).await;
        expect_error(&answer, StatusCode::BAD_REQUEST, "invalid_request");
    }
}

#[tokio::test]
async fn share_and_restore() {
    let (session, _) = half_rate_session().await;
    let answer = post("/api/share", json!({"session": session})).await;
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    let fragment = answer.1["fragment"].as_str().unwrap().to_owned();
    assert!(fragment.starts_with("#share="));

    let link = format!("http://127.0.0.1:9/{fragment}");
    let answer = post("/api/restore", json!({"session": null, "fragment": link})).await;
    assert_eq!(answer.0, StatusCode::OK, "{}", answer.1);
    let view = &answer.1["view"];
    assert_eq!(view["params"], json!({"m": 8, "k": 1}));
    assert_eq!(view["distinct_entries"], 1);
    assert_eq!(view["bits"], "00001000");

    let answer = post("/api/share", json!({"session": null})).await;
    expect_error(
        &answer,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no_active_filter",
    );

    let answer = post(
        "/api/restore",
        json!({"session": null, "fragment": "#share=%%%"}),
    )
    .await;
    expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "invalid");

    let bad_m = bloomproof_explorer::encode_fragment(&bloomproof_explorer::SharedFilter {
        m: 4,
        k: 1,
        entries: Vec::new(),
    });
    let answer = post(
        "/api/restore",
        json!({"session": session, "fragment": bad_m}),
    )
    .await;
    let message = expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "out_of_range");
    assert!(message.contains("parameters"), "{message}");

    let empty_entry = bloomproof_explorer::encode_fragment(&bloomproof_explorer::SharedFilter {
        m: 8,
        k: 1,
        entries: vec!["a".into(), "".into()],
    });
    let answer = post(
        "/api/restore",
        json!({"session": null, "fragment": empty_entry}),
    )
    .await;
    let message = expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "empty_string");
    assert!(message.contains("entry 1"), "{message}");

    // A link that lists an entry twice is invalid, and the session sent stays.
    let twice = bloomproof_explorer::encode_fragment(&bloomproof_explorer::SharedFilter {
        m: 8,
        k: 1,
        entries: vec!["a".into(), "b".into(), "a".into()],
    });
    let answer = post(
        "/api/restore",
        json!({"session": session, "fragment": twice}),
    )
    .await;
    let message = expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "invalid");
    assert!(
        message.contains("entries 0 and 2") && message.contains("once"),
        "{message}"
    );
    // So is one whose JSON is an array of the values in order.
    let array = format!("#share={}", base64_url(br#"[1,8,1,["a"]]"#));
    let answer = post("/api/restore", json!({"session": null, "fragment": array})).await;
    let message = expect_error(&answer, StatusCode::UNPROCESSABLE_ENTITY, "invalid");
    assert!(message.contains("a JSON object"), "{message}");
}

/// Unpadded base64url, as a shared link writes it.
fn base64_url(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[tokio::test]
async fn unknown_paths_and_methods_answer_json() {
    let answer = send("GET", "/api/nothing", Vec::new()).await;
    expect_error(&answer, StatusCode::NOT_FOUND, "not_found");
    let answer = send("GET", "/api/apply", Vec::new()).await;
    expect_error(
        &answer,
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
    );
    let answer = send("DELETE", "/", Vec::new()).await;
    expect_error(
        &answer,
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
    );
}

#[tokio::test]
async fn the_page_and_its_assets_are_served_with_a_strict_policy() {
    for (uri, content_type, needle) in [
        ("/", "text/html; charset=utf-8", "Bloom filter explorer"),
        (
            "/assets/app.js",
            "text/javascript; charset=utf-8",
            "/api/apply",
        ),
        ("/assets/style.css", "text/css; charset=utf-8", ".bitgrid"),
    ] {
        let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let response = router().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let headers = response.headers();
        assert_eq!(headers[header::CONTENT_TYPE], content_type);
        assert!(
            headers[header::CONTENT_SECURITY_POLICY]
                .to_str()
                .unwrap()
                .contains("script-src 'self'")
        );
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        assert!(String::from_utf8_lossy(&bytes).contains(needle));
    }
}

/// Deterministic garbage: every body is answered, none with a 5xx.
#[tokio::test]
async fn garbage_bodies_never_fail_the_server() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let pieces: [&[u8]; 12] = [
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"session\":",
        b"\"op\":",
        b"{\"op\":\"insert\",\"value\":",
        b"null",
        b"\"a\"",
        b",",
        b"\xc3",
        b"[55296]",
    ];
    for round in 0..300 {
        let mut body = Vec::new();
        for _ in 0..(next() % 12) {
            body.extend_from_slice(pieces[(next() % pieces.len() as u64) as usize]);
        }
        let uri = [
            "/api/apply",
            "/api/import",
            "/api/save",
            "/api/share",
            "/api/restore",
        ][round % 5];
        let (status, value) = send("POST", uri, body.clone()).await;
        assert!(
            status.is_success() || status.is_client_error(),
            "{uri} {:?}: {status} {value}",
            String::from_utf8_lossy(&body)
        );
        if status.is_client_error() {
            assert!(value["error"]["kind"].is_string(), "{value}");
        }
    }
}

#[test]
fn defaults_are_loopback_and_a_free_port() {
    let options = Options::default();
    assert_eq!(options.host.to_string(), "127.0.0.1");
    assert_eq!(options.port, 0);
    assert!(!options.open);
    assert_eq!(
        url_for("127.0.0.1:8080".parse().unwrap()),
        "http://127.0.0.1:8080/"
    );
    assert_eq!(
        url_for("0.0.0.0:80".parse().unwrap()),
        "http://127.0.0.1:80/"
    );
    assert_eq!(url_for("[::]:80".parse().unwrap()), "http://[::1]:80/");
}

/// A real server on loopback (what `bloomproof explore` runs), spoken to over TCP.
#[tokio::test]
async fn real_loopback_server() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(bloomproof_explorer::serve_listener(
        listener,
        bloomproof_explorer::Timeouts::default(),
    ));
    // Sends a request and reads one response (headers, then Content-Length bytes).
    let exchange = |request: String| {
        tokio::task::spawn_blocking(move || {
            use std::io::{Read, Write};
            let mut stream = std::net::TcpStream::connect(addr).unwrap();
            stream
                .set_read_timeout(Some(std::time::Duration::from_secs(20)))
                .unwrap();
            stream.write_all(request.as_bytes()).unwrap();
            let mut reply = Vec::new();
            let mut buffer = [0_u8; 4096];
            loop {
                let text = String::from_utf8_lossy(&reply).into_owned();
                if let Some(end) = text.find("\r\n\r\n") {
                    let length = text[..end]
                        .lines()
                        .find_map(|line| {
                            let (name, value) = line.split_once(':')?;
                            name.eq_ignore_ascii_case("content-length")
                                .then(|| value.trim().parse::<usize>().ok())?
                        })
                        .unwrap_or(0);
                    if reply.len() >= end + 4 + length {
                        return text;
                    }
                }
                let read = stream.read(&mut buffer).unwrap();
                assert!(read > 0, "connection closed early: {text}");
                reply.extend_from_slice(&buffer[..read]);
            }
        })
    };
    let body = r#"{"session":null,"ops":[{"op":"set_draft","field":"m","value":"8"},{"op":"set_draft","field":"k","value":"1"},{"op":"create"},{"op":"insert_example"}]}"#;
    let reply = exchange(format!(
        "POST /api/apply HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    ))
    .await
    .unwrap();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(reply.contains(r#""bits":"11111111""#));

    let reply = exchange(format!(
        "POST /api/apply HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 4\r\nConnection: close\r\n\r\n{{no}}"
    ))
    .await
    .unwrap();
    assert!(reply.starts_with("HTTP/1.1 400"), "{reply}");
    assert!(reply.contains("malformed_json"));

    // A declared length over the import limit is refused without sending the body.
    let reply = exchange(format!(
        "POST /api/import HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        IMPORT_MAX_BYTES + 1
    ))
    .await
    .unwrap();
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    assert!(reply.contains("too_large"));
    server.abort();
}
