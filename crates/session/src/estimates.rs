//! Ideal-model estimates of the false-positive rate.
//!
//! All three assume ideal hashing: the `k·n` positions of `n` distinct entries
//! and the `k` positions of a query are independent and uniform over the `m`
//! bits. They are **not** the exact rate of the deterministic `fnv1a-utf16-v1`
//! filter, whose positions are fixed functions of the strings.

use bloomproof_protocol::fnv1a_utf16_v1::{K_MAX, K_MIN, M_MAX, M_MIN};
pub use bloomproof_wire::session::Estimates;

use crate::MAX_ENTRIES;

/// Computes the [`Estimates`] for `m`, `k` and `n`.
///
/// Inputs are clamped to the protocol's bounds (`m` to 8..=1024, `k` to 1..=12,
/// `n` to 0..=1024) so that the exact computation has bounded cost and never
/// fails; the returned `m`, `k`, `n` are the values actually used. With `n = 0`
/// all three rates are 0.
pub fn estimates(m: u32, k: u32, n: u32) -> Estimates {
    let m = m.clamp(M_MIN, M_MAX);
    let k = k.clamp(K_MIN, K_MAX);
    let n = n.min(u32::try_from(MAX_ENTRIES).unwrap_or(u32::MAX));
    let optimal_k = (K_MIN..=K_MAX).fold((K_MIN, f64::INFINITY), |(best_k, best), candidate| {
        let value = classic(m, candidate, n);
        if value < best {
            (candidate, value)
        } else {
            (best_k, best)
        }
    });
    Estimates {
        m,
        k,
        n,
        classic: classic(m, k, n),
        finite_m: finite_m(m, k, n),
        exact: exact(m, k, n),
        optimal_k: optimal_k.0,
    }
}

fn power(base: f64, k: u32) -> f64 {
    base.powi(i32::try_from(k).unwrap_or(i32::MAX))
}

/// `(1 - e^(-kn/m))^k`, with `1 - e^(-x)` computed as `-expm1(-x)` for accuracy at small `x`.
fn classic(m: u32, k: u32, n: u32) -> f64 {
    let x = f64::from(k) * f64::from(n) / f64::from(m);
    power(-(-x).exp_m1(), k)
}

/// `(1 - (1 - 1/m)^(kn))^k`, with `1 - (1 - 1/m)^t = -expm1(t·ln(1 - 1/m))`.
fn finite_m(m: u32, k: u32, n: u32) -> f64 {
    let throws = f64::from(k) * f64::from(n);
    let one_bit = -(throws * (-1.0 / f64::from(m)).ln_1p()).exp_m1();
    power(one_bit, k)
}

/// A probability below the smallest normal `f64`, as exactly 0.
///
/// Each such entry moves the result by less than 1e-307, so all of them together by less
/// than 1e-299: far below the 1e-9 relative the estimates are compared within, and below
/// every non-zero result (at least m^-k). Arithmetic on subnormal numbers is many times
/// slower than on normal numbers and zeros, and without this the tail of the
/// distribution ran subnormal for most of the throws (the whole in-process suite spent
/// most of its time there).
#[inline]
fn flush(p: f64) -> f64 {
    if p < f64::MIN_POSITIVE { 0.0 } else { p }
}

/// The lowest index in `from..=to` where `dist` is not exactly zero; `from` when there
/// is none.
fn lowest_nonzero(dist: &[f64], from: usize, to: usize) -> usize {
    (from..=to)
        .find(|&x| dist.get(x).is_some_and(|p| *p != 0.0))
        .unwrap_or(from)
}

/// `E[(X/m)^k]` by dynamic programming on the distribution of `X`.
///
/// Each throw computes `P(X = x)` afresh as `P(x) · x/m + P(x-1) · (m-(x-1))/m` for
/// every reachable `x`. The factors are computed once; a subnormal probability is kept
/// as 0 ([`flush`]); and the entries of the distribution that are exactly zero below its
/// lowest non-zero one (probabilities that underflowed) are skipped: they stay exactly
/// zero. At the points of the tests the result is the same, bit for bit, as computing
/// every entry without flushing.
fn exact(m: u32, k: u32, n: u32) -> f64 {
    let throws = u64::from(k) * u64::from(n);
    let bits = usize::try_from(m).unwrap_or(usize::MAX).min(1 << 16);
    let mf = f64::from(m);
    // stay[x] = x/m: a throw lands on one of the x set bits.
    let stay: Vec<f64> = (0..=bits).map(|x| x as f64 / mf).collect();
    // grow[x] = (m - x)/m: a throw lands on one of the m - x clear bits, moving x to x+1.
    let grow: Vec<f64> = (0..=bits).map(|x| (mf - x as f64) / mf).collect();
    // dist[x] = P(X = x) after the throws so far; support low..=reach, exactly zero
    // elsewhere.
    let mut dist = vec![0.0_f64; bits + 1];
    if let Some(first) = dist.first_mut() {
        *first = 1.0;
    }
    let mut next = vec![0.0_f64; bits + 1];
    let (mut low, mut reach) = (0_usize, 0_usize);
    // The lowest index `next` may hold a non-zero value at (from two throws ago).
    let mut next_low = 0_usize;
    for _ in 0..throws {
        let new_reach = (reach + 1).min(bits);
        if let Some(stale) = next.get_mut(next_low..low) {
            stale.fill(0.0);
        }
        // next[0] stays 0: stay[0] = 0/m, so no mass stays at x = 0 after a throw.
        let from = low.max(1);
        if from <= new_reach {
            let (Some(out), Some(here), Some(below), Some(s), Some(g)) = (
                next.get_mut(from..=new_reach),
                dist.get(from..=new_reach),
                dist.get(from - 1..new_reach),
                stay.get(from..=new_reach),
                grow.get(from - 1..new_reach),
            ) else {
                break;
            };
            for ((((slot, here), below), s), g) in out.iter_mut().zip(here).zip(below).zip(s).zip(g)
            {
                *slot = flush(here * s + below * g);
            }
        }
        next_low = low;
        low = lowest_nonzero(&next, low, new_reach);
        std::mem::swap(&mut dist, &mut next);
        reach = new_reach;
    }
    dist.iter()
        .enumerate()
        .map(|(x, probability)| probability * power(x as f64 / mf, k))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dynamic program written plainly: every entry of every throw.
    fn exact_every_entry(m: u32, k: u32, n: u32) -> f64 {
        let throws = u64::from(k) * u64::from(n);
        let bits = m as usize;
        let mf = f64::from(m);
        let mut dist = vec![0.0_f64; bits + 1];
        dist[0] = 1.0;
        let mut next = vec![0.0_f64; bits + 1];
        let mut reach = 0_usize;
        for _ in 0..throws {
            let new_reach = (reach + 1).min(bits);
            for x in 0..=new_reach {
                let stay = dist[x] * (x as f64 / mf);
                let grow = if x == 0 {
                    0.0
                } else {
                    dist[x - 1] * ((mf - (x - 1) as f64) / mf)
                };
                next[x] = stay + grow;
            }
            std::mem::swap(&mut dist, &mut next);
            reach = new_reach;
        }
        dist.iter()
            .enumerate()
            .map(|(x, p)| p * power(x as f64 / mf, k))
            .sum()
    }

    #[test]
    fn only_subnormal_probabilities_are_flushed() {
        assert_eq!(flush(f64::MIN_POSITIVE / 2.0).to_bits(), 0.0_f64.to_bits());
        assert_eq!(flush(f64::from_bits(1)).to_bits(), 0.0_f64.to_bits());
        assert_eq!(flush(f64::MIN_POSITIVE), f64::MIN_POSITIVE);
        assert_eq!(flush(0.5), 0.5);
        assert_eq!(flush(0.0).to_bits(), 0.0_f64.to_bits());
    }

    #[test]
    fn the_lowest_nonzero_entry_is_found_in_its_range() {
        let dist = [0.0, 0.0, 0.25, 0.0, 0.75];
        assert_eq!(lowest_nonzero(&dist, 0, 4), 2);
        assert_eq!(lowest_nonzero(&dist, 3, 4), 4);
        assert_eq!(lowest_nonzero(&dist, 2, 2), 2);
        assert_eq!(
            lowest_nonzero(&dist, 0, 1),
            0,
            "none: the start of the range"
        );
        assert_eq!(
            lowest_nonzero(&dist, 3, 3),
            3,
            "none: the start of the range"
        );
    }

    #[test]
    fn skipping_underflowed_entries_changes_no_bit() {
        for (m, k, n) in [
            (8, 1, 1),
            (8, 12, 1024),
            (9, 3, 40),
            (64, 3, 10),
            (100, 7, 14),
            (200, 12, 300),
            (512, 4, 0),
            (1000, 5, 200),
            (1024, 1, 1),
            (1024, 12, 1024),
        ] {
            let (fast, plain) = (exact(m, k, n), exact_every_entry(m, k, n));
            assert_eq!(
                fast.to_bits(),
                plain.to_bits(),
                "m {m} k {k} n {n}: {fast} {plain}"
            );
        }
    }

    #[test]
    fn zero_entries() {
        let e = estimates(64, 3, 0);
        assert_eq!(
            (e.classic, e.finite_m, e.exact, e.optimal_k),
            (0.0, 0.0, 0.0, 1)
        );
    }

    #[test]
    fn clamping() {
        let e = estimates(0, 0, u32::MAX);
        assert_eq!((e.m, e.k, e.n), (8, 1, 1024));
        let e = estimates(u32::MAX, u32::MAX, 3);
        assert_eq!((e.m, e.k, e.n), (1024, 12, 3));
    }
}
