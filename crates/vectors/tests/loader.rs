//! The loader refuses every kind of malformed file, naming the file and the case, and
//! never panics.

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_vectors::{
    DocBounds, FileKind, VectorFile, Version, load_file, parse, parse_bytes, parse_named,
    parse_named_in,
};

/// A valid two-case `doc-membership-v1` positions file (the source document's framing
/// example, and doc-00 under its fixture parameters).
const DOC: &str = r#"{
  "$schema": "../schemas/doc-membership-v1.positions.schema.json",
  "protocol": "doc-membership-v1",
  "kind": "positions",
  "format_version": 4,
  "generator": "test",
  "case_count": 2,
  "flags": {
    "m-not-multiple-of-8": "m is not a multiple of 8",
    "published": "a published figure"
  },
  "cases": [
    {"id":"published/m9","flags":["m-not-multiple-of-8","published"],"params":{"m":9,"k":2,"seed_hex":"53"},"item_hex":"0041","hashes":[{"index":0,"message_hex":"646f632d6d656d626572736869702d76310000090201530000020041","digest_hex":"24b2cf1619b3d11a6f4d4ac76458d1b3989d9e5bd2dd3e3c6f00875fedb86931","position":7},{"index":1,"message_hex":"646f632d6d656d626572736869702d76310000090201530100020041","digest_hex":"81a882f9152f9b182a78ff82ce444c6d4828eef206166f4c6afb829a0bb58b17","position":8}],"positions":[7,8]},
    {"id":"published/doc-00","flags":["published"],"params":{"m":16,"k":3,"seed_hex":"6c6162"},"item_hex":"646f632d3030","hashes":[{"index":0,"message_hex":"646f632d6d656d626572736869702d763100001003036c6162000006646f632d3030","digest_hex":"9a3981579d371581545c12d12ce152dd09cd1bfbffc03f75531b1dc4724d1ac4","position":4},{"index":1,"message_hex":"646f632d6d656d626572736869702d763100001003036c6162010006646f632d3030","digest_hex":"5b0d815377d7a556afbc61031e9a12ca905bbcdc58afc6f35c3eb64ef72ac29f","position":15},{"index":2,"message_hex":"646f632d6d656d626572736869702d763100001003036c6162020006646f632d3030","digest_hex":"b5e73c9e005f5844f48b53fd7098bb1d11e71ab043e94ba14cc6e8bfd87f804c","position":12}],"positions":[4,15,12]}
  ]
}
"#;

/// A valid one-case `fnv1a-utf16-v1` positions file.
const FNV: &str = r#"{
  "$schema": "../schemas/fnv1a-utf16-v1.positions.schema.json",
  "protocol": "fnv1a-utf16-v1",
  "kind": "positions",
  "format_version": 4,
  "generator": "test",
  "case_count": 1,
  "flags": {"published": "a published figure"},
  "cases": [
    {"id":"published/a","flags":["published"],"m":8,"k":1,"units":[97],"text":"a","h1":3826002220,"h2":428013963,"positions":[4]}
  ]
}"#;

/// A valid one-case `doc-membership-v1` snapshots file.
const SNAPSHOT: &str = r#"{
  "$schema": "../schemas/doc-membership-v1.snapshots.schema.json",
  "protocol": "doc-membership-v1",
  "kind": "snapshots",
  "format_version": 4,
  "generator": "test",
  "case_count": 1,
  "flags": {"non-member": "not a record"},
  "cases": [
    {"id":"boundary/empty","flags":["non-member"],"params":{"m":8,"k":1,"seed_hex":""},"records_hex":[],"packed_hex":"00","bits_set":0,"documents":0,"lookups":[{"item_hex":"61","flags":["non-member"],"expect":{"maybe_present":false,"exact_checked":false,"duplicate":false}}]}
  ]
}"#;

/// A valid one-case `doc-membership-v1` rejections file.
const REJECTION: &str = r#"{
  "$schema": "../schemas/doc-membership-v1.rejections.schema.json",
  "protocol": "doc-membership-v1",
  "kind": "rejections",
  "format_version": 4,
  "generator": "test",
  "case_count": 1,
  "flags": {"type-error": "a type error"},
  "cases": [
    {"id":"m/type-bool-true","flags":["type-error"],"input":{"records":{"tuple":[{"bytes":"61"},{"bytes":""}]},"m":{"bool":true},"k":{"int":3},"seed":{"bytes":"6c6162"}},"expect":{"error":"type","field":"m"}}
  ]
}"#;

/// The error text of parsing `text` as `name`, which must fail.
fn refused(name: &str, text: &str) -> String {
    match parse_named(name, text) {
        Ok(file) => panic!("accepted a malformed file ({} cases)", file.case_count()),
        Err(err) => {
            assert!(!err.problems.is_empty());
            err.to_string()
        }
    }
}

fn assert_names(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "{part:?} missing from:\n{message}");
    }
}

#[test]
fn fixtures_are_valid() {
    let doc = parse(DOC).unwrap();
    assert_eq!(doc.file_kind(), FileKind::DocPositions);
    assert_eq!(doc.ids(), ["published/m9", "published/doc-00"]);
    assert!(matches!(parse(FNV).unwrap(), VectorFile::FnvPositions(_)));
    assert!(matches!(
        parse(SNAPSHOT).unwrap(),
        VectorFile::DocSnapshots(_)
    ));
    assert!(matches!(
        parse(REJECTION).unwrap(),
        VectorFile::DocRejections(_)
    ));
}

/// A version's file (`protocol` the version's name) is read in the format its caller
/// names for it, and only then: its kind is that format's, its header keeps the name.
#[test]
fn a_versions_file_is_read_in_its_familys_format() {
    let v2 = DOC.replace(
        r#""protocol": "doc-membership-v1""#,
        r#""protocol": "doc-membership-v2""#,
    );
    assert_names(
        &refused("t.json", &v2),
        &["unknown `protocol`/`kind` pair", "doc-membership-v2"],
    );
    let versions = [Version {
        name: "doc-membership-v2",
        format: "doc-membership-v1",
        doc_bounds: None,
    }];
    let file = parse_named_in("t.json", &v2, &versions).unwrap();
    assert_eq!(
        (file.file_kind(), file.protocol()),
        (FileKind::DocPositions, "doc-membership-v2")
    );
    assert_eq!(parse(DOC).unwrap().protocol(), "doc-membership-v1");
    let other = v2.replace("doc-membership-v2", "doc-membership-v3");
    let err = parse_named_in("t.json", &other, &versions).unwrap_err();
    assert_names(
        &err.to_string(),
        &[
            "doc-membership-v3",
            "(and doc-membership-v2, as doc-membership-v1)",
        ],
    );
}

/// A narrow `doc-membership-v2`: v1's domain length, k at most 4, items of at most
/// 32 bytes (written out here, not read from any production value).
const NARROW: DocBounds = DocBounds {
    domain_len: 18,
    m: [8, 512],
    k: [1, 4],
    seed_max: 16,
    item_max: 32,
    records_max: 64,
};

/// A positions file of `protocol` holding one case of m 16, the seed "lab", `k` hashes
/// and an item of `item_len` bytes, each message as long as its fields make it (the
/// digests and positions are placeholders the loader does not recompute).
fn positions_file(protocol: &str, k: usize, item_len: usize) -> String {
    let message = "00".repeat(18 + 2 + 1 + 1 + 3 + 1 + 2 + item_len);
    let hashes: Vec<String> = (0..k)
        .map(|index| {
            format!(
                r#"{{"index":{index},"message_hex":"{message}","digest_hex":"{}","position":{index}}}"#,
                "00".repeat(32)
            )
        })
        .collect();
    let positions: Vec<String> = (0..k).map(|index| index.to_string()).collect();
    format!(
        r#"{{"$schema": "../schemas/doc-membership-v1.positions.schema.json", "protocol": "{protocol}",
  "kind": "positions", "format_version": 4, "generator": "test", "case_count": 1, "flags": {{}},
  "cases": [{{"id":"edge/k{k}-item{item_len}","flags":[],"params":{{"m":16,"k":{k},"seed_hex":"6c6162"}},"item_hex":"{}","hashes":[{}],"positions":[{}]}}]}}"#,
        "61".repeat(item_len),
        hashes.join(","),
        positions.join(",")
    )
}

/// The per-case checks hold a file's cases to its version's bounds: under the narrow
/// v2, a case of k 5 or of a 33-byte item is refused naming the case and the field; the
/// same case in a v1 file (v1's bounds) is accepted, as is the narrow v2's own edge (k
/// 4, a 32-byte item).
#[test]
fn a_versions_cases_are_held_to_its_bounds() {
    let versions = [Version {
        name: "doc-membership-v2",
        format: "doc-membership-v1",
        doc_bounds: Some(NARROW),
    }];
    let v2 = |k, item| {
        parse_named_in(
            "v2.json",
            &positions_file("doc-membership-v2", k, item),
            &versions,
        )
    };
    let v1 = |k, item| {
        parse_named_in(
            "v1.json",
            &positions_file("doc-membership-v1", k, item),
            &versions,
        )
    };
    for (k, item, field) in [
        (5, 3, "params.k = 5 is outside 1..=4"),
        (3, 33, "item_hex is 33 bytes: at most 32 are allowed"),
    ] {
        let err = v2(k, item).unwrap_err();
        assert_names(
            &err.to_string(),
            &[&format!("v2.json: case `edge/k{k}-item{item}`: {field}")],
        );
        assert_eq!(err.problems.len(), 1, "{err}");
        let file = v1(k, item).unwrap();
        assert_eq!(file.ids(), [format!("edge/k{k}-item{item}")]);
    }
    assert_eq!(v2(4, 32).unwrap().protocol(), "doc-membership-v2");
    // Beyond v1's bounds too: refused under both.
    assert_names(
        &v1(9, 3).unwrap_err().to_string(),
        &["params.k = 9 is outside 1..=8"],
    );
    // A version's domain length sets the message length its cases must have.
    let longer = [Version {
        doc_bounds: Some(DocBounds {
            domain_len: 19,
            ..NARROW
        }),
        ..versions[0]
    }];
    let err = parse_named_in(
        "v2.json",
        &positions_file("doc-membership-v2", 1, 3),
        &longer,
    )
    .unwrap_err();
    assert_names(
        &err.to_string(),
        &["hashes[0].message_hex is 31 bytes; the fields make 32"],
    );
}

/// Each `(fixture, from, to, parts)`: the fixture with `from` (which must occur)
/// replaced by `to` is refused as `t.json`, with every one of `parts` in the message.
fn assert_each_refused(cases: &[(&str, &str, &str, &[&str])]) {
    for (fixture, from, to, parts) in cases {
        assert!(fixture.contains(from), "{from:?} is not in the fixture");
        assert_names(&refused("t.json", &fixture.replace(from, to)), parts);
    }
}

#[test]
fn unknown_fields_are_refused_in_the_header_and_in_a_case() {
    assert_each_refused(&[
        (
            DOC,
            "\"generator\": \"test\",",
            "\"generator\": \"test\", \"extra\": 1,",
            &["t.json", "unknown field `extra`"],
        ),
        (
            DOC,
            "\"id\":\"published/doc-00\",",
            "\"id\":\"published/doc-00\",\"note\":\"x\",",
            &["t.json", "case `published/doc-00`", "unknown field `note`"],
        ),
        (
            DOC,
            "\"index\":0,\"message_hex\":\"646f632d6d656d626572736869702d76310000090201530000020041\"",
            "\"index\":0,\"bits\":1,\"message_hex\":\"646f632d6d656d626572736869702d76310000090201530000020041\"",
            &["case `published/m9`", "hashes[0]", "unknown field `bits`"],
        ),
        (
            SNAPSHOT,
            "\"duplicate\":false",
            "\"duplicate\":false,\"x\":1",
            &[
                "case `boundary/empty`",
                "lookups[0].expect",
                "unknown field `x`",
            ],
        ),
        (
            SNAPSHOT,
            "\"expect\":{\"maybe_present\":false,\"exact_checked\":false,\"duplicate\":false}",
            "\"maybe_present\":false,\"exact_checked\":false,\"duplicate\":false",
            &[
                "case `boundary/empty`",
                "lookups[0]",
                "unknown field `maybe_present`",
            ],
        ),
    ]);
    let typed = REJECTION.replace("{\"bool\":true}", "{\"bool\":true,\"int\":1}");
    let message = refused("r.json", &typed);
    assert_names(&message, &["case `m/type-bool-true`", "at input.m"]);
    assert!(!message.contains("no case uses it"), "{message}");
}

#[test]
fn counts_ids_and_flags_are_checked() {
    assert_each_refused(&[
        (
            DOC,
            "\"case_count\": 2",
            "\"case_count\": 3",
            &["t.json", "`case_count` says 3 but the file has 2 cases"],
        ),
        (
            DOC,
            "\"id\":\"published/doc-00\"",
            "\"id\":\"published/m9\"",
            &["t.json", "case `published/m9`", "duplicate case id"],
        ),
        (
            FNV,
            "\"id\":\"published/a\"",
            "\"id\":\"\"",
            &["case `#0`", "the case id is empty"],
        ),
        (
            DOC,
            "\"flags\":[\"published\"]",
            "\"flags\":[\"published\",\"max-m\"]",
            &["case `published/doc-00`", "flag \"max-m\" is not declared"],
        ),
        (
            SNAPSHOT,
            "\"flags\":[\"non-member\"],\"expect",
            "\"flags\":[\"non-member\",\"ghost\"],\"expect",
            &[
                "case `boundary/empty`",
                "lookups[0]: flag \"ghost\" is not declared",
            ],
        ),
        (
            FNV,
            "\"flags\": {\"published\": \"a published figure\"}",
            "\"flags\": {\"published\": \"a published figure\", \"sweep\": \"unused\"}",
            &["t.json", "flag \"sweep\" is declared", "no case uses it"],
        ),
        (
            FNV,
            "\"flags\":[\"published\"]",
            "\"flags\":[\"published\",\"published\"]",
            &["case `published/a`", "given twice"],
        ),
    ]);
}

#[test]
fn bad_hex_is_refused() {
    for (bad, what) in [
        ("\"seed_hex\":\"5\"", "odd number of hex digits"),
        ("\"seed_hex\":\"zz\"", "'z' at offset 0 is not a hex digit"),
        ("\"seed_hex\":\"4G\"", "'G' at offset 1 is not a hex digit"),
        (
            "\"seed_hex\":\"0x53\"",
            "'x' at offset 1 is not a hex digit",
        ),
        ("\"seed_hex\":\" 53\"", "' ' at offset 0 is not a hex digit"),
    ] {
        let text = DOC.replace("\"seed_hex\":\"53\"", bad);
        assert_names(
            &refused("hex.json", &text),
            &[
                "hex.json",
                "case `published/m9`",
                "seed_hex",
                "bad hex",
                what,
            ],
        );
    }
    let typed = REJECTION.replace("{\"bytes\":\"6c6162\"}", "{\"bytes\":\"6C616\"}");
    assert_names(
        &refused("r.json", &typed),
        &["case `m/type-bool-true`", "bad hex"],
    );
}

#[test]
fn header_values_are_checked() {
    assert_each_refused(&[
        (
            DOC,
            "\"protocol\": \"doc-membership-v1\"",
            "\"protocol\": \"no-such-protocol-v1\"",
            &["t.json", "unknown `protocol`/`kind` pair"],
        ),
        (
            FNV,
            "\"kind\": \"positions\"",
            "\"kind\": \"snapshots\"",
            &["unknown `protocol`/`kind` pair"],
        ),
        (
            DOC,
            "\"format_version\": 4",
            "\"format_version\": 3",
            &["`format_version` is 3"],
        ),
        (
            DOC,
            "../schemas/doc-membership-v1.positions.schema.json",
            "x.json",
            &["`$schema` is \"x.json\""],
        ),
        (
            DOC,
            "\"generator\": \"test\",",
            "",
            &["missing field `generator`"],
        ),
    ]);
}

#[test]
fn self_contradicting_cases_are_refused() {
    assert_each_refused(&[
        (
            DOC,
            "\"m\":9,\"k\":2",
            "\"m\":9,\"k\":3",
            &["case `published/m9`", "`hashes` has 2 entries but k = 3"],
        ),
        (
            DOC,
            "\"positions\":[7,8]",
            "\"positions\":[7,9]",
            &["positions[1] differs"],
        ),
        (DOC, "\"m\":9,", "\"m\":7,", &["m = 7 is outside 8..=512"]),
        (
            SNAPSHOT,
            "\"packed_hex\":\"00\"",
            "\"packed_hex\":\"0000\"",
            &["needs ceil(m/8) = 1"],
        ),
        (
            SNAPSHOT,
            "\"exact_checked\":false",
            "\"exact_checked\":true",
            &["lookups[0].expect: exact_checked must equal maybe_present"],
        ),
        (
            FNV,
            "\"text\":\"a\"",
            "\"text\":\"b\"",
            &["does not encode to `units`"],
        ),
        (FNV, "\"text\":\"a\",", "", &["`text` must be given"]),
        (
            FNV,
            "\"units\":[97]",
            "\"units\":[65536]",
            &["case `published/a`", "units"],
        ),
    ]);
}

#[test]
fn not_json_and_not_utf8_are_refused() {
    for text in ["", "[]", "{", "null", "{}", "\"x\""] {
        assert_names(&refused("x.json", text), &["x.json", "not a vector file"]);
    }
    let trailing = format!("{FNV} {{}}");
    assert_names(&refused("x.json", &trailing), &["trailing characters"]);
    let duplicate_key = FNV.replace("\"m\":8,", "\"m\":8,\"m\":8,");
    assert_names(&refused("x.json", &duplicate_key), &["duplicate field `m`"]);
    let err = parse_bytes(&[0x7b, 0xff, 0x7d]).unwrap_err();
    assert_names(&err.to_string(), &["<input>", "not UTF-8"]);
}

#[test]
fn load_file_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("positions.json");
    std::fs::write(&path, DOC.replace("\"case_count\": 2", "\"case_count\": 1")).unwrap();
    let message = load_file(&path).unwrap_err().to_string();
    assert_names(&message, &[&path.display().to_string(), "case_count"]);
    std::fs::write(&path, DOC).unwrap();
    assert_eq!(load_file(&path).unwrap().case_count(), 2);
    let missing = load_file(dir.path().join("nope.json")).unwrap_err();
    assert_names(&missing.to_string(), &["nope.json", "cannot read"]);
}

#[test]
fn every_problem_is_reported_not_just_the_first() {
    let text = DOC
        .replace("\"case_count\": 2", "\"case_count\": 5")
        .replace("\"id\":\"published/doc-00\"", "\"id\":\"published/m9\"")
        .replace("\"seed_hex\":\"6c6162\"", "\"seed_hex\":\"6c616\"");
    let err = parse(&text).unwrap_err();
    assert!(err.problems.len() >= 2, "{err}");
}

/// Xorshift64 (Marsaglia 2003): deterministic mutations, no generator crate needed.
struct Xorshift(u64);

impl Xorshift {
    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `low..=high`.
    fn range_usize(&mut self, low: usize, high: usize) -> usize {
        low + (self.next_u64() % (high - low + 1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.range_usize(0, items.len() - 1))
    }
}

#[test]
fn never_panics_on_mutated_or_hostile_input() {
    let mut rng = Xorshift(7);
    for fixture in [DOC, FNV, SNAPSHOT, REJECTION] {
        let bytes = fixture.as_bytes();
        for _ in 0..1500 {
            let mut mutated = bytes.to_vec();
            for _ in 0..rng.range_usize(1, 4) {
                let at = rng.range_usize(0, mutated.len() - 1);
                match rng.range_usize(0, 2) {
                    0 => mutated[at] = rng.next_u64() as u8,
                    1 => {
                        mutated.remove(at);
                    }
                    _ => {
                        let byte = *rng.pick(b"{}[]\",:0123456789-.eE\\ ").unwrap();
                        mutated.insert(at, byte);
                    }
                }
            }
            let _ = parse_bytes(&mutated);
        }
    }
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(parse(&deep).is_err());
    let deep_value = REJECTION.replace(
        "{\"bool\":true}",
        &format!(
            "{}{{\"int\":1}}{}",
            "{\"tuple\":[".repeat(5_000),
            "]}".repeat(5_000)
        ),
    );
    assert!(parse(&deep_value).is_err());
    let huge = FNV.replace("\"m\":8", "\"m\":99999999999999999999999999");
    assert!(parse(&huge).is_err());
}
