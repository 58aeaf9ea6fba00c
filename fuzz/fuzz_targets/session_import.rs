//! The session import (`bloomproof_fuzzing::session_import`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    bloomproof_fuzzing::session_import(data);
});
