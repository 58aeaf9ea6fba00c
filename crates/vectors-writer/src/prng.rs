//! SplitMix64: a tiny, documented, deterministic pseudo-random generator for the sweep.
//!
//! The state is one `u64`. Each step adds the golden-ratio increment
//! `0x9e3779b97f4a7c15` (mod 2^64) and returns the state mixed by
//! `z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9; z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
//! z ^ (z >> 31)`, all mod 2^64 (Steele, Lea and Flood, "Fast splittable pseudorandom
//! number generators", 2014). It is not cryptographic; it only has to be the same on
//! every run and every platform, which it is: no floating point, no platform word size,
//! no global state.

/// The generator.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (0 when `n` is 0), by rejection so every value is equally
    /// likely.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        // The largest multiple of n that fits: values at or above it are redrawn.
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }

    /// A value in `low..=high` (`low` when `high < low`).
    pub fn range(&mut self, low: u64, high: u64) -> u64 {
        if high < low {
            return low;
        }
        low + self.below(high - low + 1)
    }

    /// A `usize` in `low..=high`.
    pub fn range_usize(&mut self, low: usize, high: usize) -> usize {
        usize::try_from(self.range(low as u64, high as u64)).unwrap_or(low)
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// One element of a non-empty slice (the first when the slice has one element;
    /// `None` when it is empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        let index = usize::try_from(self.below(items.len() as u64)).unwrap_or(0);
        items.get(index)
    }

    /// Random bytes, their count drawn from `low..=high`.
    pub fn bytes_between(&mut self, low: usize, high: usize) -> Vec<u8> {
        let len = self.range_usize(low, high);
        self.bytes(len)
    }

    /// `len` random bytes.
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_outputs() {
        // SplitMix64 from seed 0: the widely published first outputs.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(rng.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn ranges_stay_in_bounds() {
        let mut rng = SplitMix64::new(42);
        for _ in 0..10_000 {
            let x = rng.range(8, 512);
            assert!((8..=512).contains(&x));
        }
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.range(5, 3), 5);
        assert!(rng.pick::<u8>(&[]).is_none());
    }
}
