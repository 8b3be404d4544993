//! What the collision tests share (included with `#[path]`).
#![allow(dead_code)]

use dsphys::collision::{CollisionWorld, KdNode, Triangle};
use dsphys::fx::{Fx1, Vec3};

/// `x` metres in FX1, rounded.
pub fn fx(x: f64) -> Fx1 {
    Fx1::from_raw((x * 4096.0).round() as i32)
}

/// A point in metres.
pub fn p(x: f64, y: f64, z: f64) -> Vec3 {
    Vec3::new(fx(x), fx(y), fx(z))
}

/// All triangles in one leaf (the tree's answer equals brute force).
pub fn one_leaf_world(tris: &[Triangle]) -> CollisionWorld<'static> {
    let tris: &'static [Triangle] = Box::leak(tris.to_vec().into_boxed_slice());
    let nodes: &'static [KdNode] = Box::leak(vec![KdNode::leaf(0, tris.len() as u32)].into());
    let indices: &'static [u16] = Box::leak((0..tris.len() as u16).collect::<Vec<_>>().into());
    CollisionWorld {
        nodes,
        tris,
        indices,
    }
}
