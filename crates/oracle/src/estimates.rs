//! The false-positive estimates of `fnv1a-utf16-v1` (its session model's view,
//! `spec/fnv1a-utf16-v1/SESSION.md`, "Estimates"), recomputed from their definitions.
//!
//! The exact rate is E[(X/m)^k] for X the number of set bits after t = k·n uniform
//! throws into m bits. Here the distribution followed throw by throw is that of the
//! number of *clear* bits c = m - X: a throw keeps c when it lands on one of the
//! m - c set bits, and takes c to c - 1 when it lands on one of the c clear ones.

/// The four estimates, and the parameters they used.
#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(missing_docs, reason = "the names of SESSION.md")]
pub struct Estimates {
    /// (m, k, n) as [`clamped`].
    pub used: (u32, u32, u32),
    pub classic: f64,
    pub finite_m: f64,
    pub exact: f64,
    pub optimal_k: u32,
}

/// `(1 - e^(-kn/m))^k`.
pub fn classic(m: u32, k: u32, n: u32) -> f64 {
    let x = f64::from(k) * f64::from(n) / f64::from(m);
    let one_bit = -f64::exp_m1(-x);
    (0..k).fold(1.0, |product, _| product * one_bit)
}

/// `(1 - (1 - 1/m)^(kn))^k`.
pub fn finite_m(m: u32, k: u32, n: u32) -> f64 {
    let t = f64::from(k) * f64::from(n);
    let one_bit = -f64::exp_m1(t * f64::ln_1p(-1.0 / f64::from(m)));
    (0..k).fold(1.0, |product, _| product * one_bit)
}

/// E[(X/m)^k] after k·n throws, X the number of set bits.
pub fn exact(m: u32, k: u32, n: u32) -> f64 {
    let bits = m as usize;
    let mf = f64::from(m);
    // clear[c] = probability that exactly c bits are still clear.
    let mut clear = vec![0.0f64; bits + 1];
    clear[bits] = 1.0;
    let throws = u64::from(k) * u64::from(n);
    // The chances of a throw, divided once here rather than on every throw (the same
    // quotients, so the same result bit for bit): stays[c] = (m - c)/m keeps c clear
    // bits, arrives[c] = c/m takes c clear bits to c - 1.
    let stays: Vec<f64> = (0..=bits).map(|c| (mf - c as f64) / mf).collect();
    let arrives: Vec<f64> = (0..=bits).map(|c| c as f64 / mf).collect();
    // Every c outside lowest..=highest holds exactly 0: below `lowest` none is
    // reachable yet, or each underflowed to 0; above `highest` each underflowed to 0
    // (or, for c = m, a throw emptied it). A throw leaves such a c at exactly 0 unless
    // its neighbour above holds something (0·stays + 0·arrives = 0), so each throw
    // computes c from lowest - 1 to highest only: the same sums as computing every c,
    // so the same result bit for bit.
    let mut lowest = bits;
    let mut highest = bits;
    for _ in 0..throws {
        let floor = lowest.saturating_sub(1);
        for c in floor..(highest + 1).min(bits) {
            let p = clear[c] * stays[c] + clear[c + 1] * arrives[c + 1];
            // Below the smallest normal f64, a probability is taken as 0: that moves the
            // result by about 1e-300 at most, and subnormal arithmetic is very slow.
            clear[c] = if p < f64::MIN_POSITIVE { 0.0 } else { p };
        }
        if highest == bits {
            clear[bits] *= stays[bits];
        }
        lowest = floor;
        while highest > lowest && clear[highest] == 0.0 {
            highest -= 1;
        }
        while lowest < highest && clear[lowest] == 0.0 {
            lowest += 1;
        }
    }
    let mut sum = 0.0;
    for (c, probability) in clear.iter().enumerate() {
        let set = (mf - c as f64) / mf;
        let term = (0..k).fold(*probability, |product, _| product * set);
        sum += term;
    }
    sum
}

/// The least m an estimate is computed with.
pub const M_MIN: u32 = 8;
/// The largest m an estimate is computed with.
pub const M_MAX: u32 = 1024;
/// The least k (and the first `optimal_k` tried).
pub const K_MIN: u32 = 1;
/// The largest k (and the last `optimal_k` tried).
pub const K_MAX: u32 = 12;
/// The largest n an estimate is computed with.
pub const N_MAX: u32 = 1024;

/// (m, k, n) clamped as every estimate takes them: m to `M_MIN..=M_MAX`, k to
/// `K_MIN..=K_MAX`, n to `0..=N_MAX`.
pub fn clamped(m: u32, k: u32, n: u32) -> (u32, u32, u32) {
    (m.clamp(M_MIN, M_MAX), k.clamp(K_MIN, K_MAX), n.min(N_MAX))
}

/// The four estimates for (m, k, n), each [`clamped`] first (m to 8..=1024, k to
/// 1..=12, n to 0..=1024); `optimal_k` is the k in 1..=12 with the least classic
/// estimate, the smallest on a tie.
pub fn estimates(m: u32, k: u32, n: u32) -> Estimates {
    let (m, k, n) = clamped(m, k, n);
    let mut optimal_k = K_MIN;
    let mut least = classic(m, K_MIN, n);
    for candidate in K_MIN + 1..=K_MAX {
        let value = classic(m, candidate, n);
        if value < least {
            least = value;
            optimal_k = candidate;
        }
    }
    Estimates {
        used: (m, k, n),
        classic: classic(m, k, n),
        finite_m: finite_m(m, k, n),
        exact: exact(m, k, n),
        optimal_k,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The throws computed over every c, as first written: what [`exact`] must give bit
    /// for bit.
    fn exact_every_c(m: u32, k: u32, n: u32) -> f64 {
        let bits = m as usize;
        let mf = f64::from(m);
        let mut clear = vec![0.0f64; bits + 1];
        clear[bits] = 1.0;
        let stays: Vec<f64> = (0..=bits).map(|c| (mf - c as f64) / mf).collect();
        let arrives: Vec<f64> = (0..=bits).map(|c| c as f64 / mf).collect();
        let mut lowest = bits;
        for _ in 0..u64::from(k) * u64::from(n) {
            let floor = lowest.saturating_sub(1);
            for c in floor..bits {
                let p = clear[c] * stays[c] + clear[c + 1] * arrives[c + 1];
                clear[c] = if p < f64::MIN_POSITIVE { 0.0 } else { p };
            }
            clear[bits] *= stays[bits];
            lowest = floor;
        }
        clear
            .iter()
            .enumerate()
            .map(|(c, p)| (0..k).fold(*p, |product, _| product * ((mf - c as f64) / mf)))
            .sum()
    }

    #[test]
    fn the_band_gives_every_c_bit_for_bit() {
        let mut points = vec![(8, 1, 0), (8, 1, 1), (8, 12, 1024), (1024, 12, 1024)];
        for m in [8, 9, 16, 63, 100, 256, 511, 1024] {
            for k in [1, 2, 3, 7, 12] {
                for n in [0, 1, 2, 5, 17, 64, 200, 1024] {
                    if u64::from(k) * u64::from(n) * u64::from(m) <= 4_000_000 {
                        points.push((m, k, n));
                    }
                }
            }
        }
        for (m, k, n) in points {
            let (got, want) = (exact(m, k, n), exact_every_c(m, k, n));
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "m {m} k {k} n {n}: {got} {want}"
            );
        }
    }
}
