//! What the collision tests share (included with `#[path]`).
#![allow(dead_code)]

use dsphys::collision::{CollisionWorld, KdNode, Triangle};

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
