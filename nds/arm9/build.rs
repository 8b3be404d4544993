//! Links with the workspace's linker.ld.
fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = root
        .join("linker.ld")
        .canonicalize()
        .expect("linker.ld at the workspace root");
    println!("cargo:rustc-link-arg-bins=-T{}", script.display());
    println!("cargo:rerun-if-changed={}", script.display());
}
