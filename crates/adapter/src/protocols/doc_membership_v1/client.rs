//! `doc-membership-v1` behind an adapter ([`AdapterDoc`]): each subject method as the
//! adapter protocol's requests.

use crate::client::{Reply, Shared, call, pipelined};
use crate::protocols::doc_membership_v1::{
    DocCall, DocReply, DocSubject, Mutation, Observation, RawParams,
};
use crate::subject::{Answer, Between, SubjectError, UnderTest};
use bloomproof_wire::protocols::doc_membership_v1::{Built, Framed, Triple};
use bloomproof_wire::protocols::doc_membership_v1::{
    DigestResult, DocOp, MutateResult, MutationAttempt, OtherSnapshot, PositionsResult,
    TriplesResult, TypedCall, TypedResult,
};
use bloomproof_wire::{DocParams, Hex};

/// The parameters as the wire spells them.
fn wire(p: &RawParams) -> DocParams {
    DocParams {
        m: p.m,
        k: p.k,
        seed_hex: Hex(p.seed.clone()),
    }
}

fn build_op(p: &RawParams, records: &[Vec<u8>]) -> DocOp {
    DocOp::Build {
        params: wire(p),
        records: hex_list(records),
    }
}

/// `lookup` for one item, `lookup_many` for any other number.
fn lookup_op(p: &RawParams, records: &[Vec<u8>], items: &[Vec<u8>]) -> DocOp {
    if let [item] = items {
        return DocOp::Lookup {
            params: wire(p),
            records: hex_list(records),
            item: Hex(item.clone()),
        };
    }
    DocOp::LookupMany {
        params: wire(p),
        records: hex_list(records),
        items: hex_list(items),
    }
}

fn looked_up(reply: Reply<'_>, op: &DocOp) -> Answer<Vec<Triple>> {
    if matches!(op, DocOp::Lookup { .. }) {
        return Ok(vec![reply.read(op)?]);
    }
    let r: TriplesResult = reply.read(op)?;
    Ok(r.results)
}

/// The wire operation of one batched call.
fn doc_call_op(call: &DocCall) -> DocOp {
    match call {
        DocCall::Positions { params, item } => DocOp::Positions {
            params: wire(params),
            item: Hex(item.clone()),
        },
        DocCall::Frame {
            params,
            index,
            item,
        } => DocOp::Frame {
            params: wire(params),
            index: *index,
            item: Hex(item.clone()),
        },
        DocCall::Build { params, records } => build_op(params, records),
        DocCall::LookupMany {
            params,
            records,
            items,
        } => DocOp::LookupMany {
            params: wire(params),
            records: hex_list(records),
            items: hex_list(items),
        },
        DocCall::Read {
            params,
            records,
            packed_bits,
            items,
        } => DocOp::Read {
            params: wire(params),
            packed_hex: Hex(packed_bits.clone()),
            records: hex_list(records),
            items: hex_list(items),
        },
        DocCall::Typed(call) => DocOp::Typed(call.clone()),
    }
}

/// A subject of a version of the doc-membership family behind an adapter: the shared
/// process, and the version's name its requests name (`doc-membership-v1`'s is
/// [`NAME`](super::NAME)).
pub struct AdapterDoc(pub Shared, pub &'static str);

fn hex_list(list: &[Vec<u8>]) -> Vec<Hex> {
    list.iter().map(|b| Hex(b.clone())).collect()
}

impl UnderTest for AdapterDoc {
    fn name(&self) -> String {
        crate::client::name(&self.0)
    }

    fn adapter(&self) -> Option<(String, std::time::Duration)> {
        self.0
            .lock()
            .ok()
            .map(|p| (p.command().to_string(), p.timeout()))
    }

    fn started(&self) -> Option<bloomproof_wire::adapter::Started> {
        self.0.lock().ok()?.started().cloned()
    }

    fn between_checks(&mut self) -> Between {
        match self.0.lock() {
            Ok(mut process) => process.between_checks(),
            Err(_) => Between::Stop("adapter lock poisoned".into()),
        }
    }

    fn closing_diagnosis(&mut self) -> Option<String> {
        self.0.lock().ok()?.closing_diagnosis()
    }
}

impl DocSubject for AdapterDoc {
    fn sha256(&mut self, data: &[u8]) -> Answer<Vec<u8>> {
        let r: DigestResult = call(
            &self.0,
            self.1,
            &DocOp::Sha256 {
                data: Hex(data.to_vec()),
            },
        )?;
        Ok(r.digest.0)
    }

    fn frame(&mut self, p: &RawParams, index: u8, item: &[u8]) -> Answer<Framed> {
        let op = DocOp::Frame {
            params: wire(p),
            index,
            item: Hex(item.to_vec()),
        };
        call(&self.0, self.1, &op)
    }

    fn positions(&mut self, p: &RawParams, item: &[u8]) -> Answer<Vec<u16>> {
        let op = DocOp::Positions {
            params: wire(p),
            item: Hex(item.to_vec()),
        };
        let r: PositionsResult = call(&self.0, self.1, &op)?;
        Ok(r.positions)
    }

    fn build(&mut self, p: &RawParams, records: &[Vec<u8>]) -> Answer<Built> {
        call(&self.0, self.1, &build_op(p, records))
    }

    fn lookup(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let op = lookup_op(p, records, items);
        if matches!(op, DocOp::Lookup { .. }) {
            return Ok(vec![call(&self.0, self.1, &op)?]);
        }
        let r: TriplesResult = call(&self.0, self.1, &op)?;
        Ok(r.results)
    }

    fn build_and_lookup_each(
        &mut self,
        p: &RawParams,
        snapshots: &[Vec<Vec<u8>>],
        items: &[Vec<u8>],
    ) -> Vec<(Answer<Built>, Answer<Vec<Triple>>)> {
        let ops: Vec<DocOp> = snapshots
            .iter()
            .flat_map(|records| [build_op(p, records), lookup_op(p, records, items)])
            .collect();
        let mut guard = match self.0.lock() {
            Ok(guard) => guard,
            Err(_) => {
                let poisoned = || SubjectError::Broken("adapter lock poisoned".into());
                return snapshots
                    .iter()
                    .map(|_| (Err(poisoned()), Err(poisoned())))
                    .collect();
            }
        };
        let mut builds = Vec::with_capacity(snapshots.len());
        let mut lookups = Vec::with_capacity(snapshots.len());
        let mut index = 0;
        guard.requests(self.1, &ops, |reply| {
            if let Some(op) = ops.get(index) {
                if index % 2 == 0 {
                    builds.push(reply.read(op));
                } else {
                    lookups.push(looked_up(reply, op));
                }
            }
            index += 1;
        });
        builds.into_iter().zip(lookups).collect()
    }

    fn batch(&mut self, calls: &[DocCall]) -> Vec<Answer<DocReply>> {
        let ops: Vec<DocOp> = calls.iter().map(doc_call_op).collect();
        pipelined(&self.0, self.1, &ops, |op, reply| {
            Ok(match op {
                DocOp::Positions { .. } => {
                    DocReply::Positions(reply.read::<PositionsResult>(op)?.positions)
                }
                DocOp::Frame { .. } => DocReply::Framed(reply.read(op)?),
                DocOp::Build { .. } => DocReply::Built(reply.read(op)?),
                DocOp::Typed(_) => DocReply::Typed(reply.read::<TypedResult>(op)?.lookup),
                _ => DocReply::Triples(reply.read::<TriplesResult>(op)?.results),
            })
        })
    }

    fn typed(&mut self, args: &TypedCall) -> Answer<Option<Triple>> {
        let op = DocOp::Typed(args.clone());
        let r: TypedResult = call(&self.0, self.1, &op)?;
        Ok(r.lookup)
    }

    fn read(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        packed_bits: &[u8],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let op = DocOp::Read {
            params: wire(p),
            packed_hex: Hex(packed_bits.to_vec()),
            records: hex_list(records),
            items: hex_list(items),
        };
        let r: TriplesResult = call(&self.0, self.1, &op)?;
        Ok(r.results)
    }

    fn mutate(
        &mut self,
        p: &RawParams,
        records: &[Vec<u8>],
        other: (&RawParams, &[Vec<u8>]),
        attempt: MutationAttempt,
        probes: &[Vec<u8>],
    ) -> Answer<Mutation> {
        let op = DocOp::Mutate {
            params: wire(p),
            records: hex_list(records),
            other: OtherSnapshot {
                params: wire(other.0),
                records: hex_list(other.1),
            },
            attempt,
            probes: hex_list(probes),
        };
        let r: MutateResult = call(&self.0, self.1, &op)?;
        Ok(Mutation {
            outcome: r.outcome.as_str().to_string(),
            detail: r.detail,
            observed: Observation {
                m: r.params.m,
                k: r.params.k,
                seed: r.params.seed_hex.0,
                packed_bits: r.packed_hex.0,
                documents: r.documents,
                lookups: r.lookups,
            },
        })
    }
}
