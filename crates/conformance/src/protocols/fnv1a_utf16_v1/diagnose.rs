//! First difference for `fnv1a-utf16-v1`: when a `positions` answer differs from the
//! oracle's, the first stage that differs (a code unit, h1, h2, then each position),
//! from the implementation's `positions` of prefixes of the string. The expected stages
//! come from the independent oracle, never from production code. At most 9 `positions`
//! requests: a binary search over the prefixes of at most 256 code units.

use bloomproof_adapter::protocols::fnv1a_utf16_v1::FnvSubject;
use bloomproof_oracle::fnv1a_utf16 as oracle_fnv;
use bloomproof_wire::protocols::fnv1a_utf16_v1::FnvHashes;

fn narrow(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// FNV-1a 32-bit prime.
const PRIME: u32 = 16_777_619;

/// The inverse of [`PRIME`] modulo 2^32 (Newton's iteration; each step doubles the
/// correct low bits).
fn prime_inverse() -> u32 {
    let mut x = PRIME;
    for _ in 0..5 {
        x = x.wrapping_mul(2u32.wrapping_sub(PRIME.wrapping_mul(x)));
    }
    x
}

/// The first stage at which the implementation's answer `got` for the string `units`
/// differs from the oracle's: a code unit, h1, h2, then each position. `None` when
/// the answer equals the oracle's. Asks for the positions of prefixes of `units` (a
/// binary search, at most 9 requests) to tell a code unit read differently from a
/// hash computed differently.
pub fn fnv_first_difference(
    subject: &mut dyn FnvSubject,
    m: u64,
    k: u64,
    units: &[u16],
    got: &FnvHashes,
) -> Option<String> {
    let (m32, k32) = (narrow(m), narrow(k));
    let (h1, h2) = (oracle_fnv::h1(units), oracle_fnv::h2(units));
    let want: Vec<u32> = oracle_fnv::positions(m32, k32, units);
    let got_positions: Vec<u32> = got.positions.iter().map(|&p| u32::from(p)).collect();
    if (got.h1, got.h2) == (h1, h2) {
        let i = (0..want.len().max(got_positions.len()))
            .find(|&i| want.get(i) != got_positions.get(i))?;
        let shown = |p: Option<&u32>| p.map_or_else(|| "nothing".to_string(), u32::to_string);
        let sum = u64::from(h1) + i as u64 * u64::from(h2);
        let wrap = if sum >= 1 << 32 {
            format!(
                "; the sum is at least 2^32: wrapped to 32 bits it would give {}",
                (sum % (1 << 32)) % m.max(1)
            )
        } else {
            String::new()
        };
        return Some(format!(
            "position {i}: expected {}, got {} ((h1 + {i}*h2) mod {m} = {sum} mod {m}; h1 and h2 equal the oracle's{wrap})",
            shown(want.get(i)),
            shown(got_positions.get(i)),
        ));
    }
    // The first prefix length whose (h1, h2) differ; the whole string's do.
    let mut answers: Vec<(usize, FnvHashes)> = vec![(units.len(), got.clone())];
    let (mut lo, mut hi) = (1, units.len());
    let mut note = String::new();
    while lo < hi {
        let mid = (lo + hi) / 2;
        let prefix = &units[..mid];
        match subject.positions(m, k, prefix) {
            Ok(answer) => {
                let differs =
                    (answer.h1, answer.h2) != (oracle_fnv::h1(prefix), oracle_fnv::h2(prefix));
                answers.push((mid, answer));
                if differs {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            Err(err) => {
                note = format!("; the prefixes could not be compared: {err}");
                break;
            }
        }
    }
    let first = hi;
    let at_first = answers
        .iter()
        .find(|(len, _)| *len == first)
        .map(|(_, a)| a);
    if note.is_empty()
        && let Some(answer) = at_first
        && first >= 1
    {
        // A unit read differently shows as a different unit that explains both hashes.
        let before = &units[..first - 1];
        let previous = if before.is_empty() {
            2_166_136_261
        } else {
            oracle_fnv::h1(before)
        };
        let inferred = answer.h1.wrapping_mul(prime_inverse()) ^ previous;
        if let Ok(read) = u16::try_from(inferred) {
            let mut changed = before.to_vec();
            changed.push(read);
            if read != units[first - 1]
                && oracle_fnv::h1(&changed) == answer.h1
                && oracle_fnv::h2(&changed) == answer.h2
            {
                return Some(format!(
                    "code unit {}: expected {:04x}, got {read:04x} (h1 and h2 of the first {first} units are those of the string with that unit)",
                    first - 1,
                    units[first - 1]
                ));
            }
        }
        let where_ = format!(
            "they first differ for the first {first} of {} code units",
            units.len()
        );
        let (name, want_prefix, got_prefix) = if answer.h1 != oracle_fnv::h1(&units[..first]) {
            ("h1", oracle_fnv::h1(&units[..first]), answer.h1)
        } else {
            ("h2", oracle_fnv::h2(&units[..first]), answer.h2)
        };
        let (whole_want, whole_got) = if name == "h1" {
            (h1, got.h1)
        } else {
            (h2, got.h2)
        };
        return Some(format!(
            "{name}: expected {whole_want}, got {whole_got} (no one code unit read differently explains it; {where_}, where {name} is expected {want_prefix}, got {got_prefix})"
        ));
    }
    let (name, want, have) = if got.h1 != h1 {
        ("h1", h1, got.h1)
    } else {
        ("h2", h2, got.h2)
    };
    Some(format!("{name}: expected {want}, got {have}{note}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inverse_prime() {
        assert_eq!(PRIME.wrapping_mul(prime_inverse()), 1);
    }
}
