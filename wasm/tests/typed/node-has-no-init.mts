// Must not compile: Node's typings have no `initSync` (Node loads the wasm itself).
import { initSync } from "evodb";

initSync(new Uint8Array(0));
