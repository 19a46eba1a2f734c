//! Embeds the `with-store` component (built by `wasm/build.sh`) in the `evodb` binary, with its
//! SHA-256, which keys the cache of precompiled machine code.

use std::path::PathBuf;
use std::{env, fs};

use sha2::{Digest, Sha256};

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let component = manifest.join("../wasm/dist/evodb-store.wasm");
    println!("cargo:rerun-if-changed={}", component.display());
    // `evodb view` embeds the playground and the wasm-bindgen `web` package.
    println!("cargo:rerun-if-changed={}", manifest.join("../www").display());
    println!("cargo:rerun-if-changed={}", manifest.join("../wasm/pkg/web").display());
    let bytes = fs::read(&component).unwrap_or_else(|e| {
        panic!(
            "\n\nevodb embeds the store component, but `{}` cannot be read ({e}).\n\
             Build it first: wasm/build.sh\n\n",
            component.display()
        )
    });
    let digest: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    let path = component.canonicalize().expect("the component exists");
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("component.rs");
    fs::write(
        out,
        format!(
            "/// The `with-store` component (`wasm/dist/evodb-store.wasm`).\n\
             pub const COMPONENT: &[u8] = include_bytes!({path:?});\n\
             /// SHA-256 of [`COMPONENT`], hex.\n\
             pub const COMPONENT_SHA256: &str = {digest:?};\n"
        ),
    )
    .expect("OUT_DIR is writable");
}
