//! Counting polygons against the hardware's 2048 per frame: a draw call
//! asks first, and draws only what it was granted.

use crate::hw::gx::MAX_POLYGONS;

#[derive(Clone, Copy, Debug)]
pub struct PolyBudget {
    limit: u32,
    used: u32,
    /// Polygons refused this frame (a character skipped or drawn coarser).
    pub refused: u32,
}

impl PolyBudget {
    pub const fn new() -> Self {
        PolyBudget {
            limit: MAX_POLYGONS,
            used: 0,
            refused: 0,
        }
    }

    /// Takes `n` polygons if they fit; otherwise takes none.
    pub fn take(&mut self, n: u32) -> bool {
        if self.used + n <= self.limit {
            self.used += n;
            true
        } else {
            self.refused += n;
            false
        }
    }

    /// Takes as many of `want` polygons as fit, counting the rest as
    /// refused; returns how many it took.
    pub fn take_up_to(&mut self, want: u32) -> u32 {
        let granted = want.min(self.left());
        self.used += granted;
        self.refused += want - granted;
        granted
    }

    /// Returns polygons taken but not drawn.
    pub fn give_back(&mut self, n: u32) {
        self.used -= n.min(self.used);
    }

    /// Returns `n` polygons taken but then not drawn (their list was
    /// full), counting them as refused.
    pub fn refuse(&mut self, n: u32) {
        self.give_back(n);
        self.refused += n;
    }

    pub fn used(&self) -> u32 {
        self.used
    }

    pub fn left(&self) -> u32 {
        self.limit - self.used
    }
}
