//! A host model of the DS geometry engine's matrix unit (issue 24), so
//! that a skinning palette built in the engine's matrix stack can be
//! predicted bit for bit on the host.
//!
//! The engine multiplies row vectors (`v' = v M`), holds 4x4 matrices of
//! 20.12 words, and computes each entry of a product as the full sum of
//! its four 20.12 products shifted right by 12: floor rounding, no
//! saturation, the result cut to 32 bits (GBATEK, "DS 3D Matrix Load/
//! Multiply"; melonDS and DeSmuME do exactly this, NDS-FACTS). The
//! in-ROM test `gx_matrix_unit_matches_model` reads products back from
//! CLIPMTX_RESULT in both emulators and compares them with this model.

use crate::xorshift::XorShift32;

use super::gx_palette::PaletteOp;

/// A matrix as the geometry engine holds it: `m[row][col]`, 20.12.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GxMatrix(pub [[i32; 4]; 4]);

impl GxMatrix {
    pub const IDENTITY: GxMatrix = GxMatrix([
        [4096, 0, 0, 0],
        [0, 4096, 0, 0],
        [0, 0, 4096, 0],
        [0, 0, 0, 4096],
    ]);

    /// The matrix MTX_LOAD_4x3 or MTX_MULT_4x3 makes of its 12 words
    /// (command order: three per row, rows 0-3), the fourth column
    /// `(0, 0, 0, 1)`.
    pub fn from_4x3(w: &[i32; 12]) -> GxMatrix {
        let mut m = [[0; 4]; 4];
        for (r, row) in m.iter_mut().enumerate() {
            row[..3].copy_from_slice(&w[3 * r..3 * r + 3]);
        }
        m[3][3] = 4096;
        GxMatrix(m)
    }

    /// `a b` as the engine computes it (MTX_MULT makes the current
    /// matrix `C` into `M C`; the clip matrix is `position projection`).
    pub fn mul(a: &GxMatrix, b: &GxMatrix) -> GxMatrix {
        let mut out = [[0; 4]; 4];
        for (i, row) in out.iter_mut().enumerate() {
            for (j, e) in row.iter_mut().enumerate() {
                // The sum wraps in 64 bits, then floors to 20.12.
                let sum = (0..4).fold(0i64, |s, k| {
                    s.wrapping_add(a.0[i][k] as i64 * b.0[k][j] as i64)
                });
                *e = (sum >> 12) as i32;
            }
        }
        GxMatrix(out)
    }

    /// The 16 words in CLIPMTX_RESULT's order (row by row).
    pub fn words(&self) -> [i32; 16] {
        let mut w = [0; 16];
        for (r, row) in self.0.iter().enumerate() {
            w[4 * r..4 * r + 4].copy_from_slice(row);
        }
        w
    }
}

/// Slots of the position matrix stack that MTX_STORE and MTX_RESTORE
/// address (GBATEK "DS 3D Matrix Stack": 0-30; 31 only raises the
/// stack's error flag).
pub const STACK_SLOTS: usize = 31;

/// The current position matrix and the stack's slots, as MTX_STORE,
/// MTX_RESTORE and MTX_MULT_4x3 use them (in `PositionVector` mode the
/// direction matrix follows along; it is not modelled). PUSH and POP
/// move a pointer over the same slots; the palette does not use them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GxStack {
    /// The current matrix.
    pub current: GxMatrix,
    slots: [GxMatrix; STACK_SLOTS],
}

impl GxStack {
    /// `current` current, every slot the identity.
    pub const fn new(current: GxMatrix) -> Self {
        GxStack {
            current,
            slots: [GxMatrix::IDENTITY; STACK_SLOTS],
        }
    }

    /// MTX_STORE: slot `slot` (below [`STACK_SLOTS`]) takes the current
    /// matrix, which stays current.
    pub fn store(&mut self, slot: usize) {
        self.slots[slot] = self.current;
    }

    /// MTX_RESTORE: slot `slot` becomes current (the slot keeps it).
    pub fn restore(&mut self, slot: usize) {
        self.current = self.slots[slot];
    }

    /// MTX_MULT_4x3: the current matrix `C` becomes `M C`.
    pub fn mult_4x3(&mut self, w: &[i32; 12]) {
        self.current = GxMatrix::mul(&GxMatrix::from_4x3(w), &self.current);
    }

    /// Slot `slot`.
    pub fn slot(&self, slot: usize) -> &GxMatrix {
        &self.slots[slot]
    }
}

impl GxStack {
    /// Runs one palette command ([`super::gx_palette::palette_ops`]).
    pub fn apply(&mut self, op: PaletteOp) {
        match op {
            PaletteOp::Store(slot) => self.store(slot as usize),
            PaletteOp::Restore(slot) => self.restore(slot as usize),
            PaletteOp::Mult(w) => self.mult_4x3(w),
            PaletteOp::MultShifted(m, shift) => {
                self.mult_4x3(&super::gx_palette::words_shifted(m, shift))
            }
        }
    }
}

/// The random products of the in-ROM test, the same on host and DS:
/// three 4x3 parameter sets (A loaded, then B and C multiplied). A's
/// words are below 2^20 in magnitude (a translation up to 256 m), B's and
/// C's below 2^14 (rotations with a scale up to 4), so that no entry
/// leaves 32 bits: `B A` below 4 2^14 2^20 / 2^12 = 2^24, `C B A` below
/// 2^28.
pub struct ProductCase {
    pub a: [i32; 12],
    pub b: [i32; 12],
    pub c: [i32; 12],
}

impl ProductCase {
    /// The next case from `rng`.
    pub fn next(rng: &mut XorShift32) -> ProductCase {
        let mut words = |bits: u32| {
            let mut w = [0i32; 12];
            for x in &mut w {
                // Signed, below 2^(bits - 1) in magnitude.
                *x = (rng.next_u32() as i32) >> (33 - bits);
            }
            w
        };
        let a = words(21);
        let b = words(15);
        let c = words(15);
        ProductCase { a, b, c }
    }

    /// The clip matrix the engine holds after loading A, multiplying by B
    /// then C, with the identity projection: `C B A`.
    pub fn expected(&self) -> GxMatrix {
        let mut m = GxMatrix::from_4x3(&self.a);
        for p in [&self.b, &self.c] {
            m = GxMatrix::mul(&GxMatrix::from_4x3(p), &m);
        }
        GxMatrix::mul(&m, &GxMatrix::IDENTITY)
    }
}

/// Folds a matrix into a running FNV-1a hash (for the test's summary).
pub fn hash_words(h: u32, m: &GxMatrix) -> u32 {
    m.words()
        .iter()
        .fold(h, |h, &w| (h ^ w as u32).wrapping_mul(0x0100_0193))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn products_floor_and_keep_the_identity() {
        let m = ProductCase::next(&mut XorShift32::new(7)).expected();
        assert_eq!(GxMatrix::mul(&GxMatrix::IDENTITY, &m), m);
        assert_eq!(GxMatrix::mul(&m, &GxMatrix::IDENTITY), m);
        // -1/4096 of a step: floor gives -1 raw, truncation would give 0.
        let mut a = GxMatrix::IDENTITY;
        a.0[0][0] = -1;
        let mut b = GxMatrix::IDENTITY;
        b.0[0][0] = 1;
        assert_eq!(GxMatrix::mul(&a, &b).0[0][0], -1);
        assert_eq!(GxMatrix::mul(&b, &b).0[0][0], 0);
    }

    #[test]
    fn store_and_restore_copy_and_mult_multiplies_on_the_left() {
        let mut rng = XorShift32::new(24);
        let camera = GxMatrix::from_4x3(&ProductCase::next(&mut rng).a);
        let w = ProductCase::next(&mut rng).b;
        let mut stack = GxStack::new(camera);
        stack.apply(PaletteOp::Store(30));
        stack.apply(PaletteOp::Mult(&w));
        let product = GxMatrix::mul(&GxMatrix::from_4x3(&w), &camera);
        assert_eq!(stack.current, product);
        stack.apply(PaletteOp::Store(3));
        stack.apply(PaletteOp::Restore(30));
        assert_eq!(stack.current, camera);
        // A restore is a copy: the slot still holds it afterwards.
        stack.apply(PaletteOp::Restore(3));
        stack.apply(PaletteOp::Mult(&w));
        assert_eq!(*stack.slot(3), product);
        assert_eq!(*stack.slot(4), GxMatrix::IDENTITY);
    }

    #[test]
    fn the_test_products_stay_in_range() {
        let mut rng = XorShift32::new(1);
        for _ in 0..2000 {
            let c = ProductCase::next(&mut rng);
            let m = c.expected();
            assert!(m.0.iter().flatten().all(|&e| e.unsigned_abs() < 1 << 28));
            assert!(c.a.iter().all(|&w| w.unsigned_abs() < 1 << 20));
            assert!(c.b.iter().chain(&c.c).all(|&w| w.unsigned_abs() < 1 << 14));
        }
    }
}
