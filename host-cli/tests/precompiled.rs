//! The machine code built into the binary: it loads without a compiler (there is none in the
//! binary) and names what it embeds.

use evodb_host::{DirectoryFiles, Host, embedded};

#[test]
fn the_built_in_machine_code_loads_and_runs() {
    let host = Host::new().unwrap();
    let component = host.load_embedded().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut store = host.store(DirectoryFiles::read_write(dir.path(), dir.path()));
    let bindings = host.instantiate_store(&mut store, &component).unwrap();
    let loaded = bindings.evodb_population_store().call_load(&mut store).unwrap().unwrap();
    assert!(loaded.is_none(), "an empty directory holds no database");
}

#[test]
fn the_version_names_the_component_it_embeds() {
    assert_eq!(embedded::COMPONENT_SHA256.len(), 64);
    assert!(embedded::WASMTIME_VERSION.starts_with("48."), "{}", embedded::WASMTIME_VERSION);
    // The machine code is wasmtime's ELF container, not the component again.
    assert_eq!(&embedded::MACHINE_CODE[..4], b"\x7fELF");
    assert_eq!(&embedded::COMPONENT[..4], b"\0asm");
}

#[test]
fn components_loaded_side_by_side_run_after_either_is_dropped() {
    // The first load of a process uses the machine code where it lies in the binary; the others
    // copy it. Dropping one must not take the code away from the rest.
    let load = || {
        let host = Host::new().unwrap();
        let component = host.load_embedded().unwrap();
        (host, component)
    };
    let mut loaded: Vec<_> = (0..3).map(|_| load()).collect();
    for _ in 0..3 {
        for (host, component) in &loaded {
            let dir = tempfile::tempdir().unwrap();
            let mut store = host.store(DirectoryFiles::read_write(dir.path(), dir.path()));
            let bindings = host.instantiate_store(&mut store, component).unwrap();
            let db = bindings.evodb_population_population().database();
            let created = db.call_create(&mut store, "{}", 1).unwrap().unwrap();
            assert!(db.call_best(&mut store, created).unwrap().is_none());
        }
        loaded.remove(0);
        loaded.push(load());
    }
}
