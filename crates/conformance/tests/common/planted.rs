//! Planted subjects: the production subject of a protocol with one method (or a few)
//! replaced by a hook, every other method answered by the production subject itself.
//!
//! A test that plants a flaw names only the methods it changes:
//! `PlantedFnv::new("h1 + 1").on_positions(|real, m, k, units| ...)`. The hook gets
//! the production subject (`real`) and the arguments. The production traits keep no
//! default for these methods: a real subject has to answer each one itself.

use bloomproof_conformance::subject::{Answer, UnderTest};
use bloomproof_conformance::subjects::doc_membership_v1::{
    DocSubject, Mutation, RawParams, RustDoc,
};
use bloomproof_conformance::subjects::fnv1a_utf16_v1::{FnvSubject, RustFnv};
use bloomproof_wire::protocols::doc_membership_v1::MutationAttempt;
use bloomproof_wire::protocols::doc_membership_v1::{Built, Framed, Triple, TypedCall};
use bloomproof_wire::protocols::fnv1a_utf16_v1::ScriptOp;
use bloomproof_wire::protocols::fnv1a_utf16_v1::{EstimatesAnswer, FnvHashes, ScriptAnswer};

/// Defines a planted subject: its hooks, their setters and the subject trait's impl,
/// from one line a method (`setter => fn method(args) -> answer;`).
macro_rules! planted {
    ($(#[$doc:meta])* $planted:ident: $subject:ident for $real:ident {
        $($on:ident => fn $method:ident($($arg:ident: $ty:ty),*) -> $answer:ty;)*
    }) => {
        $(#[$doc])*
        pub struct $planted {
            name: &'static str,
            real: $real,
            started: Option<bloomproof_wire::adapter::Started>,
            $($method: Option<Box<dyn FnMut(&mut $real, $($ty),*) -> Answer<$answer> + Send>>,)*
        }

        impl $planted {
            /// The production subject under `name`, no method replaced yet.
            pub fn new(name: &'static str) -> Self {
                Self { name, real: <$real>::default(), started: None, $($method: None,)* }
            }

            /// Says in its handshake that it implements `protocols` alone, as an adapter
            /// does (in process, a subject has no handshake and implements every protocol).
            pub fn listing(mut self, protocols: &[&str]) -> Self {
                self.started = Some(bloomproof_wire::adapter::Started {
                    adapter_protocol: bloomproof_wire::adapter::ADAPTER_PROTOCOL,
                    implementation: bloomproof_wire::adapter::ImplementationInfo {
                        name: self.name.into(),
                        language: "Rust".into(),
                        version: "planted".into(),
                    },
                    protocols: protocols.iter().map(ToString::to_string).collect(),
                });
                self
            }
            $(
                #[doc = concat!("Replaces `", stringify!($method), "`: the hook gets the production subject and the arguments.")]
                pub fn $on(
                    mut self,
                    hook: impl FnMut(&mut $real, $($ty),*) -> Answer<$answer> + Send + 'static,
                ) -> Self {
                    self.$method = Some(Box::new(hook));
                    self
                }
            )*
        }

        impl UnderTest for $planted {
            fn name(&self) -> String {
                self.name.into()
            }

            fn started(&self) -> Option<bloomproof_wire::adapter::Started> {
                self.started.clone()
            }
        }

        impl $subject for $planted {
            $(
                fn $method(&mut self, $($arg: $ty),*) -> Answer<$answer> {
                    match &mut self.$method {
                        Some(hook) => hook(&mut self.real, $($arg),*),
                        None => self.real.$method($($arg),*),
                    }
                }
            )*
        }
    };
}

planted! {
    /// [`RustDoc`] with planted flaws.
    PlantedDoc: DocSubject for RustDoc {
        on_sha256 => fn sha256(data: &[u8]) -> Vec<u8>;
        on_frame => fn frame(params: &RawParams, index: u8, item: &[u8]) -> Framed;
        on_positions => fn positions(params: &RawParams, item: &[u8]) -> Vec<u16>;
        on_build => fn build(params: &RawParams, records: &[Vec<u8>]) -> Built;
        on_lookup => fn lookup(params: &RawParams, records: &[Vec<u8>], items: &[Vec<u8>]) -> Vec<Triple>;
        on_typed => fn typed(call: &TypedCall) -> Option<Triple>;
        on_read => fn read(params: &RawParams, records: &[Vec<u8>], packed_bits: &[u8], items: &[Vec<u8>]) -> Vec<Triple>;
        on_mutate => fn mutate(params: &RawParams, records: &[Vec<u8>], other: (&RawParams, &[Vec<u8>]), attempt: MutationAttempt, probes: &[Vec<u8>]) -> Mutation;
    }
}

planted! {
    /// [`RustFnv`] with planted flaws.
    PlantedFnv: FnvSubject for RustFnv {
        on_positions => fn positions(m: u64, k: u64, units: &[u16]) -> FnvHashes;
        on_session => fn session(script: &[ScriptOp]) -> ScriptAnswer;
        on_estimates => fn estimates(m: u32, k: u32, n: u32) -> EstimatesAnswer;
    }
}

/// `hashes` with its h1 replaced, and its k positions `(h1 + i * h2) mod m` computed
/// from that h1, as an implementation with a wrong h1 would give them.
pub fn with_h1(mut hashes: FnvHashes, h1: u32, m: u64, k: u64) -> FnvHashes {
    hashes.h1 = h1;
    hashes.positions = (0..k)
        .map(|i| {
            let p = (u64::from(h1) + i * u64::from(hashes.h2)) % m;
            u16::try_from(p).unwrap()
        })
        .collect();
    hashes
}
