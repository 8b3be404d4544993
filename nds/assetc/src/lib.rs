//! The build-time asset compiler. It reads the source assets in `assets/`
//! (formats a user's tools export), validates them, and emits Rust source
//! with `static` tables of engine types for the ROM to include. A bad asset
//! is an error that names the file and the field.

pub mod kdtree_build;
pub mod obj;
pub mod ragdoll_def;
