// The peer in `cli_bench`: the same `sample` / `add` through the wasm-bindgen npm package,
// one Node process per call (read database.json, operate, write it back atomically).
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Database } from "evodb";

const [command, dir, request] = process.argv.slice(2);
const file = join(dir, "database.json");
const db = Database.fromJson(readFileSync(file, "utf8"));
const result = command === "add" ? db.add(JSON.parse(request), Date.now() / 1000) : db.sample();
writeFileSync(`${file}.tmp`, db.toJson());
renameSync(`${file}.tmp`, file);
console.log(JSON.stringify(result));
