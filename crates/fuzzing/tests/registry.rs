//! The fuzzing crate's registry of operation costs lists exactly the registered
//! protocols (`bloomproof_protocol::PROTOCOLS`), in their order, as every layer's does
//! (`crates/conformance/tests/registry.rs`).

use bloomproof_conformance::PROTOCOLS;
use bloomproof_fuzzing::COSTS;

#[test]
fn the_costs_are_exactly_the_registered_protocols() {
    let names: Vec<&str> = COSTS.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, PROTOCOLS.to_vec());
}
