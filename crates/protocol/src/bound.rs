//! [`BoundError`]: a value outside a protocol's bounds, the one error shape of both
//! protocols.

use core::fmt;

/// Which input a bound applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// The number of bits `m`.
    M,
    /// The number of hash indices `k`.
    K,
    /// The seed bytes (`doc-membership-v1` only).
    Seed,
    /// A record or a query item (`doc-membership-v1` only).
    Item,
}

impl Field {
    /// The field's name as the protocol documents spell it: `m`, `k`, `seed`, `item`.
    pub fn name(self) -> &'static str {
        match self {
            Field::M => "m",
            Field::K => "k",
            Field::Seed => "seed",
            Field::Item => "item",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value outside a protocol's bounds: an integer parameter (`m`, `k`) or the length
/// of a byte string (`seed`, `item`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundError {
    /// The input that was out of bounds.
    pub field: Field,
    /// The value that was given (a length in bytes for seed and item).
    pub given: u64,
    /// Smallest allowed value (or length).
    pub min: u32,
    /// Largest allowed value (or length).
    pub max: u32,
}

impl BoundError {
    /// `Ok(given)` when `given` is in `min..=max`, else the error naming `field`.
    pub(crate) fn check(field: Field, given: u64, min: u32, max: u32) -> Result<u64, BoundError> {
        if given < u64::from(min) || given > u64::from(max) {
            return Err(BoundError {
                field,
                given,
                min,
                max,
            });
        }
        Ok(given)
    }
}

impl fmt::Display for BoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field {
            Field::M | Field::K => write!(
                f,
                "{} = {} is out of bounds: must be an integer in {}..={}",
                self.field, self.given, self.min, self.max
            ),
            Field::Seed | Field::Item => write!(
                f,
                "{} is {} bytes long: must be {}..={} bytes",
                self.field, self.given, self.min, self.max
            ),
        }
    }
}

impl std::error::Error for BoundError {}
