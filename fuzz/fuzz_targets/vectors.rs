//! The vector loader (`bloomproof_fuzzing::vectors`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    bloomproof_fuzzing::vectors(data);
});
