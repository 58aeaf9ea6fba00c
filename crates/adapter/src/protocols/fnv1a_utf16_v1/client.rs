//! `fnv1a-utf16-v1` behind an adapter ([`AdapterFnv`]): each subject method as the
//! adapter protocol's requests.

use super::NAME as FNV;
use crate::client::{Shared, call, pipelined};
use crate::protocols::fnv1a_utf16_v1::{FnvCall, FnvReply, FnvSubject};
use crate::subject::{Answer, UnderTest};
use bloomproof_wire::protocols::fnv1a_utf16_v1::{EstimatesAnswer, FnvHashes, ScriptAnswer};
use bloomproof_wire::protocols::fnv1a_utf16_v1::{FnvOp, ScriptOp};

/// A `fnv1a-utf16-v1` subject behind an adapter.
pub struct AdapterFnv(pub Shared);

impl UnderTest for AdapterFnv {
    fn name(&self) -> String {
        crate::client::name(&self.0)
    }
}

impl FnvSubject for AdapterFnv {
    fn positions(&mut self, m: u64, k: u64, units: &[u16]) -> Answer<FnvHashes> {
        let op = FnvOp::Positions {
            m,
            k,
            units: units.to_vec(),
        };
        call(&self.0, FNV, &op)
    }

    fn session(&mut self, script: &[ScriptOp]) -> Answer<ScriptAnswer> {
        let op = FnvOp::Session {
            script: script.to_vec(),
        };
        call(&self.0, FNV, &op)
    }

    fn batch(&mut self, calls: &[FnvCall]) -> Vec<Answer<FnvReply>> {
        let ops: Vec<FnvOp> = calls
            .iter()
            .map(|call| match call {
                FnvCall::Positions { m, k, units } => FnvOp::Positions {
                    m: *m,
                    k: *k,
                    units: units.clone(),
                },
                FnvCall::Estimates { m, k, n } => FnvOp::Estimates {
                    m: *m,
                    k: *k,
                    n: *n,
                },
                FnvCall::Session { script } => FnvOp::Session {
                    script: script.clone(),
                },
            })
            .collect();
        pipelined(&self.0, FNV, &ops, |op, reply| {
            Ok(match op {
                FnvOp::Positions { .. } => FnvReply::Hashes(reply.read(op)?),
                FnvOp::Estimates { .. } => FnvReply::Estimates(reply.read(op)?),
                _ => FnvReply::Script(reply.read(op)?),
            })
        })
    }

    fn estimates(&mut self, m: u32, k: u32, n: u32) -> Answer<EstimatesAnswer> {
        call(&self.0, FNV, &FnvOp::Estimates { m, k, n })
    }
}
