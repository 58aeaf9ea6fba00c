//! Details of the public API beyond the hash values: bounds and their names,
//! the longest message, and what the `Debug` forms show.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use bloomproof_protocol::doc_membership_v1 as doc;
use bloomproof_protocol::fnv1a_utf16_v1 as fnv;

#[test]
fn the_longest_message_is_message_max_bytes() {
    // 18 (domain) + 2 (m) + 1 (k) + 1 (seed length) + 16 (seed) + 1 (index)
    // + 2 (item length) + 64 (item).
    assert_eq!(doc::MESSAGE_MAX, 105);
    let params = doc::Params::new(512, 8, &[0xab; doc::SEED_MAX]).unwrap();
    for index in 0..8 {
        let message = doc::message(&params, index, &[0xcd; doc::ITEM_MAX]).unwrap();
        assert_eq!(message.as_bytes().len(), doc::MESSAGE_MAX);
    }
    let shortest = doc::Params::new(8, 1, b"").unwrap();
    assert_eq!(
        doc::message(&shortest, 0, b"").unwrap().as_bytes().len(),
        25
    );
}

#[test]
fn fields_have_their_spec_names() {
    for (field, name) in [
        (doc::Field::M, "m"),
        (doc::Field::K, "k"),
        (doc::Field::Seed, "seed"),
        (doc::Field::Item, "item"),
    ] {
        assert_eq!(field.name(), name);
    }
    let err = doc::Params::new(16, 3, &[0; 17]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "seed is 17 bytes long: must be 0..=16 bytes"
    );
    let params = doc::Params::new(16, 3, b"").unwrap();
    let err = doc::positions(&params, &[0; 65]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "item is 65 bytes long: must be 0..=64 bytes"
    );
    let err = doc::Params::new(16, 0, b"").unwrap_err();
    assert_eq!(
        err.to_string(),
        "k = 0 is out of bounds: must be an integer in 1..=8"
    );
    assert_eq!(doc::Field::M.to_string(), "m");
    let err = fnv::Params::new(8, 13).unwrap_err();
    assert_eq!(err.field, bloomproof_protocol::Field::K);
    assert_eq!(
        err.to_string(),
        "k = 13 is out of bounds: must be an integer in 1..=12"
    );
}

#[test]
fn debug_forms_show_the_values() {
    let params = doc::Params::new(16, 3, b"lab").unwrap();
    assert_eq!(
        format!("{params:?}"),
        "Params { m: 16, k: 3, seed: [108, 97, 98] }"
    );
    let message = doc::message(&params, 1, b"A").unwrap();
    assert_eq!(
        format!("{message:?}"),
        "Message(646f632d6d656d626572736869702d763100001003036c616201000141)"
    );
    let positions = doc::positions(&params, b"doc-00").unwrap();
    assert_eq!(
        format!("{positions:?}"),
        format!("{:?}", positions.as_slice())
    );
    let framed = doc::fast::FramedItem::new(&params, b"doc-00").unwrap();
    assert_eq!(
        format!("{framed:?}"),
        "FramedItem { block_count: 1, index: 0, m: 16, .. }"
    );
    let fnv_params = fnv::Params::new(8, 3).unwrap();
    let fnv_positions = fnv::positions_inline(&fnv_params, fnv::base_hashes(&fnv::units("a")));
    assert_eq!(format!("{fnv_positions:?}"), "[4, 7, 2]");
}
