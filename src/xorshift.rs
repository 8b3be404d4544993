//! Marsaglia's xorshift32: the one pseudo-random source of the engine's
//! deterministic workloads (the FX self-test, the precision benchmark,
//! the soak), the same bits on the host and the DS.

/// A xorshift32 generator. Its state is never zero (xorshift's fixed
/// point).
pub struct XorShift32(u32);

impl XorShift32 {
    /// From `seed` as the state; zero becomes a fixed non-zero constant.
    pub fn new(seed: u32) -> XorShift32 {
        XorShift32(if seed == 0 { 0x9E37_79B9 } else { seed })
    }

    /// From a small seed (0, 1, 2...) spread over the state by Knuth's
    /// multiplicative hash, made odd so that it is never zero.
    pub fn spread(seed: u32) -> XorShift32 {
        XorShift32(seed.wrapping_mul(2_654_435_761) | 1)
    }

    /// The next 32 bits.
    pub fn next_u32(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }

    /// Uniform in `0..n` (the high bits of a 64-bit product).
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.next_u32() as u64 * n as u64) >> 32) as u32
    }

    /// In `-max..=max` (by remainder: slightly biased, as the soak wants
    /// nothing better).
    pub fn signed(&mut self, max: i32) -> i32 {
        (self.next_u32() % (2 * max as u32 + 1)) as i32 - max
    }
}
