//! The adapter protocol (`spec/ADAPTER.md`), both sides, and the subjects evaluators
//! drive: everything `bloomproof adapter` needs, without the runner or the oracle.
//!
//! * [`subject`]: what an evaluator may ask of an implementation (`DocSubject`,
//!   `FnvSubject`) and the in-process production subjects (`RustDoc`, `RustFnv`);
//! * [`client`]: the runner's side, an implementation driven as a subprocess
//!   (`AdapterDoc`, `AdapterFnv` on `AdapterProcess`: the handshake, deadlines,
//!   bounded queues, the process group ended on timeout, death, drop and signals);
//! * [`serve`]: the serving side of `bloomproof adapter`, answering through the
//!   in-process subjects, so both runs are judged on the same answers;
//! * [`protocols`]: one folder per protocol (its subject trait and in-process subject,
//!   its adapter subject, its served operations), and the one list of them that a new
//!   protocol joins; [`subject`], [`client`] and [`serve`] hold what the protocols share;
//! * [`lines`], [`scan`], [`quote`]: capped line reads, the first pass over a JSON
//!   line (duplicate keys, value count) and short quotes of untrusted text, for both
//!   sides; an answer's line is read straight into its op's result type when it is
//!   well-formed, and judged as a JSON tree otherwise (`answer.rs`);
//! * [`ToDynamic`]: the one conversion of a typed value into the filter's dynamic value.

mod answer;
pub mod client;
mod dynamic;
pub mod lines;
mod pipes;
mod process;
pub mod protocols;
pub mod quote;
pub mod scan;
pub mod serve;
pub mod subject;

pub use dynamic::ToDynamic;
