//! `doc-membership-v1` as the evaluators drive it: [`DocSubject`], its batched calls,
//! and the production crates in process ([`RustDoc`]).

use crate::ToDynamic;
use crate::subject::{Answer, UnderTest};
use bloomproof_filter::dynamic;
use bloomproof_filter::{ContractError, DocumentPrefilter, Params};
use bloomproof_protocol::doc_membership::DocFamily;
use bloomproof_protocol::doc_membership_v1 as protocol;
use bloomproof_wire::protocols::doc_membership_v1::MutationAttempt;
use bloomproof_wire::protocols::doc_membership_v1::{Built, Framed, Triple, TypedCall};

/// The parameters as plain values (the seed as bytes, not hex), unchecked.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs, reason = "m, k and the seed of `spec/README.md`")]
pub struct RawParams {
    pub m: u64,
    pub k: u64,
    pub seed: Vec<u8>,
}

/// A `doc-membership-v1` implementation, as the evaluators drive it (its name and life
/// in a run are [`UnderTest`]'s).
pub trait DocSubject: UnderTest {
    /// SHA-256 of raw bytes.
    fn sha256(&mut self, data: &[u8]) -> Answer<Vec<u8>>;
    /// The framed message for hash index `index`, and its digest.
    fn frame(&mut self, params: &RawParams, index: u8, item: &[u8]) -> Answer<Framed>;
    /// The k positions of an item, in hash-index order.
    fn positions(&mut self, params: &RawParams, item: &[u8]) -> Answer<Vec<u16>>;
    /// Builds a snapshot.
    fn build(&mut self, params: &RawParams, records: &[Vec<u8>]) -> Answer<Built>;
    /// Builds a snapshot and looks up each item, answering in input order.
    fn lookup(
        &mut self,
        params: &RawParams,
        records: &[Vec<u8>],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>>;
    /// Builds from typed values and, when the call has an `item`, looks it up.
    fn typed(&mut self, call: &TypedCall) -> Answer<Option<Triple>>;
    /// Reads a snapshot given as its parts, verifying it (`spec/ADAPTER.md`, *Reading
    /// a snapshot*), and looks each item up in it.
    fn read(
        &mut self,
        params: &RawParams,
        records: &[Vec<u8>],
        packed_bits: &[u8],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>>;
    /// Builds a snapshot of `records`, makes the named mutation attempt (with `other`
    /// as the values to put in), then observes the snapshot through its ordinary
    /// operations.
    fn mutate(
        &mut self,
        params: &RawParams,
        records: &[Vec<u8>],
        other: (&RawParams, &[Vec<u8>]),
        attempt: MutationAttempt,
        probes: &[Vec<u8>],
    ) -> Answer<Mutation>;
    /// For each snapshot of `snapshots` in order, [`DocSubject::build`] of it, then
    /// [`DocSubject::lookup`] of `items` in it: the same requests, in the same order,
    /// as calling them one by one (the default), but an implementation behind an
    /// adapter sends them without waiting for each answer (pipelining).
    fn build_and_lookup_each(
        &mut self,
        params: &RawParams,
        snapshots: &[Vec<Vec<u8>>],
        items: &[Vec<u8>],
    ) -> Vec<(Answer<Built>, Answer<Vec<Triple>>)> {
        snapshots
            .iter()
            .map(|records| {
                (
                    self.build(params, records),
                    self.lookup(params, records, items),
                )
            })
            .collect()
    }
    /// Answers each call of `calls`, in order: the same requests as calling the
    /// methods one by one (the default), but an implementation behind an adapter
    /// sends them without waiting for each answer (pipelining).
    fn batch(&mut self, calls: &[DocCall]) -> Vec<Answer<DocReply>> {
        calls
            .iter()
            .map(|call| match call {
                DocCall::Positions { params, item } => {
                    self.positions(params, item).map(DocReply::Positions)
                }
                DocCall::Frame {
                    params,
                    index,
                    item,
                } => self.frame(params, *index, item).map(DocReply::Framed),
                DocCall::Build { params, records } => {
                    self.build(params, records).map(DocReply::Built)
                }
                DocCall::LookupMany {
                    params,
                    records,
                    items,
                } => self.lookup(params, records, items).map(DocReply::Triples),
                DocCall::Read {
                    params,
                    records,
                    packed_bits,
                    items,
                } => self
                    .read(params, records, packed_bits, items)
                    .map(DocReply::Triples),
                DocCall::Typed(call) => self.typed(call).map(DocReply::Typed),
            })
            .collect()
    }
    /// Another subject driving the same implementation, independent of this one, for
    /// running checks on other threads; `None` (the default) when checks must share
    /// this one and run one after the other.
    fn fork(&self) -> Option<Box<dyn DocSubject + Send>> {
        None
    }
}

/// One operation of [`DocSubject::batch`], with its arguments.
#[derive(Clone, Debug, PartialEq)]
#[allow(
    missing_docs,
    reason = "the arguments of the subject's methods of the same name"
)]
pub enum DocCall {
    Positions {
        params: RawParams,
        item: Vec<u8>,
    },
    Frame {
        params: RawParams,
        index: u8,
        item: Vec<u8>,
    },
    Build {
        params: RawParams,
        records: Vec<Vec<u8>>,
    },
    /// `lookup_many`, whatever the number of items.
    LookupMany {
        params: RawParams,
        records: Vec<Vec<u8>>,
        items: Vec<Vec<u8>>,
    },
    Read {
        params: RawParams,
        records: Vec<Vec<u8>>,
        packed_bits: Vec<u8>,
        items: Vec<Vec<u8>>,
    },
    Typed(TypedCall),
}

/// The answer to one [`DocCall`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(missing_docs, reason = "the results of the subject's methods")]
pub enum DocReply {
    Positions(Vec<u16>),
    Framed(Framed),
    Built(Built),
    /// `lookup_many` and `read`.
    Triples(Vec<Triple>),
    Typed(Option<Triple>),
}

/// What an implementation did for one mutation attempt, and what it then observed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutation {
    /// `raised`, `done` or `impossible`: the implementation's account, only printed.
    pub outcome: String,
    /// What was tried and what happened, in the implementation's words.
    pub detail: String,
    /// The snapshot as ordinary operations showed it after the attempt.
    pub observed: Observation,
}

/// A snapshot as its ordinary operations show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// m, as the snapshot reports it.
    pub m: u64,
    /// k, as the snapshot reports it.
    pub k: u64,
    /// The seed, as the snapshot reports it.
    pub seed: Vec<u8>,
    /// The packed bits.
    pub packed_bits: Vec<u8>,
    /// The number of documents.
    pub documents: usize,
    /// One lookup per probe, in order.
    pub lookups: Vec<Triple>,
}

/// The production crates, called in process, for one version of the doc-membership
/// family ([`RustDoc::v1`], or [`RustDoc::of`] another). Every byte operation runs
/// under the version's domain and bounds; the typed contract
/// ([`DocSubject::typed`]) is `doc-membership-v1`'s, the source document's.
#[derive(Clone, Copy, Debug)]
pub struct RustDoc {
    family: &'static DocFamily,
}

impl RustDoc {
    /// `doc-membership-v1`.
    pub fn v1() -> Self {
        RustDoc::of(&protocol::FAMILY)
    }

    /// The version `family`.
    pub const fn of(family: &'static DocFamily) -> Self {
        RustDoc { family }
    }

    fn params(&self, raw: &RawParams) -> Answer<Params> {
        Ok(Params::of(self.family, raw.m, raw.k, &raw.seed).map_err(ContractError::from)?)
    }

    fn snapshot(&self, raw: &RawParams, records: &[Vec<u8>]) -> Answer<DocumentPrefilter> {
        Ok(DocumentPrefilter::with_params(self.params(raw)?, records)?)
    }
}

impl Default for RustDoc {
    fn default() -> Self {
        RustDoc::v1()
    }
}

fn triple(lookup: bloomproof_filter::Lookup) -> Triple {
    Triple {
        maybe_present: lookup.maybe_present,
        exact_checked: lookup.exact_checked,
        duplicate: lookup.duplicate,
    }
}

impl UnderTest for RustDoc {
    fn name(&self) -> String {
        "rust (in process)".to_string()
    }
}

impl DocSubject for RustDoc {
    fn fork(&self) -> Option<Box<dyn DocSubject + Send>> {
        Some(Box::new(*self))
    }

    fn sha256(&mut self, data: &[u8]) -> Answer<Vec<u8>> {
        Ok(protocol::sha256(data).to_vec())
    }

    fn frame(&mut self, raw: &RawParams, index: u8, item: &[u8]) -> Answer<Framed> {
        let params = self.params(raw)?;
        let message = protocol::message(&params, index, item).map_err(ContractError::from)?;
        let digest = protocol::digest(&params, index, item).map_err(ContractError::from)?;
        Ok(Framed {
            message: message.as_bytes().to_vec(),
            digest: digest.to_vec(),
        })
    }

    fn positions(&mut self, raw: &RawParams, item: &[u8]) -> Answer<Vec<u16>> {
        let params = self.params(raw)?;
        let positions = protocol::fast::positions(&params, item).map_err(ContractError::from)?;
        Ok(positions.as_slice().to_vec())
    }

    fn build(&mut self, raw: &RawParams, records: &[Vec<u8>]) -> Answer<Built> {
        let snapshot = self.snapshot(raw, records)?;
        Ok(Built {
            packed_bits: snapshot.packed_bits(),
            documents: snapshot.documents().len(),
        })
    }

    fn lookup(
        &mut self,
        raw: &RawParams,
        records: &[Vec<u8>],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let snapshot = self.snapshot(raw, records)?;
        items
            .iter()
            .map(|item| Ok(triple(snapshot.lookup(item)?)))
            .collect()
    }

    fn typed(&mut self, call: &TypedCall) -> Answer<Option<Triple>> {
        let snapshot = dynamic::build(
            &call.records.to_dynamic(),
            &call.m.to_dynamic(),
            &call.k.to_dynamic(),
            &call.seed.to_dynamic(),
        )?;
        match &call.item {
            None => Ok(None),
            Some(item) => Ok(Some(triple(dynamic::lookup(
                &snapshot,
                &item.to_dynamic(),
            )?))),
        }
    }

    fn read(
        &mut self,
        raw: &RawParams,
        records: &[Vec<u8>],
        packed_bits: &[u8],
        items: &[Vec<u8>],
    ) -> Answer<Vec<Triple>> {
        let snapshot = DocumentPrefilter::read(self.params(raw)?, records, packed_bits)?;
        items
            .iter()
            .map(|item| Ok(triple(snapshot.lookup(item)?)))
            .collect()
    }

    fn mutate(
        &mut self,
        raw: &RawParams,
        records: &[Vec<u8>],
        other: (&RawParams, &[Vec<u8>]),
        attempt: MutationAttempt,
        probes: &[Vec<u8>],
    ) -> Answer<Mutation> {
        // The caller's buffers, owned here so that they can be changed after the build.
        let mut record_buffers: Vec<Vec<u8>> = records.to_vec();
        let mut seed_buffer = raw.seed.clone();
        let params =
            Params::of(self.family, raw.m, raw.k, &seed_buffer).map_err(ContractError::from)?;
        let snapshot = DocumentPrefilter::with_params(params, &record_buffers)?;
        let no_field = "DocumentPrefilter has no public field and no method taking &mut self; \
                        assigning one does not compile (crates/filter/tests/immutability)";
        let (outcome, detail) = match attempt {
            MutationAttempt::AssignFields => ("impossible", no_field.to_string()),
            MutationAttempt::MutateReturnedBits => {
                let mut packed = snapshot.packed_bits();
                packed.fill(0xff);
                ("done", "filled the Vec that packed_bits() returned with ff".to_string())
            }
            MutationAttempt::MutateReturnedDocuments => {
                let mut documents: Vec<Vec<u8>> =
                    snapshot.documents().iter().map(<[u8]>::to_vec).collect();
                documents.clear();
                documents.extend(other.1.iter().cloned());
                (
                    "done",
                    "documents() is a shared view with no mutator; replaced the contents of a Vec collected from it".to_string(),
                )
            }
            MutationAttempt::MutateReturnedLookup => {
                let mut flipped = 0;
                for probe in probes {
                    let mut answer = snapshot.lookup(probe)?;
                    answer.maybe_present = !answer.maybe_present;
                    answer.exact_checked = !answer.exact_checked;
                    answer.duplicate = !answer.duplicate;
                    flipped += usize::from(answer != snapshot.lookup(probe)?);
                }
                (
                    "done",
                    format!("flipped every field of {flipped} returned Lookup values (Copy values)"),
                )
            }
            MutationAttempt::MutateRecordsAfterBuild => {
                for record in &mut record_buffers {
                    record.iter_mut().for_each(|byte| *byte ^= 0xff);
                }
                record_buffers.extend(other.1.iter().cloned());
                record_buffers.reverse();
                ("done", "XORed every record buffer with ff, appended the other records, reversed the Vec".to_string())
            }
            MutationAttempt::MutateSeedAfterBuild => {
                seed_buffer.iter_mut().for_each(|byte| *byte ^= 0xff);
                seed_buffer.push(0xff);
                ("done", "XORed the seed buffer with ff and appended ff".to_string())
            }
            MutationAttempt::BypassGuards => (
                "impossible",
                "safe Rust has no way past the type system's guards: the fields are private and no \
                 &mut DocumentPrefilter is handed out; an unsafe write would be memory corruption"
                    .to_string(),
            ),
            MutationAttempt::Reconstruct => (
                "impossible",
                "Rust has no constructor to run again on an existing value; the snapshot binding is not mut".to_string(),
            ),
            MutationAttempt::MutateCopy => {
                let clone = snapshot.clone();
                (
                    "impossible",
                    format!(
                        "cloned the snapshot (the clone equals it: {}); the clone is a DocumentPrefilter too: {no_field}",
                        clone == snapshot
                    ),
                )
            }
        };
        let lookups = probes
            .iter()
            .map(|probe| Ok(triple(snapshot.lookup(probe)?)))
            .collect::<Answer<Vec<_>>>()?;
        Ok(Mutation {
            outcome: outcome.to_string(),
            detail,
            observed: Observation {
                m: u64::from(snapshot.m()),
                k: u64::from(snapshot.k()),
                seed: snapshot.seed().to_vec(),
                packed_bits: snapshot.packed_bits(),
                documents: snapshot.documents().len(),
                lookups,
            },
        })
    }
}
