// The bad-input catalogue's cases from the hostile review (each named after what it found) and
// the Node drop-in's own: what a Node process meets that a Rust one does not (argv decoded
// lossily, synchronous reads that block signals, lone surrogates that JSON.parse lets through).
// The format is described in bad-input.test.mjs.
import fs from "node:fs";
import path from "node:path";
import { addWith, appendDb, appendHistory, besideDb, big, directoryIn, editDb, fifoIn, mkfifo, socket, writeDb } from "./bad-input-setup.mjs";

const U64_MAX = "18446744073709551615";
const fifoBeside = (name) => (db) => mkfifo(path.join(db, "..", name));
const metricsNamed = (count) => JSON.stringify(Object.fromEntries(Array.from({ length: count }, (_, i) => [`m${i}`, 1])));
/** Native evodb blocks opening a FIFO inside the sandbox (reported); these run on Node only. */

export const HOSTILE_CASES = [
  // --- one JSON value per file ---
  { name: "trailing garbage after database.json", setup: appendDb("garbage"), args: addWith(), code: 1, stderr: /trailing content after the JSON value/ },
  { name: "a NUL byte after database.json", setup: appendDb("\0"), args: ["sample", "{db}"], code: 1, stderr: /trailing content/ },
  { name: "a second object after database.json", setup: appendDb("{}"), args: ["validate", "{db}"], code: 1, stderr: /trailing content/ },
  { name: "a stray bracket after database.json", setup: appendDb("\n]"), args: ["best", "{db}"], code: 1, stderr: /trailing content/ },
  { name: "a byte-order mark before database.json", setup: (db) => writeDb(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), fs.readFileSync(path.join(db, "database.json"))]))(db), args: ["info", "{db}"], code: 1, stderr: /corrupt database/ },
  { name: "100,000 nested arrays as database.json", setup: writeDb("[".repeat(100_000)), args: ["info", "{db}"], code: 1, stderr: /corrupt database/ },
  { name: "database.json is null", setup: writeDb("null"), args: ["info", "{db}"], code: 1, stderr: /corrupt database: not a database\.json/ },
  { name: "database.json in UTF-16", setup: writeDb(Buffer.from("\ufeff{}", "utf16le")), args: ["info", "{db}"], code: 1, stderr: /not UTF-8 text/ },
  { name: "programs an array", setup: editDb((v) => (v.programs = [])), args: ["info", "{db}"], code: 1, stderr: /`programs`/ },
  // --- counters: refused above 2^53-1, never wrapped ---
  { name: "lastIteration of 2^64-1 does not wrap", setup: editDb((v) => (v.lastIteration = big(U64_MAX))), args: addWith(), code: 1, stderr: /`lastIteration` is 18446744073709551615, above 2\^53/ },
  { name: "lastIteration above 2^53 is refused on load", setup: editDb((v) => (v.lastIteration = big("9007199254740993"))), args: ["info", "{db}"], code: 1, stderr: /above 2\^53/ },
  { name: "lastIteration at 2^53-1 refuses to overflow", setup: editDb((v) => (v.lastIteration = big("9007199254740991"))), args: addWith(), code: 1, stderr: /would overflow/ },
  { name: "an island generation of 2^64-1", setup: editDb((v) => (v.islandGenerations = [big(U64_MAX), 0, 0])), args: addWith(), code: 1, stderr: /`islandGenerations\[0\]`/ },
  { name: "lastMigrationGeneration of 2^64-1", setup: editDb((v) => (v.lastMigrationGeneration = big(U64_MAX))), args: ["stats", "{db}"], code: 1, stderr: /`lastMigrationGeneration`/ },
  { name: "a program generation of 2^64-1", setup: editDb((v) => (v.programs[v.bestProgramId].generation = big(U64_MAX))), args: ["best", "{db}"], code: 1, stderr: /\.generation` is 18446744073709551615/ },
  { name: "a program iterationFound of 2^64-1", setup: editDb((v) => (v.programs[v.bestProgramId].iterationFound = big(U64_MAX))), args: ["info", "{db}"], code: 1, stderr: /iterationFound.*2\^53/ },
  { name: "a negative lastIteration", setup: editDb((v) => (v.lastIteration = -1)), args: ["info", "{db}"], code: 1, stderr: /lastIteration/ },
  { name: "a fractional lastIteration", setup: editDb((v) => (v.lastIteration = 1.5)), args: ["info", "{db}"], code: 1, stderr: /lastIteration/ },
  // --- the file's structure ---
  { name: "a program on no island", setup: editDb((v) => (v.islands = [[], [], []])), args: ["sample", "{db}"], code: 1, stderr: /on no island/ },
  { name: "currentIsland out of range", setup: editDb((v) => (v.currentIsland = 7)), args: ["sample", "{db}"], code: 1, stderr: /`currentIsland`/ },
  { name: "islandGenerations shorter than the islands", setup: editDb((v) => (v.islandGenerations = [0])), args: ["info", "{db}"], code: 1, stderr: /`islandGenerations` has 1 entries/ },
  { name: "numIslands 0 in the file", setup: editDb((v) => (v.numIslands = 0)), args: ["info", "{db}"], code: 1, stderr: /numIslands/ },
  { name: "a database from a newer evodb", setup: editDb((v) => (v.evodb.format = 99)), args: ["info", "{db}"], code: 1, stderr: /upgrade evodb/ },
  { name: "a garbled PRNG state", setup: editDb((v) => (v.evodb.rng = "not a state")), args: ["sample", "{db}"], code: 1, stderr: /corrupt database/ },
  { name: "a next seq a stored program already has", setup: editDb((v) => (v.evodb.candidates.nextSeq = 1)), args: addWith(), code: 1, stderr: /the next candidate is numbered 1/ },
  { name: "a timestamp that is a string", setup: editDb((v) => (v.programs[v.bestProgramId].timestamp = "yesterday")), args: ["info", "{db}"], code: 1, stderr: /\.timestamp/ },
  { name: "a bestProgramId naming no program, on validate", setup: editDb((v) => (v.bestProgramId = "ghost")), args: ["validate", "{db}"], code: 1, stderr: /`bestProgramId` `ghost` is not in `programs`/ },
  { name: "database.json is a directory", setup: (db) => fs.mkdirSync(path.join(db, "../dir-db/database.json"), { recursive: true }), args: ["info", "{dir}/dir-db"], code: 5, stderr: /dir-db\/database\.json/ },
  { name: "database.json is a FIFO with no writer", setup: fifoIn("database.json"), args: ["info", "{db}"], code: 5, stderr: /database\.json`: it is a FIFO, not a regular file/ },
  { name: "database.json is a FIFO, on add", setup: fifoIn("database.json"), args: addWith(), code: 5, stderr: /it is a FIFO, not a regular file/ },
  { name: "history.ndjson is a FIFO with no reader, on add", setup: fifoIn("history.ndjson"), args: addWith(), code: 5, stderr: /history\.ndjson`: it is a FIFO, not a regular file/ },
  { name: "history.ndjson is a FIFO, on history", setup: fifoIn("history.ndjson"), args: ["history", "{db}"], code: 5, stderr: /it is a FIFO, not a regular file/ },
  { name: "history.ndjson is a directory, on add", setup: directoryIn("history.ndjson"), args: addWith(), code: 5, stderr: /history\.ndjson`/ },
  // --- metrics bounds ---
  { name: "a stored program with 100,000 metrics", setup: editDb((v) => (v.programs[v.bestProgramId].metrics = JSON.parse(metricsNamed(100_000)))), args: ["sample", "{db}"], code: 1, stderr: /more than 1000/ },
  { name: "1001 metric names", args: addWith("--metrics", metricsNamed(1001)), code: 1, stderr: /more than 1000/ },
  { name: "a 300-byte metric name", args: addWith("--metrics", JSON.stringify({ ["m".repeat(300)]: 1 })), code: 1, stderr: /300-byte name/ },
  { name: "metrics nested arrays", args: addWith("--metrics", "[[[[1]]]]"), code: 1, stderr: /`metrics`/ },
  // --- files that are not files ---
  { name: "--targetCodeFile naming a FIFO with no writer", setup: fifoBeside("fifo"), args: addWith("--targetCodeFile", "{dir}/fifo"), code: 1, stderr: /--targetCodeFile `.*fifo` is not a regular file \(a FIFO\); pass a file, or - for standard input/ },
  { name: "--changesFile naming a FIFO with no writer", setup: fifoBeside("fifo"), args: addWith("--changesFile", "{dir}/fifo"), code: 1, stderr: /is not a regular file \(a FIFO\)/ },
  { name: "--config naming a FIFO with no writer", setup: fifoBeside("fifo"), args: ["init", "{dir}/new", "--config", "{dir}/fifo"], code: 1, stderr: /is not a regular file \(a FIFO\)/ },
  { name: "--targetCodeFile naming a symlink to a FIFO", setup: (db) => (fifoBeside("fifo")(db), fs.symlinkSync("fifo", path.join(db, "../link"))), args: addWith("--targetCodeFile", "{dir}/link"), code: 1, stderr: /is not a regular file \(a FIFO\)/ },
  { name: "--targetCodeFile naming a directory", args: addWith("--targetCodeFile", "{dir}"), code: 1, stderr: /is not a regular file \(a directory\)/ },
  { name: "--changesFile naming a directory", args: addWith("--changesFile", "{dir}"), code: 1, stderr: /--changesFile `.*` is not a regular file \(a directory\)/ },
  { name: "--config naming a directory", args: ["init", "{dir}/new", "--config", "{dir}"], code: 1, stderr: /--config `.*` is not a regular file \(a directory\)/ },
  { name: "--targetCodeFile naming a device", args: addWith("--targetCodeFile", "/dev/null"), code: 1, stderr: /is not a regular file \(a device\)/ },
  { name: "--targetCodeFile naming an endless device", args: addWith("--targetCodeFile", "/dev/zero"), code: 1, stderr: /`\/dev\/zero` is not a regular file \(a device\)/ },
  { name: "--targetCodeFile naming a socket", setup: (db) => socket(path.join(db, "../sock")), args: addWith("--targetCodeFile", "{dir}/sock"), code: 1, stderr: /is not a regular file \(a socket\)/ },
  { name: "--targetCodeFile under a regular file", setup: besideDb("plain", "x"), args: addWith("--targetCodeFile", "{dir}/plain/code.py"), code: 5, stderr: /--targetCodeFile: cannot read `.*plain\/code\.py`/ },
  // --- usage: enums list their values ---
  { name: "--status bogus", args: [...addWith(), "--status", "bogus"], code: 2, stderr: /invalid value 'bogus' for '--status.*\[possible values: accepted, rejected, error\]/s },
  { name: "--status with a capital", args: [...addWith(), "--status", "Accepted"], code: 2, stderr: /\[possible values: accepted, rejected, error\]/ },
  { name: "--status empty", args: [...addWith(), "--status", ""], code: 2, stderr: /possible values: accepted, rejected, error/ },
  { name: "--operator bogus", args: [...addWith(), "--operator", "bogus"], code: 2, stderr: /invalid value 'bogus' for '--operator.*\[possible values: exploitation, exploration, crossover, migration\]/s },
  { name: "--operator with a trailing space", args: [...addWith(), "--operator", "crossover "], code: 2, stderr: /\[possible values: exploitation, exploration, crossover, migration\]/ },
  { name: "--tail not a number", args: ["history", "{db}", "--tail", "abc"], code: 2, stderr: /invalid value 'abc'/ },
  { name: "a negative init seed", args: ["init", "{dir}/new", "--seed", "-1"], code: 2, stderr: /'-1'/ },
  // --- nothing to validate, nothing to find ---
  { name: "validate on a missing directory", args: ["validate", "{dir}/nowhere"], code: 3, stderr: /no database at `.*nowhere` \(no database\.json\): nothing to validate; check the path/ },
  { name: "validate on a directory with no database", setup: (db) => fs.mkdirSync(path.join(db, "../empty")), args: ["validate", "{dir}/empty"], code: 3, stderr: /nothing to validate/ },
  { name: "validate on database.json's own path", args: ["validate", "{db}/database.json"], code: 3, stderr: /nothing to validate/ },
  { name: "validate on a torn history", setup: appendHistory('{"event":"added","seq":2,"id":'), args: ["validate", "{db}"], code: 1, stderr: /history\.ndjson line \d+ is torn or not JSON \(an interrupted write\?\); the next write removes a torn last line/ },
  { name: "validate on a history with a garbage line", setup: appendHistory("garbage\n{}\n"), args: ["validate", "{db}"], code: 1, stderr: /history\.ndjson line \d+ is torn or not JSON .*remove the line, or restore the file from a backup/ },
  { name: "validate on a history line not UTF-8", setup: appendHistory(Buffer.from([0x22, 0xff, 0x22, 0x0a])), args: ["validate", "{db}"], code: 1, stderr: /history\.ndjson line \d+ is torn or not JSON/ },
  { name: "lineage of an unknown id", args: ["lineage", "{db}", "nope"], code: 3, stderr: /no live program has id `nope`/ },
  { name: "lineage of an empty id", args: ["lineage", "{db}", ""], code: 3, stderr: /no live program has id ``/ },
  { name: "an unknown plan item", args: [...addWith(), "--planItem", "nope"], code: 1, stderr: /nope/ },
  // --- plans and config ---
  { name: "a plan freezing an island that does not exist", args: ["plan", "{db}", "2", "--frozen", "9"], code: 1, stderr: /names island 9/ },
  { name: "a plan freezing every island", args: ["plan", "{db}", "2", "--frozen", "0,1,2"], code: 1, stderr: /freezes every island/ },
  { name: "a billion islands", args: ["init", "{dir}/new", "--numIslands", "1000000000"], code: 1, stderr: /`numIslands` is 1000000000/ },
  { name: "a migration interval of 0", args: ["init", "{dir}/new", "--migrationInterval", "0"], code: 1, stderr: /`migrationInterval`/ },
  { name: "features not JSON", args: ["init", "{dir}/new", "--features", "{bad"], code: 1, stderr: /--features is not valid JSON/ },
  { name: "negative operator weight", args: ["init", "{dir}/new", "--operators", '{"exploitation": -1}'], code: 1, stderr: /exploitation/ },
  // Native leaves --migration and --placement to the engine's config check (exit 1, the values named).
  { name: "--migration bogus", args: ["init", "{dir}/new", "--migration", "bogus"], code: 1, stderr: /`migration` unknown variant `bogus`, expected `share` or `copy`/ },
  { name: "a direction neither min nor max", args: ["init", "{dir}/new", "--direction", "speed=sideways"], code: 1, stderr: /`directions\.speed` unknown variant `sideways`/ },
  // --- the sandbox's limits ---
  { name: "a memory cap below the database's size", setup: editDb((v) => (v.programs[v.bestProgramId].changes = "x".repeat(8 << 20))), args: ["info", "{db}", "--memoryLimitMb", "4"], code: 4, stderr: /exceeded its memory cap \(4 MiB\)/ },
  { name: "a memory cap below the database's size, on add", setup: editDb((v) => (v.programs[v.bestProgramId].changes = "x".repeat(8 << 20))), args: [...addWith(), "--memoryLimitMb", "4"], code: 4, stderr: /exceeded its memory cap \(4 MiB\).*--memoryLimitMb/ },
  { name: "a memory cap of 0", args: ["info", "{db}", "--memoryLimitMb", "0"], code: 4, stderr: /exceeded its memory cap \(0 MiB\)/ },
  { name: "a memory cap of 1 MiB on add", args: [...addWith(), "--memoryLimitMb", "1"], code: 4, stderr: /exceeded its memory cap \(1 MiB\)/ },
  { name: "a memory cap of 0 on history", args: ["history", "{db}", "--memoryLimitMb", "0"], code: 4, stderr: /exceeded its memory cap \(0 MiB\)/ },
  { name: "a time budget of 0", args: ["info", "{db}", "--timeBudgetMs", "0"], code: 4, stderr: /exceeded its time budget \(0 ms\)/ },
  { name: "a time budget of 0 on add", args: [...addWith(), "--timeBudgetMs", "0"], code: 4, stderr: /exceeded its time budget \(0 ms\).*--timeBudgetMs/ },
  { name: "a time budget of 0 on sample", args: ["sample", "{db}", "--timeBudgetMs", "0"], code: 4, stderr: /exceeded its time budget \(0 ms\)/ },
  { name: "a time budget of 0 on validate", args: ["validate", "{db}", "--timeBudgetMs", "0"], code: 4, stderr: /exceeded its time budget \(0 ms\)/ },
  { name: "a time budget of 0 creating a database", args: ["create", "{dir}/new", "--timeBudgetMs", "0"], code: 4, stderr: /exceeded its time budget \(0 ms\)/ },
];

/** The command line and standard input, as a Node process receives them. */
export const PARSE_CASES = [
  // --- argv that is not UTF-8: Node decodes it lossily, so it is checked before anything else ---
  { name: "--targetCode not valid UTF-8", args: addWith("--targetCode", "def f():{xFF}"), code: 2, stderr: /--targetCode is not valid UTF-8; pass the text as UTF-8 or use --targetCodeFile/, nativeStderr: /invalid UTF-8/ },
  { name: "--codePath not valid UTF-8", args: addWith("--codePath", "caf{xE9}.py"), code: 2, stderr: /--codePath is not valid UTF-8/, nativeStderr: /invalid UTF-8/ },
  { name: "--metrics not valid UTF-8", args: addWith("--metrics", '{"sc{xC3}ore": 1}'), code: 2, stderr: /--metrics is not valid UTF-8/, nativeStderr: /invalid UTF-8/ },
  { name: "--changes=… not valid UTF-8", args: [...addWith("--changes", null), "--changes=caf{xE9}"], code: 2, stderr: /--changes is not valid UTF-8; pass the text as UTF-8 or use --changesFile/, nativeStderr: /invalid UTF-8/ },
  { name: "--reason not valid UTF-8", args: [...addWith(), "--status", "rejected", "--reason", "{xFF}{xFE}"], code: 2, stderr: /--reason is not valid UTF-8/, nativeStderr: /invalid UTF-8/ },
  { name: "a dbPath not valid UTF-8", args: ["info", "{dir}/caf{xE9}"], code: 2, stderr: /argument 2 .* is not valid UTF-8/, skipNative: "native evodb takes any path bytes (Node cannot name such a path)" },
  // --- JSON that JSON.parse takes but UTF-8 cannot hold ---
  { name: "a metric name with a lone surrogate", args: addWith("--metrics", '{"\\ud800": 1}'), code: 1, stderr: /--metrics is not valid JSON/ },
  { name: "a config key with a lone surrogate", setup: besideDb("config.json", '{"\\udfff": 1}'), args: ["init", "{dir}/new", "--config", "{dir}/config.json"], code: 1, stderr: /--config: `.*config\.json` is not valid JSON/ },
  { name: "features with a lone surrogate", args: ["init", "{dir}/new", "--features", '[{"kind": "metric", "metric": "\\ud800", "min": 0, "max": 1, "bins": 2}]'], code: 1, stderr: /--features is not valid JSON|lone surrogate|surrogate/ },
  { name: "metrics with trailing content", args: addWith("--metrics", '{"score": 1} x'), code: 1, stderr: /--metrics is not valid JSON/ },
  { name: "metrics empty", args: addWith("--metrics", ""), code: 1, stderr: /--metrics is not valid JSON/ },
  { name: "a metric true", args: addWith("--metrics", '{"score": true}'), code: 1, stderr: /`metrics\.score`/ },
  { name: "config file an array", setup: besideDb("config.json", "[1]"), args: ["init", "{dir}/new", "--config", "{dir}/config.json"], code: 1, stderr: /must hold a JSON object/ },
  { name: "config file with trailing content", setup: besideDb("config.json", "{} x"), args: ["init", "{dir}/new", "--config", "{dir}/config.json"], code: 1, stderr: /is not valid JSON/ },
  // --- standard input for - ---
  { name: "--targetCodeFile - with empty standard input", args: addWith("--targetCodeFile", "-"), input: "", code: 1, stderr: /`targetCode` is empty/ },
  { name: "--targetCodeFile - not UTF-8", args: addWith("--targetCodeFile", "-"), input: Buffer.from([0x63, 0xff]), code: 1, stderr: /not UTF-8 text/ },
  { name: "--config - not JSON", args: ["init", "{dir}/new", "--config", "-"], input: "numIslands = 4", code: 1, stderr: /--config: `-` is not valid JSON/ },
  { name: "--targetCode and --targetCodeFile -", args: [...addWith(), "--targetCodeFile", "-"], code: 2, stderr: /cannot be used with/ },
  // --- integers and flags ---
  { name: "--island above 2^32-1", args: [...addWith(), "--island", "4294967296"], code: 2, stderr: /4294967296 is not in 0\.\.=4294967295/ },
  { name: "a plan above 2^32-1 items", args: ["plan", "{db}", "99999999999"], code: 2, stderr: /99999999999 is not in 0\.\.=4294967295/ },
  { name: "--frozen above 2^32-1", args: ["plan", "{db}", "2", "--frozen", "4294967296"], code: 2, stderr: /4294967296/ },
  { name: "--memoryLimitMb fractional", args: ["info", "{db}", "--memoryLimitMb", "1.5"], code: 2, stderr: /invalid value '1\.5'/ },
  { name: "--memoryLimitMb beyond 2^64", args: ["info", "{db}", "--memoryLimitMb", "99999999999999999999"], code: 2, stderr: /invalid value '99999999999999999999'/ },
  { name: "--timeBudgetMs negative", args: ["info", "{db}", "--timeBudgetMs", "-5"], code: 2, stderr: /'-5'/ },
  { name: "--tail negative", args: ["history", "{db}", "--tail", "-1"], code: 2, stderr: /'-1'/ },
  { name: "an empty init seed", args: ["init", "{dir}/new", "--seed", ""], code: 2, stderr: /invalid value '' for '--rngSeed/ },
  { name: "--format given twice", args: ["export", "{db}", "--format", "json", "--format", "tree"], code: 2, stderr: /'--format.*' cannot be used multiple times/ },
  { name: "a short flag", args: [...addWith(), "-x"], code: 2, stderr: /unexpected argument '-x'/ },
  { name: "a flag with no name", args: [...addWith(), "--=v"], code: 2, stderr: /unexpected argument '--/ },
  { name: "an empty --id", args: [...addWith(), "--id", ""], code: 1, stderr: /`id` is empty/ },
];
