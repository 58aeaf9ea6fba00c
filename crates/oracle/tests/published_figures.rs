//! The published figures as the spec writes them (`published_figures` of
//! `spec/<protocol>/checks.json`, the one place they are written: the derive scripts
//! and the vector writer's hand-picked data read them there) against the oracle:
//! the oracle computes every one of them again from the seeds' own inputs. A figure
//! this test does not know fails it, so a new published figure gets a computation here.

#![allow(clippy::unwrap_used, clippy::panic)]

use bloomproof_oracle::{doc_membership, fnv1a_utf16};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The published figures of `protocol`, by name.
fn published(protocol: &str) -> BTreeMap<String, Value> {
    let path = format!(
        "{}/../../spec/{protocol}/checks.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let checks: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    checks["published_figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|figure| {
            let name = figure["name"].as_str().unwrap().to_string();
            (name, figure["value"].clone())
        })
        .collect()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Seed 000's fixture: the 64 labels doc-00..doc-63, the first four members, m 16,
/// k 3, seed "lab" (its section 4); the shared-bit fault of its check 10; the
/// exhaustive comparison of its check 13 (every subset of 8 records under 4
/// profiles, 12 queries each).
#[test]
fn the_oracle_reproduces_doc_membership_v1s_published_figures() {
    let (m, k, seed) = (16, 3, &b"lab"[..]);
    let universe: Vec<Vec<u8>> = (0..64)
        .map(|n| format!("doc-{n:02}").into_bytes())
        .collect();
    let (members, non_members) = universe.split_at(4);
    let bits = doc_membership::occupied(doc_membership::DOMAIN_HEX, members, m, k, seed);
    let false_positives: Vec<&Vec<u8>> = non_members
        .iter()
        .filter(|item| {
            doc_membership::maybe_present(doc_membership::DOMAIN_HEX, &bits, m, k, seed, item)
        })
        .collect();
    // The fault: the first member with a bit it shares with the next one is removed and
    // that bit cleared; the next member that has the bit is damaged.
    let (removed, cleared, damaged) = members
        .iter()
        .enumerate()
        .find_map(|(i, removed)| {
            let own = doc_membership::positions(doc_membership::DOMAIN_HEX, m, k, seed, removed);
            own.iter().find_map(|bit| {
                members[i + 1..]
                    .iter()
                    .find(|other| {
                        doc_membership::position_set(doc_membership::DOMAIN_HEX, m, k, seed, other)
                            .contains(bit)
                    })
                    .map(|damaged| (removed, *bit, damaged))
            })
        })
        .unwrap();
    let (records, profiles, queries) = (8u32, 4, 12);
    let computed = |name: &str| -> Value {
        match name {
            "fixture.occupied_bits" => json!(bits.len()),
            "fixture.packed_little_endian_hex" => json!(doc_membership::packed_hex(&bits, m)),
            "fixture.tested_nonmembers" => json!(non_members.len()),
            "fixture.realized_false_positives" => json!(false_positives.len()),
            "fixture.false_positive_items" => {
                json!(false_positives.iter().map(|x| text(x)).collect::<Vec<_>>())
            }
            // A false positive is never a member, so never a duplicate decision.
            "fixture.false_duplicate_decisions" => json!(
                false_positives
                    .iter()
                    .filter(|item| members.contains(item))
                    .count()
            ),
            "shared_bit_fault.removed_item" => json!(text(removed)),
            "shared_bit_fault.damaged_member" => json!(text(damaged)),
            "shared_bit_fault.cleared_bit" => json!(cleared),
            "independent_oracle_snapshot_count" => json!((1u32 << records) * profiles),
            "independent_oracle_queries" => json!((1u32 << records) * profiles * queries),
            other => panic!("no computation for the published figure {other}"),
        }
    };
    let figures = published("doc-membership-v1");
    assert!(figures.contains_key("fixture.packed_little_endian_hex"));
    for (name, value) in &figures {
        assert_eq!(&computed(name), value, "{name}");
    }
}

/// Seed 002's figures: the base hashes of "a", where a..i land with m 8, k 1, and the
/// smaller example's rate (m 8, k 1: insert "a", query "i", "a", "b": a negative query
/// is one of a string not inserted, a false positive one whose bits are all set).
#[test]
fn the_oracle_reproduces_fnv1a_utf16_v1s_published_figures() {
    let units = |s: &str| fnv1a_utf16::utf16_units(s);
    let inserted = ["a"];
    let bits: Vec<u32> = inserted
        .iter()
        .flat_map(|s| fnv1a_utf16::positions(8, 1, &units(s)))
        .collect();
    let negatives: Vec<&str> = ["i", "a", "b"]
        .into_iter()
        .filter(|q| !inserted.contains(q))
        .collect();
    let false_positives = negatives
        .iter()
        .filter(|q| {
            fnv1a_utf16::positions(8, 1, &units(q))
                .iter()
                .all(|p| bits.contains(p))
        })
        .count();
    let computed = |name: &str| -> Value {
        if let Some(text) = name
            .strip_prefix("m8_k1.position(")
            .and_then(|rest| rest.strip_suffix(')'))
        {
            return json!(fnv1a_utf16::positions(8, 1, &units(text))[0]);
        }
        match name {
            "a.h1" => json!(fnv1a_utf16::h1(&units("a"))),
            "a.h2" => json!(fnv1a_utf16::h2(&units("a"))),
            "insert_a_query_i_a_b.observed_rate" => {
                json!(format!("{false_positives}/{}", negatives.len()))
            }
            other => panic!("no computation for the published figure {other}"),
        }
    };
    let figures = published("fnv1a-utf16-v1");
    assert!(figures.contains_key("a.h1"));
    for (name, value) in &figures {
        assert_eq!(&computed(name), value, "{name}");
    }
}
