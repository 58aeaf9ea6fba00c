//! The oracle's estimates against the values `spec/derive/fnv1a_utf16_v1.py` pinned
//! with exact rational arithmetic (Python's `fractions`), and SESSION.md's example.

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_oracle::estimates::estimates;
use serde_json::Value;

fn close(want: f64, got: f64) -> bool {
    want == got || (want - got).abs() <= 1e-9 * want.abs().max(got.abs())
}

#[test]
fn the_pinned_points_of_the_spec() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../spec/fnv1a-utf16-v1/cases.json"
    );
    let cases: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut seen = 0;
    for case in cases["cases"].as_array().unwrap() {
        if case["shape"] != "estimates" {
            continue;
        }
        let n = |v: &Value| u32::try_from(v.as_u64().unwrap()).unwrap();
        let (input, want) = (&case["input"], &case["expect"]);
        let got = estimates(n(&input["m"]), n(&input["k"]), n(&input["n"]));
        // Each case pins what its check compares: the classic estimate alone (the
        // core check `classic_estimate_pinned`), or every estimate and optimal k.
        for (name, value) in [
            ("classic", got.classic),
            ("finite_m", got.finite_m),
            ("exact", got.exact),
        ] {
            let Some(expected) = want[name].as_f64() else {
                assert_ne!(name, "classic", "{}: every case pins classic", case["id"]);
                continue;
            };
            assert!(
                close(expected, value),
                "{}: {name} {expected} vs {value}",
                case["id"]
            );
        }
        if let Some(optimal_k) = want["optimal_k"].as_u64() {
            assert_eq!(u64::from(got.optimal_k), optimal_k, "{}", case["id"]);
            if want["finite_m"].is_f64() && want["exact"].is_f64() {
                seen += 1;
            }
        }
    }
    // The nine points first pinned, and those pinned since (optimal k away from them,
    // clamped inputs).
    assert!(seen >= 9, "{seen} estimates cases pinning every estimate");
}

#[test]
fn the_example_of_session_md() {
    let e = estimates(8, 1, 1);
    assert!(close(0.1175030974154046, e.classic));
    assert_eq!((e.finite_m, e.exact, e.optimal_k), (0.125, 0.125, 6));
    let empty = estimates(64, 3, 0);
    assert_eq!(
        (empty.classic, empty.finite_m, empty.exact, empty.optimal_k),
        (0.0, 0.0, 0.0, 1)
    );
    // Clamped inputs.
    assert_eq!(estimates(0, 0, 5000).used, (8, 1, 1024));
}
