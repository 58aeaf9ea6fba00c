//! The accumulated checks' input stream (`spec/README.md`, "Accumulated checks"): the
//! bytes every protocol draws its accumulated inputs from, and the helpers that lay
//! its positions out as bytes. A leaf: it knows no protocol, no run.

/// The generator's name, and the first bytes of every stream block's hashed input.
pub const GENERATOR: &str = "bloomproof accumulated v1";

/// The SHA-256 counter stream: block `i` is `SHA-256(GENERATOR || protocol ||
/// u64_be(i))`, the blocks read one after the other.
pub struct Stream {
    prefix: Vec<u8>,
    counter: u64,
    block: [u8; 32],
    used: usize,
    sha256: fn(&[u8]) -> [u8; 32],
}

impl Stream {
    pub(crate) fn new(protocol: &str, sha256: fn(&[u8]) -> [u8; 32]) -> Self {
        let mut prefix = GENERATOR.as_bytes().to_vec();
        prefix.extend_from_slice(protocol.as_bytes());
        Stream {
            prefix,
            counter: 0,
            block: [0; 32],
            used: 32,
            sha256,
        }
    }

    /// The next byte.
    pub fn byte(&mut self) -> u8 {
        if self.used == 32 {
            let mut input = self.prefix.clone();
            input.extend_from_slice(&self.counter.to_be_bytes());
            self.block = (self.sha256)(&input);
            self.counter += 1;
            self.used = 0;
        }
        let b = self.block[self.used];
        self.used += 1;
        b
    }

    /// The next two bytes, big-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_be_bytes([self.byte(), self.byte()])
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.byte()).collect()
    }
}

/// A position is below m <= 1024: its low 16 bits are the position.
pub fn low_16(p: u32) -> u16 {
    (p & 0xFFFF) as u16
}

/// `positions` as the stream's bytes (each big-endian), when they are `k` positions each
/// below `m`.
pub fn positions_bytes(positions: &[u16], m: u16, k: u8) -> Result<Vec<u8>, String> {
    if positions.len() != usize::from(k) || positions.iter().any(|&p| p >= m) {
        Err(format!(
            "positions {positions:?}: not {k} positions each below m = {m}"
        ))
    } else {
        Ok(positions.iter().flat_map(|p| p.to_be_bytes()).collect())
    }
}
