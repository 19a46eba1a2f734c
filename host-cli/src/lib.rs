//! The evodb host: runs the evodb component under wasmtime. An instance of the `with-store`
//! world sees one preopened directory (the database's) and nothing else: no environment, no
//! arguments, no network, no clock it could use for anything that reaches the file.

use std::path::Path;

use wasmtime::component::{Component, Linker, ResourceTable};
use wasmtime::{Engine, Store};
use wasmtime_wasi::{WasiCtx, WasiCtxBuilder, WasiCtxView, WasiView};

pub mod bindings {
    wasmtime::component::bindgen!({ world: "with-store", path: "../wit" });
}

pub use bindings::exports::evodb::population::population;

/// Where the database directory appears inside the component.
pub const GUEST_DIR: &str = "/db";

/// Per-instance host state: the WASI context (just the preopen) and its resource table.
pub struct State {
    ctx: WasiCtx,
    table: ResourceTable,
}

impl WasiView for State {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.ctx, table: &mut self.table }
    }
}

/// A wasmtime engine and a linker holding WASI p2.
pub struct Host {
    engine: Engine,
    linker: Linker<State>,
}

impl Host {
    pub fn new() -> wasmtime::Result<Host> {
        let engine = Engine::new(&wasmtime::Config::new())?;
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
        Ok(Host { engine, linker })
    }

    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Compiles a component (JIT).
    pub fn compile(&self, bytes: &[u8]) -> wasmtime::Result<Component> {
        Component::new(&self.engine, bytes)
    }

    /// A store whose WASI context preopens `dir` (read-write) at [`GUEST_DIR`], or nothing.
    pub fn store(&self, dir: Option<&Path>) -> wasmtime::Result<Store<State>> {
        let mut builder = WasiCtxBuilder::new();
        if let Some(dir) = dir {
            builder.preopened_dir(dir, GUEST_DIR, wasmtime_wasi::FsPerms::ReadWrite)?;
        }
        Ok(Store::new(&self.engine, State { ctx: builder.build(), table: ResourceTable::new() }))
    }

    /// Instantiates a component of the `with-store` world.
    pub fn instantiate_store(
        &self,
        store: &mut Store<State>,
        component: &Component,
    ) -> wasmtime::Result<bindings::WithStore> {
        bindings::WithStore::instantiate(store, component, &self.linker)
    }

    /// The `population` interface of any component exporting it (the `pure` world's too).
    pub fn instantiate_population(
        &self,
        store: &mut Store<State>,
        component: &Component,
    ) -> wasmtime::Result<population::Guest> {
        let pre = self.linker.instantiate_pre(component)?;
        let indices = population::GuestIndices::new(&pre)?;
        let instance = pre.instantiate(&mut *store)?;
        indices.load(&mut *store, &instance)
    }
}
