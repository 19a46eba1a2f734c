// The web typings, as a bundler resolves the package: `init`/`initSync` and the same classes.
import init, { Database, initSync, type InitOutput, type Sample } from "evodb";

const output: InitOutput = await init();
const again: InitOutput = initSync({ module: new WebAssembly.Module(new Uint8Array(0)) });
const db = new Database({ numIslands: 3 }, 7);
const sample: Sample = db.sample();
console.log(output.memory === again.memory, sample.parent?.id);
