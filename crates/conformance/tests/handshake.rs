//! The adapter protocol's handshake: the first exchange of every run. An adapter of
//! another version, one that does not answer it, or one whose answer is malformed ends
//! the run before any check with one paragraph; the protocols an adapter lists are the
//! ones whose checks run.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bloomproof_conformance::load;
use bloomproof_conformance::run::{Subjects, run};
use std::path::Path;
use std::time::Duration;

/// An adapter that answers the handshake with `result` (JSON text), then every other
/// request with `bad_request`.
fn answering(result: &str) -> String {
    format!(
        r#"read -r _; printf '%s\n' '{{"id":0,"result":{result}}}'; while read -r _; do echo '{{"id":null,"error":{{"kind":"bad_request","message":"no"}}}}'; done"#
    )
}

fn refused(command: &str) -> String {
    match Subjects::adapter(command, Duration::from_secs(5)) {
        Ok(_) => panic!("{command}: the handshake was accepted"),
        Err(paragraph) => paragraph,
    }
}

fn assert_has(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "missing {part:?} in {text}");
    }
    // One paragraph: what was expected, and where the changes are listed.
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains(r#"it opens every run with {"id": 0, "op": "start", "adapter_protocol": 3}"#)
    );
    assert!(text.contains(r#"ADAPTER.md (sections "Handshake" and "Changes""#));
}

const INFO: &str = r#"{"name":"t","language":"sh","version":"1"}"#;

#[test]
fn an_adapter_of_version_1_is_told_so_once() {
    // Version 1 had no handshake: such an adapter answers `start` as an unknown op.
    let paragraph = refused(
        r#"while read -r _; do echo '{"id":0,"error":{"kind":"bad_request","message":"unknown protocol/op None/start"}}'; done"#,
    );
    assert_has(
        &paragraph,
        &[
            "answered the handshake with an error (bad_request: unknown protocol/op None/start)",
            "version 1 of the adapter protocol, which had no handshake",
        ],
    );
}

#[test]
fn another_version_is_named() {
    // The runner speaks 3 and still runs 2 (ADAPTER.md "Changes"): 1 and 4 are refused.
    for version in [1, 4] {
        let paragraph = refused(&answering(&format!(
            r#"{{"adapter_protocol":{version},"implementation":{INFO},"protocols":["doc-membership-v1"]}}"#
        )));
        assert_has(
            &paragraph,
            &[
                &format!("speaks adapter protocol version {version}"),
                "This runner speaks adapter protocol version 3 (and still runs adapters of version 2)",
            ],
        );
    }
    for version in [2, 3] {
        let command = answering(&format!(
            r#"{{"adapter_protocol":{version},"implementation":{INFO},"protocols":["doc-membership-v1"]}}"#
        ));
        assert!(
            Subjects::adapter(&command, Duration::from_secs(5)).is_ok(),
            "{version}"
        );
    }
}

#[test]
fn silence_and_a_malformed_answer_are_named() {
    let paragraph = refused("exit 0");
    assert_has(&paragraph, &["did not answer the handshake", "exited"]);
    for (result, says) in [
        (r#"{"adapter_protocol":2}"#.to_string(), "which is not a start result"),
        (
            format!(r#"{{"adapter_protocol":2,"implementation":{INFO},"protocols":[]}}"#),
            "listed no protocol",
        ),
        (
            format!(r#"{{"adapter_protocol":2,"implementation":{INFO},"protocols":["no-such-protocol-v1"]}}"#),
            "listed the protocol no-such-protocol-v1",
        ),
        (
            format!(r#"{{"adapter_protocol":2,"implementation":{INFO},"protocols":["fnv1a-utf16-v1","fnv1a-utf16-v1"]}}"#),
            "may be listed once",
        ),
        (
            r#"{"adapter_protocol":2,"implementation":{"name":"","language":"sh","version":"1"},"protocols":["fnv1a-utf16-v1"]}"#.to_string(),
            "gave an implementation name of 0 characters",
        ),
    ] {
        assert_has(&refused(&answering(&result)), &[says]);
    }
}

#[test]
fn only_the_protocols_an_adapter_lists_are_run() {
    let spec = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec")).unwrap();
    let command = answering(&format!(
        r#"{{"adapter_protocol":2,"implementation":{INFO},"protocols":["doc-membership-v1"]}}"#
    ));
    let mut subjects = Subjects::adapter(&command, Duration::from_secs(5)).unwrap();
    let report = run(&spec, &mut subjects, None);
    // Every other protocol is not run: its documented checks and its accumulated
    // digest.
    let others: Vec<(String, usize)> = spec
        .protocols
        .iter()
        .filter(|p| p.protocol != "doc-membership-v1")
        .map(|p| (p.protocol.clone(), p.checks.len() + 1))
        .collect();
    assert!(!others.is_empty());
    assert!(
        report
            .checks
            .iter()
            .all(|c| c.protocol == "doc-membership-v1")
    );
    assert!(!report.checks.is_empty());
    let not_run: Vec<(String, usize)> = report
        .not_implemented
        .iter()
        .map(|n| (n.protocol.clone(), n.checks))
        .collect();
    assert_eq!(not_run, others);
    assert_eq!(
        report
            .adapter
            .as_ref()
            .map(|s| s.implementation.name.as_str()),
        Some("t")
    );
    let text = report.render_text();
    assert!(
        text.contains("adapter: t 1 (sh), adapter protocol 2, implements doc-membership-v1"),
        "{text}"
    );
    for (protocol, checks) in &others {
        assert!(
            text.contains(&format!(
                "not run: {protocol} ({checks} checks): the adapter's handshake does not list it"
            )),
            "{text}"
        );
    }
}
