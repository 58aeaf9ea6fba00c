//! The plot's data: the three ideal-model estimates against `n` for one `m` and `k`.
//!
//! Each point is [`bloomproof_session::estimates`]; this module only chooses
//! which `n` to compute, within a bounded amount of work (the exact estimate
//! costs about `k·n·m` steps per point).

use bloomproof_session::{MAX_ENTRIES, estimates};
use serde::{Deserialize, Serialize};

/// Most points in a series.
pub const MAX_POINTS: u32 = 129;
/// Points when the caller does not say.
pub const DEFAULT_POINTS: u32 = 65;
/// Upper bound on the summed `k·n·m` of a series' exact estimates; past it the
/// series gets fewer points (at least 3, plus the marked `n`). About half a
/// second of work in a debug build.
pub const WORK_BUDGET: u64 = 20_000_000;

/// One `n` and the estimates there.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Point {
    /// Distinct entries.
    pub n: u32,
    /// `(1 - e^(-kn/m))^k`.
    pub classic: f64,
    /// `(1 - (1 - 1/m)^(kn))^k`.
    pub finite_m: f64,
    /// `E[(X/m)^k]` under ideal hashing.
    pub exact: f64,
}

/// The series of one `m` and `k`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Bits (clamped to the protocol's bounds, as the estimates use it).
    pub m: u32,
    /// Hash indices (clamped likewise).
    pub k: u32,
    /// The marked `n` (the current number of entries), always one of the points.
    pub n: Option<u32>,
    /// The right end of the `n` axis.
    pub n_max: u32,
    /// The points, by increasing `n`, from 0 to `n_max`.
    pub points: Vec<Point>,
}

fn max_entries() -> u32 {
    u32::try_from(MAX_ENTRIES).unwrap_or(u32::MAX)
}

/// The default right end of the axis: about where the classic estimate
/// approaches 1 (`3m/k`), and at least `1.25·n` and 8; at most 1024.
fn default_n_max(m: u32, k: u32, n: Option<u32>) -> u32 {
    let saturation = (3 * u64::from(m)).div_ceil(u64::from(k.max(1)));
    let around_n = n.map_or(0, |n| u64::from(n) + u64::from(n).div_ceil(4));
    let wanted = saturation.max(around_n).max(8);
    u32::try_from(wanted).unwrap_or(u32::MAX).min(max_entries())
}

fn sample(n_max: u32, count: u32) -> Vec<u32> {
    if n_max < count {
        return (0..=n_max).collect();
    }
    let segments = u64::from(count.max(2) - 1);
    (0..=segments)
        .map(|i| {
            let n = (i * u64::from(n_max) + segments / 2) / segments;
            u32::try_from(n).unwrap_or(n_max)
        })
        .collect()
}

fn work(m: u32, k: u32, ns: &[u32]) -> u64 {
    ns.iter()
        .map(|&n| u64::from(k) * u64::from(n) * u64::from(m))
        .sum()
}

/// The estimates at up to `points` values of `n` from 0 to `n_max` (defaults:
/// [`DEFAULT_POINTS`], and an axis end a little past saturation), plus `n`
/// itself when given.
///
/// `m`, `k`, `n` and `n_max` are clamped to the protocol's bounds (as
/// [`estimates`] does); the series has fewer points when their exact estimates
/// would cost more than [`WORK_BUDGET`].
pub fn series(m: u32, k: u32, n: Option<u32>, n_max: Option<u32>, points: Option<u32>) -> Series {
    let clamped = estimates(m, k, 0);
    let (m, k) = (clamped.m, clamped.k);
    let n = n.map(|n| n.min(max_entries()));
    let n_max = n_max
        .map_or_else(|| default_n_max(m, k, n), |n_max| n_max.min(max_entries()))
        .max(n.unwrap_or(0))
        .max(1);
    let mut count = points.unwrap_or(DEFAULT_POINTS).clamp(2, MAX_POINTS);
    let mut ns = sample(n_max, count);
    if work(m, k, &ns) > WORK_BUDGET {
        // Evenly spaced points cost about k·m·n_max·count/2: start near the
        // largest count that fits, then step down until it does.
        let per_point = (u64::from(k) * u64::from(m) * u64::from(n_max))
            .div_ceil(2)
            .max(1);
        let fits = u32::try_from(WORK_BUDGET / per_point).unwrap_or(u32::MAX);
        count = count.min(fits.saturating_add(1)).max(3);
        ns = sample(n_max, count);
        while count > 3 && work(m, k, &ns) > WORK_BUDGET {
            count -= 1;
            ns = sample(n_max, count);
        }
    }
    if let Some(n) = n {
        ns.push(n);
    }
    ns.sort_unstable();
    ns.dedup();
    let points = ns
        .into_iter()
        .map(|n| {
            let e = estimates(m, k, n);
            Point {
                n: e.n,
                classic: e.classic,
                finite_m: e.finite_m,
                exact: e.exact,
            }
        })
        .collect();
    Series {
        m,
        k,
        n,
        n_max,
        points,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_axis_has_every_n_and_the_marked_one() {
        let s = series(8, 1, Some(3), None, None);
        assert_eq!((s.m, s.k, s.n, s.n_max), (8, 1, Some(3), 24));
        let ns: Vec<u32> = s.points.iter().map(|p| p.n).collect();
        assert_eq!(ns, (0..=24).collect::<Vec<_>>());
        assert_eq!(s.points[0].classic, 0.0);
    }

    #[test]
    fn large_axis_is_sampled_within_budget_and_keeps_n() {
        let s = series(1024, 12, Some(1000), Some(1024), Some(129));
        let ns: Vec<u32> = s.points.iter().map(|p| p.n).collect();
        assert!(ns.contains(&1000) && ns.contains(&0) && ns.contains(&1024));
        assert!(ns.windows(2).all(|w| w[0] < w[1]));
        let without_marked: Vec<u32> = ns.iter().copied().filter(|&n| n != 1000).collect();
        assert!(work(1024, 12, &without_marked) <= WORK_BUDGET);
    }

    #[test]
    fn clamps() {
        let s = series(0, 99, Some(5000), Some(9999), Some(0));
        assert_eq!((s.m, s.k, s.n, s.n_max), (8, 12, Some(1024), 1024));
        assert!(s.points.len() >= 2);
    }
}
