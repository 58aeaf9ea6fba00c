//! The registry of the runner's protocols: one entry per protocol of
//! [`crate::PROTOCOLS`], in its order, each a module of this folder.
//!
//! Generic code (the loader, the runner, the generated checks) iterates a [`Registry`]
//! ([`REGISTRY`], the built-in one, unless the caller passes another) and reaches a
//! protocol's cases and subject only through the traits of [`crate::protocol`], which
//! every protocol module implements.

pub mod doc_membership_v1;
pub mod fnv1a_utf16_v1;

pub use crate::generated::GeneratorDomain;
pub use crate::protocol::{
    Cases, Protocol, ProtocolCases, ProtocolSubject, Pushed, Registry, SpecCase, Subject,
    SubjectTrait, Subjects,
};

/// Every protocol the runner knows, in the order of [`crate::PROTOCOLS`].
pub static REGISTRY: &[&dyn Protocol] = &[
    &doc_membership_v1::DocMembership::V1,
    &fnv1a_utf16_v1::Fnv1aUtf16V1,
];

/// The registry entry named `name`, if the runner knows the protocol.
pub fn find(name: &str) -> Option<&'static dyn Protocol> {
    Registry::BUILT_IN.find(name)
}

impl Registry {
    /// The runner's own protocols, [`REGISTRY`].
    pub const BUILT_IN: Registry = Registry(REGISTRY);
}

impl Default for Registry {
    fn default() -> Self {
        Registry::BUILT_IN
    }
}
