//! The flat k-d tree of world triangles and its box query.
//!
//! The tree is the bounding-interval form of a k-d tree: every inner node
//! splits its triangles along one axis into two children and stores two
//! split values, the largest coordinate reached by the first child's
//! triangles and the smallest reached by the second's. Each triangle is
//! in exactly one leaf, so a query never meets a triangle twice and
//! returns exactly the triangles whose bounding boxes overlap the query
//! box, with no deduplication and no allocation.
//!
//! The first child of an inner node is the next node in the array; the
//! second child's index is stored. A leaf holds a range of `indices`,
//! which index `tris`.

use crate::fx::{Fx1, Vec3};

use super::triangle::Triangle;

/// The deepest tree a [`CollisionWorld`] may hold; the asset compiler
/// never builds deeper, and queries keep a stack of this many entries.
pub const KD_MAX_DEPTH: usize = 32;

const LEAF: u32 = 3;

/// One k-d tree node (12 bytes), built with [`KdNode::inner`] or
/// [`KdNode::leaf`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KdNode {
    /// Bits 0-1: the split axis (0 = x, 1 = y, 2 = z), or 3 for a leaf.
    /// Bits 2-31: an inner node's second child, or a leaf's first
    /// position in `indices`.
    pub meta: u32,
    /// Inner: the largest coordinate along the axis of any triangle under
    /// the first child. Leaf: the triangle count (raw).
    pub a: Fx1,
    /// Inner: the smallest coordinate along the axis of any triangle under
    /// the second child. Leaf: zero.
    pub b: Fx1,
}

impl KdNode {
    /// An inner node splitting along `axis` (0..=2); its first child is
    /// the next node, its second child is `second`.
    #[inline]
    pub const fn inner(axis: u32, first_max: Fx1, second_min: Fx1, second: u32) -> KdNode {
        KdNode {
            meta: (second << 2) | axis,
            a: first_max,
            b: second_min,
        }
    }

    /// A leaf holding `indices[first..first + count]`.
    #[inline]
    pub const fn leaf(first: u32, count: u32) -> KdNode {
        KdNode {
            meta: (first << 2) | LEAF,
            a: Fx1::from_raw(count as i32),
            b: Fx1::ZERO,
        }
    }

    /// True for a leaf.
    #[inline]
    pub const fn is_leaf(&self) -> bool {
        self.meta & 3 == LEAF
    }

    /// The split axis of an inner node.
    #[inline]
    pub const fn axis(&self) -> usize {
        (self.meta & 3) as usize
    }

    /// An inner node's second child, or a leaf's first index position.
    #[inline]
    pub const fn link(&self) -> usize {
        (self.meta >> 2) as usize
    }

    /// A leaf's triangle count.
    #[inline]
    pub const fn count(&self) -> usize {
        self.a.raw() as usize
    }
}

/// A static collision world: the k-d tree, the triangles and the leaves'
/// triangle indices, normally `static` tables emitted by the asset
/// compiler (`assetc::kdtree_build::emit_world_rs`).
#[derive(Clone, Copy, Debug)]
pub struct CollisionWorld<'a> {
    /// The tree; node 0 is the root. Empty means no triangles.
    pub nodes: &'a [KdNode],
    /// The triangles.
    pub tris: &'a [Triangle],
    /// Leaf ranges index this; its entries index `tris`.
    pub indices: &'a [u16],
}

impl<'a> CollisionWorld<'a> {
    /// The world's identity for what ragdolls keep between steps (the
    /// address and count of its triangles): what was found in one world
    /// holds only there. The DS's worlds are statics.
    #[inline]
    pub fn key(&self) -> (usize, usize) {
        (self.tris.as_ptr() as usize, self.tris.len())
    }

    /// Writes the index of every triangle whose bounding box overlaps the
    /// box `[lo, hi]` to `out`, in tree order, as far as it holds, and
    /// returns how many there are (more than `out` holds when it is full).
    #[inline]
    pub fn list_in_box(&self, lo: Vec3, hi: Vec3, out: &mut [u16]) -> usize {
        let mut n = 0usize;
        self.for_each_in_box(lo, hi, |ix| {
            if let Some(slot) = out.get_mut(n) {
                *slot = ix as u16;
            }
            n += 1;
        });
        n
    }

    /// Calls `f` with the index of every triangle whose bounding box
    /// overlaps the box `[lo, hi]` (inclusive), each once, in tree order.
    /// No recursion, no allocation, no products: comparisons only.
    #[inline]
    pub fn for_each_in_box(&self, lo: Vec3, hi: Vec3, mut f: impl FnMut(u32)) {
        if self.nodes.is_empty() {
            return;
        }
        let (lo, hi) = (lo.raw(), hi.raw());
        let mut stack = [0u32; KD_MAX_DEPTH];
        let mut sp = 0usize;
        let mut at = 0usize;
        loop {
            let node = &self.nodes[at];
            if node.is_leaf() {
                let first = node.link();
                for &ix in &self.indices[first..first + node.count()] {
                    if self.tris[ix as usize].overlaps_box(&lo, &hi) {
                        f(ix as u32);
                    }
                }
            } else {
                let k = node.axis();
                let first = lo[k] <= node.a.raw();
                let second = hi[k] >= node.b.raw();
                if first {
                    if second {
                        // Bounded by the depth, which `check` and the
                        // asset compiler keep within KD_MAX_DEPTH.
                        stack[sp] = node.link() as u32;
                        sp += 1;
                    }
                    at += 1;
                    continue;
                } else if second {
                    at = node.link();
                    continue;
                }
            }
            if sp == 0 {
                return;
            }
            sp -= 1;
            at = stack[sp] as usize;
        }
    }

    /// The bounding box of a sphere of radius `r` swept from `p0` to `p1`.
    #[inline]
    pub fn swept_box(p0: Vec3, p1: Vec3, r: Fx1) -> (Vec3, Vec3) {
        let (a, b) = (p0.raw(), p1.raw());
        let r = r.raw();
        let lo = [0, 1, 2].map(|k| a[k].min(b[k]) - r);
        let hi = [0, 1, 2].map(|k| a[k].max(b[k]) + r);
        (
            Vec3::from_raw(lo[0], lo[1], lo[2]),
            Vec3::from_raw(hi[0], hi[1], hi[2]),
        )
    }

    /// Checks the tables: links and ranges in bounds, every triangle in
    /// exactly one leaf, depth at most [`KD_MAX_DEPTH`], split values
    /// covering their children, and each triangle's plane equal to what
    /// [`Triangle::new`] computes from its vertices.
    pub fn check(&self) -> Result<(), &'static str> {
        if self.tris.len() > u16::MAX as usize + 1 {
            return Err("more than 65536 triangles");
        }
        for t in self.tris {
            match Triangle::new(t.v[0], t.v[1], t.v[2]) {
                Ok(n) if n.with_features(t.features) == *t => {}
                _ => return Err("a triangle's plane does not match its vertices"),
            }
        }
        if self.nodes.is_empty() {
            return if self.tris.is_empty() {
                Ok(())
            } else {
                Err("triangles but no nodes")
            };
        }
        let mut seen = 0usize;
        // (node, depth, lo bound along each axis, hi bound along each axis)
        let mut stack = [(0usize, 1usize, [i32::MIN; 3], [i32::MAX; 3]); KD_MAX_DEPTH + 1];
        let mut sp = 1;
        while sp > 0 {
            sp -= 1;
            let (at, depth, lo, hi) = stack[sp];
            if depth > KD_MAX_DEPTH {
                return Err("tree deeper than KD_MAX_DEPTH");
            }
            let node = self.nodes.get(at).ok_or("node index out of range")?;
            if node.is_leaf() {
                let first = node.link();
                let ixs = self
                    .indices
                    .get(first..first + node.count())
                    .ok_or("leaf range out of range")?;
                for &ix in ixs {
                    let t = self
                        .tris
                        .get(ix as usize)
                        .ok_or("triangle index out of range")?;
                    let (tl, th) = t.bounds();
                    let (tl, th) = (tl.raw(), th.raw());
                    if (0..3).any(|k| th[k] > hi[k] || tl[k] < lo[k]) {
                        return Err("a triangle is outside its node's split values");
                    }
                }
                seen += node.count();
            } else {
                let k = node.axis();
                let (mut hi1, mut lo2) = (hi, lo);
                hi1[k] = hi1[k].min(node.a.raw());
                lo2[k] = lo2[k].max(node.b.raw());
                if node.link() <= at {
                    return Err("second child before its parent");
                }
                if sp + 2 > stack.len() {
                    return Err("tree deeper than KD_MAX_DEPTH");
                }
                stack[sp] = (at + 1, depth + 1, lo, hi1);
                stack[sp + 1] = (node.link(), depth + 1, lo2, hi);
                sp += 2;
            }
        }
        if seen != self.indices.len() || seen != self.tris.len() {
            return Err("leaves do not hold every triangle exactly once");
        }
        // Every index once: a bitmap over windows of 4096 triangles (512
        // bytes of stack, fine on the DS too).
        for base in (0..self.tris.len()).step_by(4096) {
            let mut mark = [0u64; 64];
            for &ix in self.indices {
                let ix = ix as usize;
                if ix < base || ix >= base + 4096 {
                    continue;
                }
                let (w, b) = ((ix - base) / 64, (ix - base) % 64);
                if mark[w] & (1 << b) != 0 {
                    return Err("a triangle is in two leaves");
                }
                mark[w] |= 1 << b;
            }
        }
        Ok(())
    }
}
