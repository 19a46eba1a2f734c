//! The cache of precompiled machine code: compiled once, then loaded; keyed by the component.

use evodb_host::precompiled::{Origin, entry_path, load};
use evodb_host::{Host, embedded};

#[test]
fn the_second_load_comes_from_the_cache_and_a_new_component_gets_a_new_entry() {
    let host = Host::new().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let (_, first) = load(&host, embedded::COMPONENT, embedded::COMPONENT_SHA256, Some(cache.path())).unwrap();
    let entry = entry_path(&host, cache.path(), embedded::COMPONENT_SHA256);
    assert_eq!(first, Origin::Compiled(Some(entry.clone())));
    let (_, second) = load(&host, embedded::COMPONENT, embedded::COMPONENT_SHA256, Some(cache.path())).unwrap();
    assert_eq!(second, Origin::Cached(entry.clone()));

    assert_ne!(entry_path(&host, cache.path(), "another component"), entry);
    let (_, jit) = load(&host, embedded::COMPONENT, embedded::COMPONENT_SHA256, None).unwrap();
    assert_eq!(jit, Origin::Jit);
}
