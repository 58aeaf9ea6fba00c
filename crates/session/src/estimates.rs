//! Ideal-model estimates of the false-positive rate.
//!
//! All three assume ideal hashing: the `k·n` positions of `n` distinct entries
//! and the `k` positions of a query are independent and uniform over the `m`
//! bits. They are **not** the exact rate of the deterministic `fnv1a-utf16-v1`
//! filter, whose positions are fixed functions of the strings.

use bloomproof_protocol::fnv1a_utf16_v1::{K_MAX, K_MIN, M_MAX, M_MIN};
pub use bloomproof_wire::protocols::fnv1a_utf16_v1::session::Estimates;

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

/// The distribution of `X`, the number of set bits of an `m`-bit filter after some
/// throws (each a uniform position), as the dynamic program of [`exact`] leaves it:
/// resumable, so that the estimates of one filter after each of its inserts cost one
/// insert's throws each rather than all of them again.
///
/// Each throw computes `P(X = x)` afresh as `P(x) · x/m + P(x-1) · (m-(x-1))/m` for
/// every reachable `x`. The factors are computed once; a subnormal probability is kept
/// as 0 ([`flush`]); and the entries of the distribution that are exactly zero below its
/// lowest non-zero one (probabilities that underflowed) are skipped: they stay exactly
/// zero. At the points of the tests the result is the same, bit for bit, as computing
/// every entry without flushing.
#[derive(Clone, Debug)]
struct Throws {
    m: u32,
    /// Throws made so far.
    done: u64,
    /// stay[x] = x/m: a throw lands on one of the x set bits.
    stay: Vec<f64>,
    /// grow[x] = (m - x)/m: a throw lands on one of the m - x clear bits, moving x to x+1.
    grow: Vec<f64>,
    /// dist[x] = P(X = x) after the throws so far; support low..=reach, exactly zero
    /// elsewhere.
    dist: Vec<f64>,
    next: Vec<f64>,
    low: usize,
    reach: usize,
    /// The lowest index `next` may hold a non-zero value at (from two throws ago).
    next_low: usize,
    /// The last moment taken, `(throws done, k, E[(X/m)^k])`: a page's view asks for the
    /// estimates after every step, most of which throw nothing.
    last_moment: Option<(u64, u32, f64)>,
}

impl Throws {
    fn new(m: u32) -> Self {
        let bits = usize::try_from(m).unwrap_or(usize::MAX).min(1 << 16);
        let mf = f64::from(m);
        let mut dist = vec![0.0_f64; bits + 1];
        if let Some(first) = dist.first_mut() {
            *first = 1.0;
        }
        Throws {
            m,
            done: 0,
            stay: (0..=bits).map(|x| x as f64 / mf).collect(),
            grow: (0..=bits).map(|x| (mf - x as f64) / mf).collect(),
            next: vec![0.0_f64; bits + 1],
            dist,
            low: 0,
            reach: 0,
            next_low: 0,
            last_moment: None,
        }
    }

    /// Makes throws until `throws` are done (none when as many or more are).
    fn advance(&mut self, throws: u64) {
        let bits = self.dist.len() - 1;
        while self.done < throws {
            self.done += 1;
            let (low, reach) = (self.low, self.reach);
            let new_reach = (reach + 1).min(bits);
            if let Some(stale) = self.next.get_mut(self.next_low..low) {
                stale.fill(0.0);
            }
            // next[0] stays 0: stay[0] = 0/m, so no mass stays at x = 0 after a throw.
            let from = low.max(1);
            if from <= new_reach {
                let (Some(out), Some(here), Some(below), Some(s), Some(g)) = (
                    self.next.get_mut(from..=new_reach),
                    self.dist.get(from..=new_reach),
                    self.dist.get(from - 1..new_reach),
                    self.stay.get(from..=new_reach),
                    self.grow.get(from - 1..new_reach),
                ) else {
                    break;
                };
                for ((((slot, here), below), s), g) in
                    out.iter_mut().zip(here).zip(below).zip(s).zip(g)
                {
                    *slot = flush(here * s + below * g);
                }
            }
            self.next_low = low;
            self.low = lowest_nonzero(&self.next, low, new_reach);
            std::mem::swap(&mut self.dist, &mut self.next);
            self.reach = new_reach;
        }
    }

    /// `E[(X/m)^k]` over the distribution so far: the sum over its support
    /// `low..=reach` (every other entry is exactly zero, and adding `0.0` to the sum
    /// changes no bit), or the last one taken when no throw was made since, at this `k`.
    fn moment(&mut self, k: u32) -> f64 {
        if let Some((done, at, value)) = self.last_moment
            && done == self.done
            && at == k
        {
            return value;
        }
        let mf = f64::from(self.m);
        let value = self
            .dist
            .iter()
            .enumerate()
            .take(self.reach + 1)
            .skip(self.low)
            .map(|(x, probability)| probability * power(x as f64 / mf, k))
            .sum();
        self.last_moment = Some((self.done, k, value));
        value
    }
}

/// How many distributions one thread keeps for [`exact`] (the last ones used, one per
/// `m`): about 16 KiB each at the largest `m`.
const KEPT: usize = 4;

thread_local! {
    /// The distributions [`exact`] left, most recently used last.
    static KEPT_THROWS: std::cell::RefCell<Vec<Throws>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `E[(X/m)^k]` after `k·n` throws, by the dynamic program of [`Throws`]. A thread
/// keeps its last few distributions ([`KEPT`]) and resumes one of the same `m` that has
/// made no more throws than asked: a page's filter asks after each insert, and each
/// answer then costs that insert's `k` throws. Resuming makes exactly the throws a
/// fresh computation would make after that point, so the result is the same to the bit.
fn exact(m: u32, k: u32, n: u32) -> f64 {
    let throws = u64::from(k) * u64::from(n);
    KEPT_THROWS.with(|kept| {
        let mut kept = kept.borrow_mut();
        let resumable = kept.iter().rposition(|t| t.m == m && t.done <= throws);
        let mut state = match resumable {
            Some(at) => kept.remove(at),
            None => Throws::new(m),
        };
        state.advance(throws);
        let result = state.moment(k);
        if kept.len() >= KEPT {
            kept.remove(0);
        }
        kept.push(state);
        result
    })
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

    /// The kept distributions change no bit: a filter asked after every insert, asked
    /// again at a smaller `n`, and more `m`s than a thread keeps, interleaved, each
    /// against the dynamic program written plainly.
    #[test]
    fn resumed_distributions_give_the_fresh_result() {
        let mut asked = Vec::new();
        for n in 0..40 {
            asked.extend([(64, 3, n), (8, 12, n / 2), (200, 1, 3 * n)]);
        }
        asked.extend([(64, 3, 5), (64, 7, 3), (1024, 12, 1024), (1024, 12, 1000)]);
        // Asked again with no throw between, and the same throws at another k (21 each).
        asked.extend([(64, 3, 7), (64, 3, 7), (64, 7, 3), (64, 7, 3), (64, 3, 7)]);
        asked.extend((0..2 * KEPT as u32).map(|i| (9 + i, 2, 11)));
        asked.extend([(64, 3, 41), (8, 12, 30)]);
        for (m, k, n) in asked {
            let (kept, plain) = (exact(m, k, n), exact_every_entry(m, k, n));
            assert_eq!(kept.to_bits(), plain.to_bits(), "m {m} k {k} n {n}");
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
