//! First difference for `doc-membership-v1`: when a `positions`, `build` or `lookup`
//! answer differs from what the runner expects, the runner asks the implementation for
//! its stages and names the first stage and the first byte that differ, with the field
//! it belongs to:
//!
//! ```text
//! item "doc-04", hash index 0: message byte 26: expected 00, got 06 (item length, high byte)
//! ```
//!
//! The expected stages come from the independent oracle, never from production code.
//! The implementation's stages come from the ordinary operations of the adapter
//! protocol: `frame` (message and digest), `positions` (the reduction), `build` of a
//! one-record snapshot (the packed bytes). An operation the implementation does not
//! answer is noted in the line and the diagnosis goes on with what it has. The number
//! of requests is bounded: see [`SCREENED`]. (`fnv1a-utf16-v1`'s is its own
//! `diagnose`.)
//!
//! [`message_layout`] is the one definition of the framed message's fields, used here
//! and by `bloomproof explain`.

use crate::subject::SubjectError;
use crate::verdict::json;
use bloomproof_adapter::protocols::doc_membership_v1::{DocSubject, RawParams};
use bloomproof_oracle::doc_membership as oracle_doc;

/// At most this many candidate items are screened (one `positions` request each) by
/// one doc diagnosis; the first whose positions differ is examined stage by stage (at
/// most k `frame` requests), else the first candidate's one-record snapshot is built
/// once.
pub const SCREENED: usize = 8;

/// One field of a `doc-membership-v1` framed message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MessageField {
    /// The short label of `bloomproof explain` (`len(item)`).
    pub label: &'static str,
    /// The name used in a diagnosis (`item length`).
    pub name: &'static str,
    /// The offset of its first byte in the message.
    pub offset: usize,
    /// Its length in bytes.
    pub len: usize,
}

/// The fields of the message of a seed of `seed_len` bytes and an item of `item_len`
/// bytes, in order (`spec/doc-membership-v1/PROTOCOL.md`): the domain (18 bytes), m (2, big-endian), k (1),
/// len(seed) (1), the seed, the hash index (1), len(item) (2, big-endian), the item.
pub fn message_layout(seed_len: usize, item_len: usize) -> [MessageField; 8] {
    let sizes: [(&'static str, &'static str, usize); 8] = [
        ("domain", "domain", 18),
        ("m", "m", 2),
        ("k", "k", 1),
        ("len(seed)", "seed length", 1),
        ("seed", "seed", seed_len),
        ("i", "hash index", 1),
        ("len(item)", "item length", 2),
        ("item", "item", item_len),
    ];
    let mut offset = 0;
    sizes.map(|(label, name, len)| {
        let field = MessageField {
            label,
            name,
            offset,
            len,
        };
        offset += len;
        field
    })
}

/// The field that byte `offset` of the message belongs to, in words: `item length,
/// high byte`, `seed byte 2`, `k`, `domain byte 17`; `past the end of the message`.
pub fn message_byte_field(seed_len: usize, item_len: usize, offset: usize) -> String {
    let layout = message_layout(seed_len, item_len);
    let Some(field) = layout
        .iter()
        .find(|f| (f.offset..f.offset + f.len).contains(&offset))
    else {
        return "past the end of the message".to_string();
    };
    let j = offset - field.offset;
    match field.label {
        "m" | "len(item)" => format!(
            "{}, {} byte",
            field.name,
            if j == 0 { "high" } else { "low" }
        ),
        "k" | "len(seed)" | "i" => field.name.to_string(),
        _ => format!("{} byte {j}", field.name),
    }
}

fn byte(b: Option<&u8>) -> String {
    b.map_or_else(|| "nothing".to_string(), |b| format!("{b:02x}"))
}

/// `<stage> byte N: expected xx, got yy (<what byte N is>)` for the first byte that
/// differs, if any; a length that differs is said too.
fn first_byte(
    stage: &str,
    want: &[u8],
    got: &[u8],
    what: impl FnOnce(usize) -> String,
) -> Option<String> {
    let at = (0..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i))?;
    let mut about = what(at);
    if want.len() != got.len() {
        about.push_str(&format!(
            "; the {stage} is {} bytes, expected {}",
            got.len(),
            want.len()
        ));
    }
    Some(format!(
        "{stage} byte {at}: expected {}, got {} ({about})",
        byte(want.get(at)),
        byte(got.get(at))
    ))
}

fn show(item: &[u8]) -> String {
    match std::str::from_utf8(item) {
        Ok("") => "(empty)".to_string(),
        Ok(text) if text.chars().all(|c| !c.is_control()) => json(&text),
        // Cut as the report cuts every long value (a 64-byte item is 128 hex digits).
        _ => bloomproof_wire::report::cut_string(&bloomproof_wire::encode_hex(item)),
    }
}

fn narrow(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The first stage at which the implementation's hashing of `candidates` (the items
/// whose answers took part in the mismatch, most suspect first) differs from the
/// oracle's, as one line. Always a line: when no stage differs, it says so, and an
/// operation the implementation did not answer is noted.
pub fn doc_first_difference(
    domain: &str,
    subject: &mut dyn DocSubject,
    params: &RawParams,
    candidates: &[&[u8]],
) -> String {
    let (m, k, seed) = (narrow(params.m), narrow(params.k), &params.seed);
    let mut notes = Vec::new();
    let mut screened = 0;
    // The operations the diagnosis needed and the implementation did not answer (first
    // error of each): when they are all it asked, there is nothing to say about stages.
    let mut refused: Vec<(&str, String)> = Vec::new();
    let mut refuse = |op: &'static str, err: &SubjectError| {
        if !refused.iter().any(|(seen, _)| *seen == op) {
            refused.push((op, err.to_string()));
        }
    };
    for &item in candidates.iter().take(SCREENED) {
        let want = oracle_doc::positions(domain, m, k, seed, item);
        let got = match subject.positions(params, item) {
            Ok(got) => got,
            Err(err) => {
                notes.push(format!("positions of item {}: {err}", show(item)));
                refuse("positions", &err);
                continue;
            }
        };
        screened += 1;
        let got: Vec<u32> = got.into_iter().map(u32::from).collect();
        if let Some(index) = (0..want.len().max(got.len())).find(|&i| want.get(i) != got.get(i)) {
            return doc_stages(domain, subject, params, item, index, &want, &got);
        }
    }
    if let Some(&item) = candidates.first() {
        let want = oracle_doc::packed_hex(&oracle_doc::position_set(domain, m, k, seed, item), m);
        let want = bloomproof_wire::decode_hex(&want).unwrap_or_default();
        match subject.build(params, &[item.to_vec()]) {
            Ok(built) => {
                let bits = |packed: &[u8], at: usize| -> Vec<usize> {
                    let b = packed.get(at).copied().unwrap_or(0);
                    (0..8)
                        .filter(|i| b & (1 << i) != 0)
                        .map(|i| at * 8 + i)
                        .collect()
                };
                if let Some(line) = first_byte("packed", &want, &built.packed_bits, |at| {
                    format!(
                        "bits {}..={}: expected positions {}, got {}; the positions equal the oracle's",
                        at * 8,
                        at * 8 + 7,
                        json(&bits(&want, at)),
                        json(&bits(&built.packed_bits, at)),
                    )
                }) {
                    return format!("item {}, one-record snapshot: {line}", show(item));
                }
            }
            Err(err) => {
                notes.push(format!("build of item {}: {err}", show(item)));
                refuse("build", &err);
            }
        }
    }
    if screened == 0 && !refused.is_empty() {
        // No stage was compared: "no stage differs for the 0 item(s)" would mislead.
        let ops: Vec<String> = refused.iter().map(|(op, _)| format!("`{op}`")).collect();
        let answers: Vec<String> = refused
            .iter()
            .map(|(op, err)| format!("`{op}`: {err}"))
            .collect();
        return format!(
            "not diagnosed: this check needs {}, which the implementation did not answer ({})",
            ops.join(" and "),
            answers.join("; ")
        );
    }
    if screened == 0 && refused.is_empty() && notes.is_empty() {
        // No item to ask about (a snapshot of no records, no other item).
        return "not diagnosed: the case has no item whose stages could be asked for".to_string();
    }
    let mut line = format!(
        "no stage differs for the {screened} item(s) checked: their positions and the packed bytes of a one-record snapshot equal the oracle's, so the difference is in combining them (build) or in answering (lookup)"
    );
    if !notes.is_empty() {
        line = format!("not diagnosed further: {}; {line}", notes.join("; "));
    }
    line
}

/// Stage by stage for `item`, whose positions first differ at hash index `index`:
/// message, digest, position of each index up to it.
fn doc_stages(
    domain: &str,
    subject: &mut dyn DocSubject,
    params: &RawParams,
    item: &[u8],
    index: usize,
    want: &[u32],
    got: &[u32],
) -> String {
    let (m, k, seed) = (narrow(params.m), narrow(params.k), &params.seed);
    let mut note = String::from("the message and digest equal the oracle's");
    for i in 0..=index.min(usize::from(u8::MAX)) {
        let hash_index = u8::try_from(i).unwrap_or(u8::MAX);
        let message = bloomproof_wire::decode_hex(&oracle_doc::message_hex(
            domain,
            m,
            k,
            seed,
            u32::from(hash_index),
            item,
        ))
        .unwrap_or_default();
        let digest = bloomproof_wire::decode_hex(&oracle_doc::digest_hex(
            domain,
            m,
            k,
            seed,
            u32::from(hash_index),
            item,
        ))
        .unwrap_or_default();
        match subject.frame(params, hash_index, item) {
            Ok(framed) => {
                if let Some(line) = first_byte("message", &message, &framed.message, |at| {
                    message_byte_field(seed.len(), item.len(), at)
                }) {
                    return format!("item {}, hash index {i}: {line}", show(item));
                }
                if let Some(line) = first_byte("digest", &digest, &framed.digest, |_| {
                    "SHA-256 of a message equal to the oracle's".to_string()
                }) {
                    return format!("item {}, hash index {i}: {line}", show(item));
                }
            }
            Err(err) => {
                note = format!("the frame op gave no stages: {err}");
                break;
            }
        }
    }
    let shown = |p: Option<&u32>| p.map_or_else(|| "nothing".to_string(), u32::to_string);
    format!(
        "item {}, hash index {index}: position: expected {}, got {} (the reduction, digest mod {m}; {note})",
        show(item),
        shown(want.get(index)),
        shown(got.get(index)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_of_each_byte() {
        // seed 3 bytes, item 6 bytes: 18 + 2 + 1 + 1 + 3 + 1 + 2 + 6 = 34 bytes.
        let field = |at| message_byte_field(3, 6, at);
        assert_eq!(field(0), "domain byte 0");
        assert_eq!(field(17), "domain byte 17");
        assert_eq!(field(18), "m, high byte");
        assert_eq!(field(19), "m, low byte");
        assert_eq!(field(20), "k");
        assert_eq!(field(21), "seed length");
        assert_eq!(field(24), "seed byte 2");
        assert_eq!(field(25), "hash index");
        assert_eq!(field(26), "item length, high byte");
        assert_eq!(field(27), "item length, low byte");
        assert_eq!(field(28), "item byte 0");
        assert_eq!(field(33), "item byte 5");
        assert_eq!(field(34), "past the end of the message");
        assert_eq!(message_byte_field(0, 0, 23), "item length, high byte");
    }

    #[test]
    fn first_byte_and_lengths() {
        let field = |at: usize| format!("field {at}");
        assert_eq!(first_byte("message", b"ab", b"ab", field), None);
        assert_eq!(
            first_byte("message", &[0, 1], &[0, 2], field).as_deref(),
            Some("message byte 1: expected 01, got 02 (field 1)")
        );
        assert_eq!(
            first_byte("message", &[0, 1], &[0], field).as_deref(),
            Some(
                "message byte 1: expected 01, got nothing (field 1; the message is 1 bytes, expected 2)"
            )
        );
    }
}
