//! The build-time asset compiler. It reads the source assets in `assets/`
//! (formats a user's tools export), validates them, and emits Rust source
//! with `static` tables of engine types for the ROM to include. A bad asset
//! is an error that names the file and the field.

pub mod brads;
pub mod gltf;
pub mod gltf_base64;
pub mod gltf_emit;
pub mod gltf_gx;
pub mod gltf_math;
pub mod gltf_mesh;
pub mod gltf_write;
pub mod kdtree_build;
pub mod obj;
pub mod ragdoll_def;
