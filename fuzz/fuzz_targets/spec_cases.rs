//! The spec loader on one spec file (`bloomproof_fuzzing::spec_cases`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    bloomproof_fuzzing::spec_cases(data);
});
