//! SHA-256 written from FIPS 180-4 (Secure Hash Standard, August 2015),
//! sections 4.1.2 (functions), 4.2.2 (constants), 5.1.1 (padding),
//! 5.3.3 (initial hash value) and 6.2.2 (hash computation).
//!
//! It is a plain transcription of the standard, processing one 512-bit block
//! at a time; it is not optimised and must not be used where speed or
//! constant-time behaviour matters. All additions are modulo 2^32, written
//! with `wrapping_add` so that they can never panic.

use crate::hex;

/// FIPS 180-4 section 4.2.2: the first 32 bits of the fractional parts of the
/// cube roots of the first sixty-four prime numbers.
const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/// FIPS 180-4 section 5.3.3: the initial hash value H(0), the first 32 bits
/// of the fractional parts of the square roots of the first eight primes.
const H0: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// Ch(x, y, z) = (x AND y) XOR (NOT x AND z)  (4.2)
fn ch(x: u32, y: u32, z: u32) -> u32 {
    (x & y) ^ (!x & z)
}

/// Maj(x, y, z) = (x AND y) XOR (x AND z) XOR (y AND z)  (4.3)
fn maj(x: u32, y: u32, z: u32) -> u32 {
    (x & y) ^ (x & z) ^ (y & z)
}

/// Σ0(x) = ROTR^2(x) XOR ROTR^13(x) XOR ROTR^22(x)  (4.4)
fn big_sigma0(x: u32) -> u32 {
    x.rotate_right(2) ^ x.rotate_right(13) ^ x.rotate_right(22)
}

/// Σ1(x) = ROTR^6(x) XOR ROTR^11(x) XOR ROTR^25(x)  (4.5)
fn big_sigma1(x: u32) -> u32 {
    x.rotate_right(6) ^ x.rotate_right(11) ^ x.rotate_right(25)
}

/// σ0(x) = ROTR^7(x) XOR ROTR^18(x) XOR SHR^3(x)  (4.6)
fn small_sigma0(x: u32) -> u32 {
    x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3)
}

/// σ1(x) = ROTR^17(x) XOR ROTR^19(x) XOR SHR^10(x)  (4.7)
fn small_sigma1(x: u32) -> u32 {
    x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10)
}

/// Section 5.1.1: append the bit "1" (the byte 0x80), then zero bytes until
/// the length is 56 modulo 64, then the message length in bits as a 64-bit
/// big-endian integer. The result is a whole number of 64-byte blocks.
fn pad(data: &[u8]) -> Vec<u8> {
    // The standard limits messages to fewer than 2^64 bits; a slice in memory
    // is always far below that, and the multiplication wraps rather than
    // panicking in any case.
    let bit_length = (data.len() as u64).wrapping_mul(8);
    // The zero bytes: as many as take the length past the 0x80 to 56 modulo 64.
    let zeros = (64 + 55 - data.len() % 64) % 64;
    let mut padded = Vec::with_capacity(data.len() + 1 + zeros + 8);
    padded.extend_from_slice(data);
    padded.push(0x80);
    padded.resize(padded.len() + zeros, 0x00);
    padded.extend_from_slice(&bit_length.to_be_bytes());
    padded
}

/// Section 6.2.2: process one 64-byte block, updating the hash value `h`.
fn compress(h: &mut [u32; 8], block: &[u8]) {
    // Step 1: prepare the message schedule W0..W63.
    let mut w = [0u32; 64];
    for t in 0..16 {
        w[t] = u32::from_be_bytes([
            block[4 * t],
            block[4 * t + 1],
            block[4 * t + 2],
            block[4 * t + 3],
        ]);
    }
    for t in 16..64 {
        w[t] = small_sigma1(w[t - 2])
            .wrapping_add(w[t - 7])
            .wrapping_add(small_sigma0(w[t - 15]))
            .wrapping_add(w[t - 16]);
    }

    // Step 2: initialise the eight working variables.
    let mut a = h[0];
    let mut b = h[1];
    let mut c = h[2];
    let mut d = h[3];
    let mut e = h[4];
    let mut f = h[5];
    let mut g = h[6];
    let mut hh = h[7];

    // Step 3: sixty-four rounds.
    for t in 0..64 {
        let t1 = hh
            .wrapping_add(big_sigma1(e))
            .wrapping_add(ch(e, f, g))
            .wrapping_add(K[t])
            .wrapping_add(w[t]);
        let t2 = big_sigma0(a).wrapping_add(maj(a, b, c));
        hh = g;
        g = f;
        f = e;
        e = d.wrapping_add(t1);
        d = c;
        c = b;
        b = a;
        a = t1.wrapping_add(t2);
    }

    // Step 4: the intermediate hash value.
    h[0] = h[0].wrapping_add(a);
    h[1] = h[1].wrapping_add(b);
    h[2] = h[2].wrapping_add(c);
    h[3] = h[3].wrapping_add(d);
    h[4] = h[4].wrapping_add(e);
    h[5] = h[5].wrapping_add(f);
    h[6] = h[6].wrapping_add(g);
    h[7] = h[7].wrapping_add(hh);
}

/// The SHA-256 digest of `data`: 32 bytes, the eight words of the final hash
/// value written big-endian one after the other.
pub fn digest(data: &[u8]) -> [u8; 32] {
    let mut h = H0;
    for block in pad(data).chunks_exact(64) {
        compress(&mut h, block);
    }
    let mut out = [0u8; 32];
    for (i, word) in h.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// The SHA-256 digest of `data` as 64 lowercase hex digits.
pub fn hex_digest(data: &[u8]) -> String {
    hex::encode(&digest(data))
}

/// A SHA-256 fed in pieces: the digest of everything given to [`Hasher::update`],
/// in order, as [`digest`] of it all at once. It keeps at most one block of input,
/// whatever the length (the accumulated checks feed it millions of outputs).
#[derive(Clone, Debug)]
pub struct Hasher {
    h: [u32; 8],
    pending: Vec<u8>,
    length: u64,
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher {
            h: H0,
            pending: Vec::with_capacity(64),
            length: 0,
        }
    }
}

impl Hasher {
    /// A hasher that has seen nothing.
    pub fn new() -> Self {
        Hasher::default()
    }

    /// Feeds `data`.
    pub fn update(&mut self, data: &[u8]) {
        self.length = self.length.wrapping_add(data.len() as u64);
        let mut rest = data;
        while !rest.is_empty() {
            // Fill the pending block as far as `rest` goes, and compress it once full.
            let take = (64 - self.pending.len()).min(rest.len());
            let (now, later) = rest.split_at(take);
            self.pending.extend_from_slice(now);
            rest = later;
            if self.pending.len() == 64 {
                compress(&mut self.h, &self.pending);
                self.pending.clear();
            }
        }
    }

    /// The digest of everything fed: the padding of FIPS 180-4 section 5.1.1 over
    /// the total length, then the last blocks.
    pub fn finish(mut self) -> [u8; 32] {
        let bits = self.length.wrapping_mul(8);
        let mut tail = std::mem::take(&mut self.pending);
        tail.push(0x80);
        while tail.len() % 64 != 56 {
            tail.push(0);
        }
        tail.extend_from_slice(&bits.to_be_bytes());
        for block in tail.chunks_exact(64) {
            compress(&mut self.h, block);
        }
        let mut out = [0u8; 32];
        for (i, word) in self.h.iter().enumerate() {
            out[4 * i..4 * i + 4].copy_from_slice(&word.to_be_bytes());
        }
        out
    }
}
