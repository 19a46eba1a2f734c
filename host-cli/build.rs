//! Builds what the `evodb` binary embeds, so that `cargo build`, `cargo test` and
//! `cargo install --path host-cli` need no script first:
//!
//! 1. the `with-store` component: a nested `cargo build` of `evodb-component` for
//!    wasm32-unknown-unknown (profile `wasm-store`) into this build's own target directory, the
//!    way `substrate-wasm-builder` builds a runtime (it installs the target through rustup when it
//!    is missing), made a component by `wit-component` (what `jco new` does for the pure one);
//! 2. its machine code: precompiled here by wasmtime with the runtime's engine settings
//!    (`src/engine_config.rs`) for the target's baseline CPU, so no call of the binary compiles
//!    anything and nothing is cached on disk;
//! 3. their identities: the component's SHA-256 and the wasmtime version, for `evodb --version`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

use sha2::{Digest, Sha256};

#[path = "src/engine_config.rs"]
mod engine_config;

const COMPONENT_TARGET: &str = "wasm32-unknown-unknown";
const COMPONENT_PROFILE: &str = "wasm-store";

fn main() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let workspace = manifest.parent().expect("host-cli lives in the workspace").to_path_buf();
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for input in ["core/src", "core/Cargo.toml", "wasm/component", "wit", "Cargo.toml", "Cargo.lock", "www", "skill"] {
        println!("cargo:rerun-if-changed={}", workspace.join(input).display());
    }

    let module = build_component(&workspace, &out);
    let module = fs::read(&module).unwrap_or_else(|e| fail(&format!("cannot read `{}`: {e}", module.display())));
    let bytes = componentize(&module);
    let machine_code = precompile(&bytes);
    fs::write(out.join("evodb-store.cwasm"), machine_code).expect("OUT_DIR is writable");
    fs::write(out.join("evodb-store.wasm"), &bytes).expect("OUT_DIR is writable");

    let digest: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=EVODB_COMPONENT_SHA256={digest}");
    let wasmtime = wasmtime_version(&workspace);
    println!("cargo:rustc-env=EVODB_WASMTIME_VERSION={wasmtime}");
    let evodb = env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    println!("cargo:rustc-env=EVODB_LONG_VERSION={evodb} (wasmtime {wasmtime}, component sha256:{digest})");
}

/// Runs the nested cargo and returns the core module it wrote.
fn build_component(workspace: &Path, out: &Path) -> PathBuf {
    ensure_target_installed();
    // OUT_DIR is `<target dir>[/<triple>]/<profile>/build/<pkg>-<hash>/out`; the module goes to
    // `<target dir>/wasm32-unknown-unknown/wasm-store/`, where `wasm/build.sh` builds the same one.
    // Its lock files live under other profile directories than ours, so the nested cargo does not
    // wait for this one.
    let target_dir = outer_target_dir(out);
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(workspace)
        .args(["build", "-p", "evodb-component", "--features", "store", "--target", COMPONENT_TARGET])
        .args(["--profile", COMPONENT_PROFILE, "--target-dir"])
        .arg(&target_dir)
        // Cargo reads a build script's stdout for directives: the nested build talks on stderr.
        .stdout(std::io::stderr());
    // The outer build's wrappers and flags are for the host: clippy's driver, a host-only
    // `-C target-cpu`, or coverage flags must not reach the wasm build.
    for var in ["RUSTC_WORKSPACE_WRAPPER", "RUSTC_WRAPPER", "RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_TARGET_DIR"]
    {
        command.env_remove(var);
    }
    let status = command.status().unwrap_or_else(|e| fail(&format!("cannot run cargo: {e}")));
    if !status.success() {
        fail(
            "the nested `cargo build -p evodb-component --features store --target wasm32-unknown-unknown` failed (its output is above)",
        );
    }
    target_dir.join(COMPONENT_TARGET).join(COMPONENT_PROFILE).join("evodb_component.wasm")
}

fn outer_target_dir(out: &Path) -> PathBuf {
    // out → <pkg>-<hash> → build → <profile> → <target dir>, or → <triple> → <target dir> when
    // cargo was given `--target`.
    let profile_dir = out.ancestors().nth(3).expect("OUT_DIR has the layout cargo documents");
    let above = profile_dir.parent().expect("the profile directory has a parent");
    let triple = env::var("TARGET").unwrap_or_default();
    match above.file_name() == Some(triple.as_ref()) {
        true => above.parent().expect("a --target build nests under the target directory").to_path_buf(),
        false => above.to_path_buf(),
    }
}

/// The wasm32-unknown-unknown standard library must be installed; rustup adds it when it can.
fn ensure_target_installed() {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let libdir = Command::new(&rustc).args(["--print", "target-libdir", "--target", COMPONENT_TARGET]).output();
    let libdir =
        libdir.ok().filter(|o| o.status.success()).map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    if libdir.is_some_and(|dir| fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some())) {
        return;
    }
    println!(
        "cargo:warning=installing the {COMPONENT_TARGET} target with rustup (evodb embeds a component built for it)"
    );
    let added = Command::new("rustup").args(["target", "add", COMPONENT_TARGET]).status();
    if !added.is_ok_and(|s| s.success()) {
        fail(&format!(
            "evodb embeds a WebAssembly component built for {COMPONENT_TARGET}, whose standard library is not installed; \
             run `rustup target add {COMPONENT_TARGET}`"
        ));
    }
}

/// The core module as a component: wit-bindgen embedded the world's types in it.
fn componentize(module: &[u8]) -> Vec<u8> {
    let mut encoder = wit_component::ComponentEncoder::default();
    let encoded = encoder.module(module).and_then(|e| e.validate(true).encode());
    encoded.unwrap_or_else(|e| fail(&format!("cannot make the store module a component: {e:#}")))
}

/// The component as machine code for the target's baseline CPU: it loads on any machine of the
/// architecture (wasmtime accepts code that uses fewer CPU features than the host has).
fn precompile(component: &[u8]) -> Vec<u8> {
    let target = env::var("TARGET").expect("cargo sets TARGET");
    let mut config = engine_config::engine_config();
    config.target(&target).unwrap_or_else(|e| fail(&format!("wasmtime cannot compile for {target}: {e}")));
    let engine = wasmtime::Engine::new(&config).unwrap_or_else(|e| fail(&format!("wasmtime engine: {e}")));
    engine.precompile_component(component).unwrap_or_else(|e| fail(&format!("cannot precompile the component: {e}")))
}

/// wasmtime's version as Cargo.lock resolved it.
fn wasmtime_version(workspace: &Path) -> String {
    let lock = fs::read_to_string(workspace.join("Cargo.lock")).unwrap_or_default();
    lock.split("[[package]]")
        .find(|entry| entry.contains("\nname = \"wasmtime\"\n"))
        .and_then(|entry| {
            entry.lines().find_map(|l| l.strip_prefix("version = \"")?.strip_suffix('"').map(str::to_owned))
        })
        .unwrap_or_else(|| "unknown".to_owned())
}

fn fail(message: &str) -> ! {
    panic!("\n\nevodb-host build: {message}\n\n")
}
