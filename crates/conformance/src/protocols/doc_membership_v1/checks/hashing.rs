//! The hashing pipeline of one item: its framed messages, digests and positions
//! (`stages`), and the framing and bit-order parts (`framing`).

use super::{build_and_compare, diagnose, narrow, oracle_packed, raw};
use crate::model::Hex;
use crate::verdict::Verdict;
use bloomproof_adapter::protocols::doc_membership_v1::{DocSubject, RawParams};
use bloomproof_oracle::doc_membership as oracle;
use bloomproof_wire::protocols::doc_membership_v1::{BuildExpect, StagesExpect, StagesInput};

pub(super) fn stages(
    domain: &str,
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &StagesInput,
    expect: &StagesExpect,
) {
    let StagesInput {
        params: p,
        item_hex: Hex(item),
    } = input;
    let params = raw(p);
    v.eq(
        "one stage per hash index",
        &(p.k as usize),
        &expect.stages.len(),
    );
    let before = v.count();
    let positions = v
        .answer("positions", subject.positions(&params, item))
        .unwrap_or_default();
    for (index, stage) in expect.stages.iter().enumerate() {
        let i = index as u8;
        let (domain, m, k, seed) = (domain, narrow(p.m), narrow(p.k), &p.seed_hex.0);
        let oracle_message = oracle::message_hex(domain, m, k, seed, u32::from(i), item);
        v.eq(
            &format!("oracle message[{index}] agrees with the spec"),
            &bloomproof_wire::encode_hex(&stage.message_hex.0),
            &oracle_message,
        );
        let oracle_digest = oracle::digest_hex(domain, m, k, seed, u32::from(i), item);
        v.eq(
            &format!("oracle digest[{index}] agrees with the spec"),
            &bloomproof_wire::encode_hex(&stage.digest_hex.0),
            &oracle_digest,
        );
        let oracle_position =
            oracle::positions(domain, narrow(p.m), narrow(p.k), &p.seed_hex.0, item)
                .get(index)
                .copied();
        v.eq(
            &format!("oracle position[{index}] agrees with the spec"),
            &Some(u32::from(stage.position)),
            &oracle_position,
        );
        if let Some(framed) = v.answer("frame", subject.frame(&params, i, item)) {
            v.eq(
                &format!("message[{index}]"),
                &stage.message_hex,
                &Hex(framed.message),
            );
            v.eq(
                &format!("digest[{index}]"),
                &stage.digest_hex,
                &Hex(framed.digest),
            );
        }
        v.eq(
            &format!("position[{index}]"),
            &Some(stage.position),
            &positions.get(index).copied(),
        );
    }
    if let Some(built) = v.answer("build", subject.build(&params, std::slice::from_ref(item))) {
        v.eq(
            "packed bits of the one-record snapshot",
            &expect.packed_hex,
            &Hex(built.packed_bits),
        );
    }
    if v.count() > before {
        diagnose(domain, v, subject, &params, [item]);
    }
    v.eq(
        "oracle agrees with the spec's packed bits",
        &expect.packed_hex,
        &Hex(oracle_packed(domain, p, std::slice::from_ref(item))),
    );
}

pub(super) fn framing(
    domain: &str,
    v: &mut Verdict<'_>,
    subject: &mut dyn DocSubject,
    input: &bloomproof_wire::protocols::doc_membership_v1::FramingInput,
    expect: &bloomproof_wire::protocols::doc_membership_v1::FramingExpect,
) {
    use bloomproof_wire::protocols::doc_membership_v1::FramingInput;
    match input {
        FramingInput::Sha256 { data_hex } => {
            let oracle_digest = bloomproof_oracle::sha256::hex_digest(&data_hex.0);
            if let Some(expected) = &expect.digest_hex {
                v.eq(
                    "oracle SHA-256 agrees with the spec",
                    &bloomproof_wire::encode_hex(&expected.0),
                    &oracle_digest,
                );
                if let Some(got) = v.answer("sha256", subject.sha256(&data_hex.0)) {
                    v.eq("SHA-256", expected, &Hex(got));
                }
            } else {
                v.fail("spec", "a digest_hex expectation", "none");
            }
        }
        FramingInput::Message {
            params,
            index,
            item_hex,
        } => {
            let p = params;
            let before = v.count();
            let oracle_message = oracle::message_hex(
                domain,
                narrow(p.m),
                narrow(p.k),
                &p.seed_hex.0,
                u32::from(*index),
                &item_hex.0,
            );
            if let Some(framed) =
                v.answer("frame", subject.frame(&raw(params), *index, &item_hex.0))
            {
                v.eq(
                    "message equals the oracle's hex framing",
                    &oracle_message,
                    &bloomproof_wire::encode_hex(&framed.message),
                );
                if let Some(message) = &expect.message_hex {
                    v.eq("message bytes", message, &Hex(framed.message.clone()));
                    v.eq(
                        "oracle agrees with the spec's message",
                        &bloomproof_wire::encode_hex(&message.0),
                        &oracle_message,
                    );
                }
                if let Some(digest) = &expect.digest_hex {
                    v.eq("digest", digest, &Hex(framed.digest));
                }
            }
            if let Some(position) = expect.position {
                let got = v.answer("positions", subject.positions(&raw(params), &item_hex.0));
                v.eq(
                    "position",
                    &Some(position),
                    &got.and_then(|p| p.get(usize::from(*index)).copied()),
                );
            }
            if v.count() > before {
                diagnose(domain, v, subject, &raw(params), [&item_hex.0]);
            }
        }
        FramingInput::Distinct {
            m,
            k,
            index,
            seed_a_hex,
            item_a_hex,
            seed_b_hex,
            item_b_hex,
        } => {
            let a = RawParams {
                m: *m,
                k: *k,
                seed: seed_a_hex.0.clone(),
            };
            let b = RawParams {
                m: *m,
                k: *k,
                seed: seed_b_hex.0.clone(),
            };
            v.holds(
                "the splits concatenate to the same bytes",
                [&seed_a_hex.0[..], &item_a_hex.0[..]].concat()
                    == [&seed_b_hex.0[..], &item_b_hex.0[..]].concat(),
                || "different concatenations".into(),
            );
            let Some(differ) = expect.messages_differ else {
                v.fail("spec", "a messages_differ expectation", "none");
                return;
            };
            if let (Some(x), Some(y)) = (
                v.answer("frame a", subject.frame(&a, *index, &item_a_hex.0)),
                v.answer("frame b", subject.frame(&b, *index, &item_b_hex.0)),
            ) {
                let what = match differ {
                    true => "the two messages differ",
                    false => "the two messages are the same",
                };
                v.holds(what, (x.message != y.message) == differ, || {
                    bloomproof_wire::encode_hex(&x.message)
                });
            }
        }
        FramingInput::Packing(build) => {
            let expect_build = BuildExpect {
                packed_hex: expect.packed_hex.clone(),
                ..BuildExpect::default()
            };
            build_and_compare(domain, v, subject, build, &expect_build);
        }
    }
}
