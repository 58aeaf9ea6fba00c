//! A doc-membership version served by `bloomproof adapter`: its operations ([`DocOp`])
//! answered by the in-process production subject of that version ([`RustDoc::of`]).
//! The served entry is a value of the family ([`DocMembership::of`]); `doc-membership-v1`
//! is [`DocMembership::V1`].

use crate::client::RESPONSE_MAX;
use crate::protocols::doc_membership_v1::{DocSubject, RawParams, RustDoc};
use crate::serve::{ServedOp, ServedProtocol, json, negative_m_k, too_large};
use crate::subject::{Answer, SubjectError};
use bloomproof_protocol::doc_membership::DocFamily;
use bloomproof_protocol::doc_membership_v1 as doc;
use bloomproof_wire::protocols::doc_membership_v1::DocOp;
use bloomproof_wire::protocols::doc_membership_v1::{
    DigestResult, MutateResult, MutationOutcome, PositionsResult, TriplesResult, TypedResult,
};
use bloomproof_wire::{DocParams, Hex};
use serde_json::{Map, Value};

/// The serving side's registry entry of one doc-membership version.
pub struct DocMembership {
    family: &'static DocFamily,
}

impl DocMembership {
    /// `doc-membership-v1`.
    pub const V1: DocMembership = DocMembership::of(&doc::FAMILY);

    /// The version `family`, served under its name with its bounds.
    pub const fn of(family: &'static DocFamily) -> Self {
        DocMembership { family }
    }
}

/// One parsed operation, with the version that answers it.
#[derive(Debug)]
struct Served {
    family: &'static DocFamily,
    op: DocOp,
}

impl ServedProtocol for DocMembership {
    fn name(&self) -> &'static str {
        self.family.name()
    }

    fn parse(&self, op: Value) -> Result<Box<dyn ServedOp>, serde_json::Error> {
        let family = self.family;
        serde_json::from_value::<DocOp>(op)
            .map(|op| Box::new(Served { family, op }) as Box<dyn ServedOp>)
    }

    /// A `frame` `index` that is negative or past 255 (ADAPTER.md, the error table),
    /// where the types that read the request would say `bad_request`; a negative `m` or
    /// `k` of `params`.
    fn out_of_bounds(&self, op: &Map<String, Value>) -> Option<(String, String)> {
        if op.get("op").and_then(Value::as_str) == Some("frame")
            && let Some(index) = op.get("index").filter(|v| v.is_i64() || v.is_u64())
        {
            if index.as_u64().is_some_and(|n| n <= u64::from(u8::MAX)) {
                return None;
            }
            let k_max = self.family.bounds().k[1];
            return Some((
                "index".into(),
                format!(
                    "index = {index} is out of bounds: a hash index is below k (at most {k_max})"
                ),
            ));
        }
        let bounds = self.family.bounds();
        negative_m_k(
            op.get("params")?.as_object()?,
            [(bounds.m[0], bounds.m[1]), (bounds.k[0], bounds.k[1])],
        )
    }
}

impl ServedOp for Served {
    fn answer(&self) -> Answer<Value> {
        let mut doc = RustDoc::of(self.family);
        match &self.op {
            DocOp::Sha256 { data } => json(DigestResult {
                digest: Hex(doc.sha256(&data.0)?),
            }),
            DocOp::Frame {
                params,
                index,
                item,
            } => {
                index_below_k(u64::from(*index), params.k)?;
                json(doc.frame(&raw(params), *index, &item.0)?)
            }
            DocOp::Positions { params, item } => json(PositionsResult {
                positions: doc.positions(&raw(params), &item.0)?,
            }),
            DocOp::Build { params, records } => json(doc.build(&raw(params), &hexes(records))?),
            DocOp::Lookup {
                params,
                records,
                item,
            } => {
                let answers =
                    doc.lookup(&raw(params), &hexes(records), std::slice::from_ref(&item.0))?;
                match answers.first() {
                    Some(triple) => json(triple),
                    None => Ok(Value::Null),
                }
            }
            DocOp::LookupMany {
                params,
                records,
                items,
            } => {
                triples_fit("items", items.len())?;
                json(TriplesResult {
                    results: doc.lookup(&raw(params), &hexes(records), &hexes(items))?,
                })
            }
            DocOp::Typed(call) => json(TypedResult {
                lookup: doc.typed(call)?,
            }),
            DocOp::Read {
                params,
                packed_hex,
                records,
                items,
            } => {
                triples_fit("items", items.len())?;
                json(TriplesResult {
                    results: doc.read(
                        &raw(params),
                        &hexes(records),
                        &packed_hex.0,
                        &hexes(items),
                    )?,
                })
            }
            DocOp::Mutate {
                params,
                records,
                other,
                attempt,
                probes,
            } => {
                triples_fit("probes", probes.len())?;
                let other_records = hexes(&other.records);
                let mutation = doc.mutate(
                    &raw(params),
                    &hexes(records),
                    (&raw(&other.params), &other_records),
                    *attempt,
                    &hexes(probes),
                )?;
                let outcome = [
                    MutationOutcome::Raised,
                    MutationOutcome::Done,
                    MutationOutcome::Impossible,
                ]
                .into_iter()
                .find(|o| o.as_str() == mutation.outcome)
                .ok_or_else(|| {
                    SubjectError::Broken(format!("unknown outcome {:?}", mutation.outcome))
                })?;
                let seen = mutation.observed;
                json(MutateResult {
                    outcome,
                    detail: mutation.detail,
                    params: DocParams {
                        m: seen.m,
                        k: seen.k,
                        seed_hex: Hex(seen.seed),
                    },
                    packed_hex: Hex(seen.packed_bits),
                    documents: seen.documents,
                    lookups: seen.lookups,
                })
            }
        }
    }

    /// Every doc-membership operation is cheap: its inputs are bounded by the request's
    /// size.
    fn is_cheap(&self) -> bool {
        true
    }
}

/// `frame`'s `index` must be below k: else a contract error naming `index`
/// (ADAPTER.md, the error table), as for a negative index or one past 255.
fn index_below_k(index: u64, k: u64) -> Answer<()> {
    if index >= k {
        return Err(SubjectError::Rejected {
            kind: "value".into(),
            field: Some("index".into()),
            message: format!("index = {index} is out of bounds: a hash index is below k = {k}"),
        });
    }
    Ok(())
}

/// The longest a triple is written: `{"duplicate":false,"exact_checked":false,"maybe_present":false}`, and a comma.
const TRIPLE_TEXT_MAX: usize = 64;

/// Refuses, before any work, a request whose answer lists one triple per item and
/// would be longer than [`RESPONSE_MAX`].
fn triples_fit(field: &str, items: usize) -> Answer<()> {
    let most = (RESPONSE_MAX - 1024) / TRIPLE_TEXT_MAX;
    if items > most {
        return Err(too_large(format!(
            "`{field}` has {items} items: the answer would be longer than {RESPONSE_MAX} bytes (at most {most} items)"
        )));
    }
    Ok(())
}

fn hexes(list: &[Hex]) -> Vec<Vec<u8>> {
    list.iter().map(|h| h.0.clone()).collect()
}

fn raw(params: &DocParams) -> RawParams {
    RawParams {
        m: params.m,
        k: params.k,
        seed: params.seed_hex.0.clone(),
    }
}
