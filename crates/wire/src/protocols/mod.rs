//! The protocols' own wire types, one module per protocol (its cases, its adapter
//! messages, its vector files), and the few types that name every protocol: the
//! generators of `generated` cases ([`Generator`]) and the adapter schema's list of
//! messages ([`Messages`]). The enum of vector files (`FileKind`, `VectorFile`) is
//! `bloomproof-vectors`', which names each file's protocol by the protocol crate's
//! `NAME`.
//!
//! This is the one file of this crate that a new protocol version touches: a `mod`
//! line and its variants in the enums. A protocol's types are read from its own module
//! (`bloomproof_wire::protocols::doc_membership_v1::DocCase`), never from a namespace
//! shared by every protocol.

use crate::adapter::{Response, Start, Started};
use doc_membership_v1::{
    Built, DigestResult, DocOp, Framed, MutateResult, PositionsResult, Triple, TriplesResult,
    TypedResult,
};
use fnv1a_utf16_v1::{EstimatesAnswer, FnvHashes, FnvOp, ScriptAnswer};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub mod doc_membership_v1;
pub mod fnv1a_utf16_v1;

/// What a `generated` case draws and compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Generator {
    /// `doc-membership-v1`: one item under random parameters: `positions` and
    /// `frame` of every hash index, compared with the oracle.
    DocHashing,
    /// `doc-membership-v1`: a random record set and items: `build`, `lookup_many`,
    /// `read` of the honest snapshot and of a damaged one, compared with the oracle.
    DocSnapshots,
    /// `doc-membership-v1`: the `typed` call over the contract's whole domain (every
    /// argument of every typed kind, values at, next to and far past every bound, one
    /// or several arguments wrong), compared with the oracle's contract model.
    DocTyped,
    /// `fnv1a-utf16-v1`: one string of code units of every class under random m and
    /// k: `positions`, compared with the oracle.
    FnvHashes,
    /// `fnv1a-utf16-v1`: `estimates` at a random (m, k, n), compared with the
    /// oracle's own computation.
    FnvEstimates,
    /// `fnv1a-utf16-v1`: a random session script, every step compared with the
    /// reference session model.
    FnvSessions,
    /// `fnv1a-utf16-v1`: local saves of states made of a drawn text whose UTF-16 code
    /// units, UTF-8 bytes and code points differ (non-ASCII BMP, astral, combining
    /// marks, mixed), at the limit and one past it in each measure (`save_local` with a
    /// `fill`: adapter protocol 3).
    FnvSaveFills,
}

/// Every message of the protocol, for generating the adapter schema: each property
/// is one message type (the schema's `$defs` hold them all).
#[derive(JsonSchema)]
#[allow(dead_code)]
pub struct Messages {
    /// The handshake's request (without `id`).
    start_request: Start,
    /// The handshake's result.
    start: Started,
    /// A `doc-membership-v1` request (without `id` and `protocol`).
    doc_request: DocOp,
    /// A `fnv1a-utf16-v1` request (without `id` and `protocol`).
    fnv_request: FnvOp,
    sha256: DigestResult,
    frame: Framed,
    /// `positions` (`doc-membership-v1`).
    doc_positions: PositionsResult,
    build: Built,
    lookup: Triple,
    /// `lookup_many` and `read`.
    lookup_many: TriplesResult,
    typed: TypedResult,
    mutate: MutateResult,
    /// `positions` (`fnv1a-utf16-v1`).
    fnv_positions: FnvHashes,
    session: ScriptAnswer,
    estimates: EstimatesAnswer,
    /// A whole response line.
    response: Response,
}
