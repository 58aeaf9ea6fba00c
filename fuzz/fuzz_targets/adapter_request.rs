//! The adapter's request parser and answers (`bloomproof_fuzzing::adapter_request`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    bloomproof_fuzzing::adapter_request(data);
});
