/* @ts-self-types="./evodb.d.ts" */

/**
 * Programs' code signatures, for the near-duplicates among any set of them.
 *
 * ```js
 * import { CodeSignatures } from "evodb";
 * const signatures = new CodeSignatures();
 * for (const p of programs) signatures.add(p.id, p.targetCode, p.codePath, p.migratedFrom ?? null);
 * const near = signatures.nearDuplicates(liveIdsInAddedOrder, config.nearDuplicate ?? null);
 * // [{ id: "c", of: "a", similarity: 0.96875 }, …]
 * ```
 */
export class CodeSignatures {
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        CodeSignaturesFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_codesignatures_free(ptr, 0);
    }
    /**
     * `signatures.add(id, code, codePath, copyOf?)`: signs program `id`'s code (`codePath`'s
     * extension names its comment syntax); `copyOf`: the program a copy-mode migration copied it
     * from, which it is then never a near-duplicate of. Adding an id again replaces it.
     * @param {string} id
     * @param {string} code
     * @param {string} codePath
     * @param {string | null} [copyOf]
     */
    add(id, code, codePath, copyOf) {
        let ptr0, len0, ptr1, len1, ptr2, len2, ptr3, len3;
        try {
            ptr0 = passStringToWasm0(id, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            len0 = WASM_VECTOR_LEN;
            ptr1 = passStringToWasm0(code, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            len1 = WASM_VECTOR_LEN;
            ptr2 = passStringToWasm0(codePath, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            len2 = WASM_VECTOR_LEN;
            ptr3 = isLikeNone(copyOf) ? 0 : passStringToWasm0(copyOf, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            len3 = WASM_VECTOR_LEN;
        } catch (e) {
            if (ptr3) { wasm.__wbindgen_export3(ptr3, len3 * 1, 1); }
            if (ptr2) { wasm.__wbindgen_export3(ptr2, len2 * 1, 1); }
            if (ptr1) { wasm.__wbindgen_export3(ptr1, len1 * 1, 1); }
            if (ptr0) { wasm.__wbindgen_export3(ptr0, len0 * 1, 1); }
            throw e;
        }
        wasm.codesignatures_add(this.__wbg_ptr, ptr0, len0, ptr1, len1, ptr2, len2, ptr3, len3);
    }
    /**
     * `signatures.has(id)`: whether program `id` is signed.
     * @param {string} id
     * @returns {boolean}
     */
    has(id) {
        const ptr0 = passStringToWasm0(id, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.codesignatures_has(this.__wbg_ptr, ptr0, len0);
        return ret !== 0;
    }
    /**
     * `signatures.nearDuplicates(live, threshold?)`: `db.nearDuplicates()` among the ids in
     * `live`, given in the order they were added (ids never signed are left out), at `threshold`
     * (0–1; `null`: the default, 0.9).
     * @param {string[]} live
     * @param {number | null} [threshold]
     * @returns {NearDuplicate[]}
     */
    nearDuplicates(live, threshold) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const val2 = +(isLikeNone(threshold) ? 0 : threshold);
            const ptr0 = passArrayJsValueToWasm0(live, wasm.__wbindgen_export);
            const len0 = WASM_VECTOR_LEN;
            wasm.codesignatures_nearDuplicates(retptr, this.__wbg_ptr, ptr0, len0, !isLikeNone(threshold), val2);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `new CodeSignatures()`: none signed yet.
     */
    constructor() {
        const ret = wasm.codesignatures_new();
        this.__wbg_ptr = ret;
        CodeSignaturesFinalization.register(this, this.__wbg_ptr, this);
        return this;
    }
    /**
     * `signatures.remove(id)`: forgets program `id`.
     * @param {string} id
     */
    remove(id) {
        const ptr0 = passStringToWasm0(id, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        wasm.codesignatures_remove(this.__wbg_ptr, ptr0, len0);
    }
    /**
     * `signatures.size`: how many programs are signed.
     * @returns {number}
     */
    get size() {
        const ret = wasm.codesignatures_size(this.__wbg_ptr);
        return ret >>> 0;
    }
}
if (Symbol.dispose) CodeSignatures.prototype[Symbol.dispose] = CodeSignatures.prototype.free;

/**
 * A population database.
 *
 * ```js
 * import { Database } from "evodb";
 * const db = new Database({ numIslands: 3 }, 42);
 * const seed = db.add({ codePath: "/src/f.py", targetCode: "def f(): ...", parentId: "0",
 *                       metrics: { score: 0.5 }, changes: "initial implementation" }, Date.now() / 1000);
 * const { parent, inspirations } = db.sample();
 * ```
 */
export class Database {
    static __wrap(ptr) {
        const obj = Object.create(Database.prototype);
        obj.__wbg_ptr = ptr;
        DatabaseFinalization.register(obj, obj.__wbg_ptr, obj);
        return obj;
    }
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        DatabaseFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_database_free(ptr, 0);
    }
    /**
     * `db.add(request, now)`: `{id, metrics, bestProgramId, bestMetrics, lastIteration, warnings?}`.
     * `now` is seconds since the epoch (`Date.now() / 1000`).
     *
     * ```js
     * const { id } = db.add({ codePath: "/c/1.py", targetCode, parentId, metrics: { score } }, Date.now() / 1000);
     * ```
     * @param {AddRequest} request
     * @param {number} now
     * @returns {AddOutcome}
     */
    add(request, now) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const val1 = +now;
            wasm.database_add(retptr, this.__wbg_ptr, addHeapObject(request), val1);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.admitEmbedding(code, codePath, embedding)`: `admit` by your own embedding of the code
     * (numbers; the same model and length as the adds' `embedding`): near-duplicates by cosine
     * similarity. Throws for an embedding that is empty, not finite, all zeros or of another length.
     *
     * ```js
     * db.add({ ...seed, embedding: await embed(seed.targetCode) }, now);
     * const { verdict } = db.admitEmbedding(code, "c.py", await embed(code));
     * ```
     * @param {string} code
     * @param {string} codePath
     * @param {Float64Array | number[]} embedding
     * @returns {Admission}
     */
    admitEmbedding(code, codePath, embedding) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            let ptr0, len0, ptr1, len1, ptr2, len2;
            try {
                ptr0 = passStringToWasm0(code, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len0 = WASM_VECTOR_LEN;
                ptr1 = passStringToWasm0(codePath, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len1 = WASM_VECTOR_LEN;
                ptr2 = passArrayF64ToWasm0(embedding, wasm.__wbindgen_export);
                len2 = WASM_VECTOR_LEN;
            } catch (e) {
                if (ptr2) { wasm.__wbindgen_export3(ptr2, len2 * 8, 8); }
                if (ptr1) { wasm.__wbindgen_export3(ptr1, len1 * 1, 1); }
                if (ptr0) { wasm.__wbindgen_export3(ptr0, len0 * 1, 1); }
                throw e;
            }
            wasm.database_admitEmbedding(retptr, this.__wbg_ptr, ptr0, len0, ptr1, len1, ptr2, len2);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.admit(code, codePath)`: before evaluating a candidate, whether it duplicates (or nearly
     * duplicates) a live program; reads only. `codePath`'s extension names the comment syntax.
     *
     * ```js
     * const { verdict, of, similarity } = db.admit(code, "candidates/iter_7.py");
     * if (verdict !== "evaluate") console.log(`skip: ${verdict} of ${of} (${similarity})`);
     * ```
     * @param {string} code
     * @param {string} codePath
     * @returns {Admission}
     */
    admit(code, codePath) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            let ptr0, len0, ptr1, len1;
            try {
                ptr0 = passStringToWasm0(code, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len0 = WASM_VECTOR_LEN;
                ptr1 = passStringToWasm0(codePath, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len1 = WASM_VECTOR_LEN;
            } catch (e) {
                if (ptr1) { wasm.__wbindgen_export3(ptr1, len1 * 1, 1); }
                if (ptr0) { wasm.__wbindgen_export3(ptr0, len0 * 1, 1); }
                throw e;
            }
            wasm.database_admit(retptr, this.__wbg_ptr, ptr0, len0, ptr1, len1);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.best(target?)`: `{id, codePath, targetCode, metrics, changes, iterationFound}` or
     * `null`; with `target`, that target's best.
     *
     * ```js
     * const score = db.best()?.metrics.score;
     * ```
     * @param {string | null} [target]
     * @returns {BestProgram | null}
     */
    best(target) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            var ptr0 = isLikeNone(target) ? 0 : passStringToWasm0(target, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            var len0 = WASM_VECTOR_LEN;
            wasm.database_best(retptr, this.__wbg_ptr, ptr0, len0);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `Database.compareHistory(text, history)`: `history.ndjson` replayed and compared with a
     * `database.json` text; every disagreement, named (empty: they agree).
     *
     * ```js
     * const disagreements = Database.compareHistory(databaseText, historyText);
     * ```
     * @param {string} text
     * @param {string} history
     * @returns {string[]}
     */
    static compareHistory(text, history) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            let ptr0, len0, ptr1, len1;
            try {
                ptr0 = passStringToWasm0(text, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len0 = WASM_VECTOR_LEN;
                ptr1 = passStringToWasm0(history, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len1 = WASM_VECTOR_LEN;
            } catch (e) {
                if (ptr1) { wasm.__wbindgen_export3(ptr1, len1 * 1, 1); }
                if (ptr0) { wasm.__wbindgen_export3(ptr0, len0 * 1, 1); }
                throw e;
            }
            wasm.database_compareHistory(retptr, ptr0, len0, ptr1, len1);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var v3 = getArrayJsValueFromWasm0(r0, r1);
            wasm.__wbindgen_export3(r0, r1 * 4, 4);
            return v3;
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.evoideaExport()`: an idea run as evoidea's files, `{kind, state, final}` (JSON text;
     * `state` and `final` are null for a programs run, `run_id` is the caller's to fill).
     * @returns {string}
     */
    evoideaExport() {
        let deferred1_0;
        let deferred1_1;
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_evoideaExport(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            deferred1_0 = r0;
            deferred1_1 = r1;
            return getStringFromWasm0(r0, r1);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * `Database.fromJson(text)`: reads `database.json` text (evodb's or the seed CLI's).
     *
     * ```js
     * const db = Database.fromJson(fs.readFileSync("database.json", "utf8"));
     * ```
     * @param {string} text
     * @returns {Database}
     */
    static fromJson(text) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const ptr0 = passStringToWasm0(text, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            const len0 = WASM_VECTOR_LEN;
            wasm.database_fromJson(retptr, ptr0, len0);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return Database.__wrap(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.heartbeat(item, token, now, leaseSeconds?)`: extends a leased item's lease to `now` +
     * `leaseSeconds` (else its own length); a stale token is refused.
     *
     * ```js
     * const { expires } = db.heartbeat(item.name, item.lease.token, Date.now() / 1000);
     * ```
     * @param {string} item
     * @param {string} token
     * @param {number} now
     * @param {number | null} [leaseSeconds]
     * @returns {Lease}
     */
    heartbeat(item, token, now, leaseSeconds) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const val3 = +now;
            const val4 = +(isLikeNone(leaseSeconds) ? 0 : leaseSeconds);
            let ptr0, len0, ptr1, len1;
            try {
                ptr0 = passStringToWasm0(item, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len0 = WASM_VECTOR_LEN;
                ptr1 = passStringToWasm0(token, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len1 = WASM_VECTOR_LEN;
            } catch (e) {
                if (ptr1) { wasm.__wbindgen_export3(ptr1, len1 * 1, 1); }
                if (ptr0) { wasm.__wbindgen_export3(ptr0, len0 * 1, 1); }
                throw e;
            }
            wasm.database_heartbeat(retptr, this.__wbg_ptr, ptr0, len0, ptr1, len1, val3, !isLikeNone(leaseSeconds), val4);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.info()`: the seed CLI's `info` object.
     *
     * ```js
     * const { isEmpty, lastIteration, bestProgramId } = db.info();
     * ```
     * @returns {Info}
     */
    info() {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_info(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.lacksEvodbSection()`: the file it was read from had no `evodb` section.
     * @returns {boolean}
     */
    lacksEvodbSection() {
        const ret = wasm.database_lacksEvodbSection(this.__wbg_ptr);
        return ret !== 0;
    }
    /**
     * `db.leases(now)`: every leased item not applied yet, in plan order: live, expired or held.
     *
     * ```js
     * const expired = db.leases(Date.now() / 1000).filter((l) => l.state === "expired");
     * ```
     * @param {number} now
     * @returns {LeaseEntry[]}
     */
    leases(now) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_leases(retptr, this.__wbg_ptr, now);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.lineageMermaid()`: the live population's family tree as a Mermaid flowchart.
     *
     * ```js
     * document.querySelector("pre.mermaid").textContent = db.lineageMermaid();
     * ```
     * @returns {string}
     */
    lineageMermaid() {
        let deferred1_0;
        let deferred1_1;
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_lineageMermaid(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            deferred1_0 = r0;
            deferred1_1 = r1;
            return getStringFromWasm0(r0, r1);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * `db.lineageTree()`: the same family tree as indented ASCII (evoidea's `tree`).
     *
     * ```js
     * console.log(db.lineageTree()); // "#1 3f2a… fitness 0.500 gen 0 island 0\n└── #2 …"
     * ```
     * @returns {string}
     */
    lineageTree() {
        let deferred1_0;
        let deferred1_1;
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_lineageTree(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            deferred1_0 = r0;
            deferred1_1 = r1;
            return getStringFromWasm0(r0, r1);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * `db.lineage(id)`: `{id, ancestors, missingAncestor, descendants}` of a live program, or
     * `null` when no live program has that id.
     *
     * ```js
     * const { ancestors } = db.lineage(db.best().id); // parent first, back to the seed program
     * ```
     * @param {string} id
     * @returns {Lineage | null}
     */
    lineage(id) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const ptr0 = passStringToWasm0(id, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            const len0 = WASM_VECTOR_LEN;
            wasm.database_lineage(retptr, this.__wbg_ptr, ptr0, len0);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.loadWarnings()`: what loading noticed that the user should be told.
     * @returns {string[]}
     */
    loadWarnings() {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_loadWarnings(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var v1 = getArrayJsValueFromWasm0(r0, r1);
            wasm.__wbindgen_export3(r0, r1 * 4, 4);
            return v1;
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.nearDuplicates()`: each live program whose code is at least the config's
     * `nearDuplicate` (default 0.9) alike an earlier-added live program, as `admit` measures it,
     * with the closest such program (the earliest on a tie), in the order they were added.
     *
     * ```js
     * for (const { id, of, similarity } of db.nearDuplicates()) {
     *   console.log(`${id} ≈ ${of} (${similarity})`); // e.g. a retry with only comments changed: 1
     * }
     * ```
     * @returns {NearDuplicate[]}
     */
    nearDuplicates() {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_nearDuplicates(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `new Database(config?, seed?)`: `config` is a plain object of options (missing ones take
     * the seed's defaults); `seed` a non-negative integer (default 0).
     *
     * ```js
     * const db = new Database({ numIslands: 4, fitness: { kind: "primary", metric: "score" } }, 7);
     * ```
     * @param {Config | null} [config]
     * @param {number | null} [seed]
     */
    constructor(config, seed) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const val1 = +(isLikeNone(seed) ? 0 : seed);
            wasm.database_new(retptr, addHeapObject(config), !isLikeNone(seed), val1);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            this.__wbg_ptr = r0;
            DatabaseFinalization.register(this, this.__wbg_ptr, this);
            return this;
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.note(request)`: keeps a note (run memory) that later samples and plan items carry.
     *
     * ```js
     * db.note({ kind: "lesson", text: "numpy's sieve beats the pure-Python loop", target: "sieve" });
     * ```
     * @param {NoteRequest} request
     * @returns {Note}
     */
    note(request) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_note(retptr, this.__wbg_ptr, addHeapObject(request));
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.notes(target?, kind?, limit?)`: the notes, newest first (a target's and the run-wide ones).
     *
     * ```js
     * const failures = db.notes(null, "failure", 10);
     * ```
     * @param {string | null | undefined} target
     * @param {NoteKind | null} kind
     * @param {number | null} [limit]
     * @returns {Note[]}
     */
    notes(target, kind, limit) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const val3 = +(isLikeNone(limit) ? Number.MAX_SAFE_INTEGER : (limit) >>> 0);
            let ptr0, len0, ptr1, len1;
            try {
                ptr0 = isLikeNone(target) ? 0 : passStringToWasm0(target, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len0 = WASM_VECTOR_LEN;
                ptr1 = isLikeNone(kind) ? 0 : passStringToWasm0(kind, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len1 = WASM_VECTOR_LEN;
            } catch (e) {
                if (ptr1) { wasm.__wbindgen_export3(ptr1, len1 * 1, 1); }
                if (ptr0) { wasm.__wbindgen_export3(ptr0, len0 * 1, 1); }
                throw e;
            }
            wasm.database_notes(retptr, this.__wbg_ptr, ptr0, len0, ptr1, len1, val3);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.noticeLostSection(history)`: after `fromJson`, when the file had no `evodb` section but
     * `history` (history.ndjson's text) holds evodb's events, a warning naming what was lost
     * joins `db.loadWarnings()`.
     * @param {string} history
     */
    noticeLostSection(history) {
        const ptr0 = passStringToWasm0(history, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        wasm.database_noticeLostSection(this.__wbg_ptr, ptr0, len0);
    }
    /**
     * `db.paretoFront()`: a pareto run's first front, best-ranked first (largest crowding
     * distance, then fitness); throws in the other selection modes.
     *
     * ```js
     * const front = db.paretoFront(); // [{id, metrics, …}, …]
     * ```
     * @returns {BestProgram[]}
     */
    paretoFront() {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_paretoFront(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.planAt(n, frozen, boosted, now, leaseSeconds?)`: `plan` at time `now` (seconds), each
     * item under a lease of `leaseSeconds` (else the config's `leaseSeconds`, else none). An
     * item's `lease.token` goes with its answer (`token`) and its heartbeats; expired, unanswered
     * items are handed out again first, with a new token.
     *
     * ```js
     * const { items } = db.planAt(4, [], [], Date.now() / 1000, 600);
     * db.add({ ...candidate, planItem: items[0].name, token: items[0].lease.token }, Date.now() / 1000);
     * ```
     * @param {number} n
     * @param {Uint32Array | number[] | null | undefined} frozen
     * @param {Uint32Array | number[] | null | undefined} boosted
     * @param {number} now
     * @param {number | null} [leaseSeconds]
     * @returns {Plan}
     */
    planAt(n, frozen, boosted, now, leaseSeconds) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const val3 = +n;
            const val4 = +now;
            const val5 = +(isLikeNone(leaseSeconds) ? 0 : leaseSeconds);
            let ptr0, len0, ptr1, len1;
            try {
                ptr0 = isLikeNone(frozen) ? 0 : passArray32ToWasm0(frozen, wasm.__wbindgen_export);
                len0 = WASM_VECTOR_LEN;
                ptr1 = isLikeNone(boosted) ? 0 : passArray32ToWasm0(boosted, wasm.__wbindgen_export);
                len1 = WASM_VECTOR_LEN;
            } catch (e) {
                if (ptr1) { wasm.__wbindgen_export3(ptr1, len1 * 4, 4); }
                if (ptr0) { wasm.__wbindgen_export3(ptr0, len0 * 4, 4); }
                throw e;
            }
            wasm.database_planAt(retptr, this.__wbg_ptr, val3, ptr0, len0, ptr1, len1, val4, !isLikeNone(leaseSeconds), val5);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.plan(n, frozen?, boosted?)`: `n` work items for parallel workers, each with a name,
     * operator, target island and parent ids; pass an item's name as `planItem` when adding.
     *
     * ```js
     * const { items } = db.plan(8, [], [2]); // island 2 gets twice the share
     * ```
     * @param {number} n
     * @param {Uint32Array | number[] | null} [frozen]
     * @param {Uint32Array | number[] | null} [boosted]
     * @returns {Plan}
     */
    plan(n, frozen, boosted) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const val3 = +n;
            let ptr0, len0, ptr1, len1;
            try {
                ptr0 = isLikeNone(frozen) ? 0 : passArray32ToWasm0(frozen, wasm.__wbindgen_export);
                len0 = WASM_VECTOR_LEN;
                ptr1 = isLikeNone(boosted) ? 0 : passArray32ToWasm0(boosted, wasm.__wbindgen_export);
                len1 = WASM_VECTOR_LEN;
            } catch (e) {
                if (ptr1) { wasm.__wbindgen_export3(ptr1, len1 * 4, 4); }
                if (ptr0) { wasm.__wbindgen_export3(ptr0, len0 * 4, 4); }
                throw e;
            }
            wasm.database_plan(retptr, this.__wbg_ptr, val3, ptr0, len0, ptr1, len1);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.populationMarkdown()`: the AlphaEvolve strategy's `## 🧬 Population` section, newest first.
     *
     * ```js
     * fs.writeFileSync("population.md", db.populationMarkdown());
     * ```
     * @returns {string}
     */
    populationMarkdown() {
        let deferred1_0;
        let deferred1_1;
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_populationMarkdown(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            deferred1_0 = r0;
            deferred1_1 = r1;
            return getStringFromWasm0(r0, r1);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * `db.recordEvents(on)`: start (or stop) recording events; `db.takeEvents()` drains them.
     *
     * ```js
     * db.recordEvents(true);
     * db.add(request, now);
     * for (const e of db.takeEvents()) history.push(e); // {event: "added", …}, {event: "evicted", …}
     * ```
     * @param {boolean} on
     */
    recordEvents(on) {
        wasm.database_recordEvents(this.__wbg_ptr, on);
    }
    /**
     * `db.remeasure({id, metrics})`: folds a new measurement of live program `id` into its
     * metrics (their running mean, with the count in `measurements`) and re-ranks it.
     *
     * ```js
     * const { fitness, measurements } = db.remeasure({ id: best.id, metrics: { score: 0.41 } });
     * ```
     * @param {RemeasureRequest} request
     * @returns {any}
     */
    remeasure(request) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_remeasure(retptr, this.__wbg_ptr, addHeapObject(request));
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `Database.replay(events)`: rebuilds a database from its events (the first is `created`).
     *
     * ```js
     * const again = Database.replay(history); // same toJson() as the original
     * ```
     * @param {Event[]} events
     * @returns {Database}
     */
    static replay(events) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_replay(retptr, addHeapObject(events));
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return Database.__wrap(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.sampleAt(target, now)`: `sample` at time `now` (seconds). A leased plan item whose
     * lease expired unanswered (its worker died) is handed out again in place of a draw: the
     * sample then carries its `planItem` and a new `lease` to answer it with.
     *
     * ```js
     * const s = db.sampleAt(undefined, Date.now() / 1000);
     * if (s.planItem) db.add({ ...candidate, planItem: s.planItem, token: s.lease.token }, now);
     * ```
     * @param {string | null | undefined} target
     * @param {number} now
     * @returns {Sample}
     */
    sampleAt(target, now) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const val2 = +now;
            var ptr0 = isLikeNone(target) ? 0 : passStringToWasm0(target, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            var len0 = WASM_VECTOR_LEN;
            wasm.database_sampleAt(retptr, this.__wbg_ptr, ptr0, len0, val2);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.sample(target?)`: `{parent, inspirations}`; `parent` is `null` for an empty database.
     * In a several-target run, `target` keeps every draw within that target's islands.
     *
     * ```js
     * const { parent, inspirations } = db.sample(); // the prompt's program and its examples
     * const forParser = db.sample("parse");
     * ```
     * @param {string | null} [target]
     * @returns {Sample}
     */
    sample(target) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            var ptr0 = isLikeNone(target) ? 0 : passStringToWasm0(target, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            var len0 = WASM_VECTOR_LEN;
            wasm.database_sample(retptr, this.__wbg_ptr, ptr0, len0);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.shouldStop(target?)`: `{stop, reason, evaluations, rounds, stagnation, bestFitness}`;
     * with `target`, that target's verdict.
     *
     * ```js
     * while (!db.shouldStop().stop) { const { parent } = db.sample(); db.add(await evolve(parent), now()); }
     * ```
     * @param {string | null} [target]
     * @returns {StopVerdict}
     */
    shouldStop(target) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            var ptr0 = isLikeNone(target) ? 0 : passStringToWasm0(target, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            var len0 = WASM_VECTOR_LEN;
            wasm.database_shouldStop(retptr, this.__wbg_ptr, ptr0, len0);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.stats()`: `{programCount, evaluations, bestProgramId, bestFitness, meanFitness,
     * baselineFitness, improvement, islands: [{island, size, bestProgramId, bestFitness, meanFitness}]}`.
     *
     * ```js
     * const { improvement, islands } = db.stats(); // improvement > 0: better than the seed program
     * ```
     * @returns {Stats}
     */
    stats() {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_stats(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.takeEvents()`: the events recorded since the last call, oldest first.
     *
     * ```js
     * const added = db.takeEvents().filter((e) => e.event === "added"); // typed by `event`
     * ```
     * @returns {Event[]}
     */
    takeEvents() {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_takeEvents(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `db.toJson()`: the whole database as `database.json` text.
     *
     * ```js
     * fs.writeFileSync("database.json", db.toJson()); // the same bytes the native core writes
     * ```
     * @returns {string}
     */
    toJson() {
        let deferred1_0;
        let deferred1_1;
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.database_toJson(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            deferred1_0 = r0;
            deferred1_1 = r1;
            return getStringFromWasm0(r0, r1);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * `Database.validate(text)`: every problem found in a `database.json` text (empty: sound).
     *
     * ```js
     * const problems = Database.validate(fs.readFileSync("database.json", "utf8"));
     * ```
     * @param {string} text
     * @returns {string[]}
     */
    static validate(text) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const ptr0 = passStringToWasm0(text, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            const len0 = WASM_VECTOR_LEN;
            wasm.database_validate(retptr, ptr0, len0);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var v2 = getArrayJsValueFromWasm0(r0, r1);
            wasm.__wbindgen_export3(r0, r1 * 4, 4);
            return v2;
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
}
if (Symbol.dispose) Database.prototype[Symbol.dispose] = Database.prototype.free;

/**
 * A saved run, event by event, with the engine's best program after each event.
 *
 * ```js
 * import { Replay } from "evodb";
 * const replay = Replay.open(databaseJson, historyNdjson); // history: null for a seed-written file
 * const events = JSON.parse(replay.eventsJson(0));           // [{event: "created", …}, …]
 * replay.bestAfter(events.length);                           // the run's best id, as `evodb best`
 * replay.append(newLines);                                   // a followed run's next lines
 * ```
 */
export class Replay {
    static __wrap(ptr) {
        const obj = Object.create(Replay.prototype);
        obj.__wbg_ptr = ptr;
        ReplayFinalization.register(obj, obj.__wbg_ptr, obj);
        return obj;
    }
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        ReplayFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_replay_free(ptr, 0);
    }
    /**
     * `replay.append(lines)`: a followed run's new `history.ndjson` lines, re-run and added;
     * returns how many events were added (an operation not yet whole waits for its next lines).
     * @param {string} lines
     * @returns {number}
     */
    append(lines) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const ptr0 = passStringToWasm0(lines, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            const len0 = WASM_VECTOR_LEN;
            wasm.replay_append(retptr, this.__wbg_ptr, ptr0, len0);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return r0 >>> 0;
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `replay.bestAfter(k)`: the best program's id once the first `k` events have happened
     * (`undefined` before any program).
     * @param {number} k
     * @returns {string | undefined}
     */
    bestAfter(k) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.replay_bestAfter(retptr, this.__wbg_ptr, k);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            let v1;
            if (r0 !== 0) {
                v1 = getStringFromWasm0(r0, r1);
                wasm.__wbindgen_export3(r0, r1 * 1, 1);
            }
            return v1;
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `replay.eventsJson(from)`: the events from index `from` on, as one JSON array's text.
     * @param {number} from
     * @returns {string}
     */
    eventsJson(from) {
        let deferred1_0;
        let deferred1_1;
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.replay_eventsJson(retptr, this.__wbg_ptr, from);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            deferred1_0 = r0;
            deferred1_1 = r1;
            return getStringFromWasm0(r0, r1);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
    /**
     * `replay.length`: how many events the run has so far.
     * @returns {number}
     */
    get length() {
        const ret = wasm.replay_length(this.__wbg_ptr);
        return ret >>> 0;
    }
    /**
     * `replay.note`: why the events are re-inserted rather than recorded (`undefined`: they are recorded).
     * @returns {string | undefined}
     */
    get note() {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.replay_note(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            let v1;
            if (r0 !== 0) {
                v1 = getStringFromWasm0(r0, r1);
                wasm.__wbindgen_export3(r0, r1 * 1, 1);
            }
            return v1;
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `Replay.open(databaseJson, historyNdjson?)`: the run `database.json` and its
     * `history.ndjson` record, re-run by the engine; without a history (or one that does not
     * start at the run's creation), the file's programs re-inserted.
     * @param {string} database_json
     * @param {string | null} [history]
     * @returns {Replay}
     */
    static open(database_json, history) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            let ptr0, len0, ptr1, len1;
            try {
                ptr0 = passStringToWasm0(database_json, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len0 = WASM_VECTOR_LEN;
                ptr1 = isLikeNone(history) ? 0 : passStringToWasm0(history, wasm.__wbindgen_export, wasm.__wbindgen_export2);
                len1 = WASM_VECTOR_LEN;
            } catch (e) {
                if (ptr1) { wasm.__wbindgen_export3(ptr1, len1 * 1, 1); }
                if (ptr0) { wasm.__wbindgen_export3(ptr0, len0 * 1, 1); }
                throw e;
            }
            wasm.replay_open(retptr, ptr0, len0, ptr1, len1);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return Replay.__wrap(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `replay.stats()`: the run's statistics after its last event, as `Database.stats()`
     * (`null` when its programs were re-inserted from the file rather than re-run).
     *
     * ```js
     * const stats = replay.stats();
     * stats?.attribution; // per operator × model × island: candidates, improvements, cost
     * ```
     * @returns {Stats | null}
     */
    stats() {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.replay_stats(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
}
if (Symbol.dispose) Replay.prototype[Symbol.dispose] = Replay.prototype.free;

/**
 * A synthetic evolution with no LLM: sample → mutate → evaluate → add, from a seed.
 *
 * ```js
 * import { Simulation } from "evodb";
 * const sim = new Simulation({ numIslands: 4 }, 7, { terms: 4, ruggedness: 0.5 });
 * const events = sim.step(100);        // [{event: "created", …}, {event: "added", …}, …]
 * sim.stats().bestFitness;             // same as `evodb demo --seed 7 --iterations 100 …`
 * ```
 */
export class Simulation {
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        SimulationFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_simulation_free(ptr, 0);
    }
    /**
     * `sim.bestId`: the best program's id (`undefined` before any), without copying its code.
     * @returns {string | undefined}
     */
    get bestId() {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.simulation_bestId(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            let v1;
            if (r0 !== 0) {
                v1 = getStringFromWasm0(r0, r1);
                wasm.__wbindgen_export3(r0, r1 * 1, 1);
            }
            return v1;
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `sim.best()`: the best program, or `null`.
     * @returns {BestProgram | null}
     */
    best() {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.simulation_best(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `sim.iteration`: iterations run so far (the seed program is iteration 0).
     * @returns {number}
     */
    get iteration() {
        const ret = wasm.simulation_iteration(this.__wbg_ptr);
        return ret;
    }
    /**
     * `new Simulation(config?, seed?, landscape?)`: creates the database and adds the seed
     * program; `landscape` is `{terms: 2–8, ruggedness: 0–1}` (default `{terms: 4, ruggedness: 0}`).
     * @param {Config | null} [config]
     * @param {number | null} [seed]
     * @param {Landscape | null} [landscape]
     */
    constructor(config, seed, landscape) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            const val1 = +(isLikeNone(seed) ? 0 : seed);
            wasm.simulation_new(retptr, addHeapObject(config), !isLikeNone(seed), val1, addHeapObject(landscape));
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            this.__wbg_ptr = r0;
            SimulationFinalization.register(this, this.__wbg_ptr, this);
            return this;
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `sim.stats()`: the database's statistics, as `Database.stats()`.
     * @returns {Stats}
     */
    stats() {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.simulation_stats(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `sim.step(n)`: runs `n` iterations and returns the events since the last call.
     * @param {number} n
     * @returns {Event[]}
     */
    step(n) {
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.simulation_step(retptr, this.__wbg_ptr, n);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
            if (r2) {
                throw takeObject(r1);
            }
            return takeObject(r0);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
        }
    }
    /**
     * `sim.toJson()`: the database as `database.json` text (what `evodb demo` writes).
     * @returns {string}
     */
    toJson() {
        let deferred1_0;
        let deferred1_1;
        try {
            const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
            wasm.simulation_toJson(retptr, this.__wbg_ptr);
            var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
            var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
            deferred1_0 = r0;
            deferred1_1 = r1;
            return getStringFromWasm0(r0, r1);
        } finally {
            wasm.__wbindgen_add_to_stack_pointer(16);
            wasm.__wbindgen_export3(deferred1_0, deferred1_1, 1);
        }
    }
}
if (Symbol.dispose) Simulation.prototype[Symbol.dispose] = Simulation.prototype.free;

/**
 * `addRequestFromFlags(command, flags)`: the add request `seed`'s or `add`'s flags give (files
 * already read), checked with the engine's own rules; throws an `EvodbError` (`usage` for a
 * missing flag, `invalid-input` naming the field otherwise).
 *
 * ```js
 * addRequestFromFlags("seed", { codePath: "a.py", targetCode: "x = 1", metrics: '{"score": 1}' });
 * // { codePath: "a.py", targetCode: "x = 1", parentId: "0", metrics: { score: 1 }, changes: "initial implementation" }
 * ```
 * @param {string} command
 * @param {AddFlags} flags
 * @returns {AddRequest}
 */
export function addRequestFromFlags(command, flags) {
    try {
        const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
        const ptr0 = passStringToWasm0(command, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        wasm.addRequestFromFlags(retptr, ptr0, len0, addHeapObject(flags));
        var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
        var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
        var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
        if (r2) {
            throw takeObject(r1);
        }
        return takeObject(r0);
    } finally {
        wasm.__wbindgen_add_to_stack_pointer(16);
    }
}

/**
 * `checkAddFlags(command, given)`: refuses the first flag `seed` or `add` requires that `given`
 * (the flag names on the command line) lacks, in the seed's order, before any file is read.
 * Throws an `EvodbError` with `code` `usage` and the seed's message.
 *
 * ```js
 * checkAddFlags("add", ["codePath", "targetCodeFile", "metrics"]);
 * // throws EvodbError: Missing required flag: --parentId
 * ```
 * @param {string} command
 * @param {string[]} given
 */
export function checkAddFlags(command, given) {
    try {
        const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
        let ptr0, len0, ptr1, len1;
        try {
            ptr0 = passStringToWasm0(command, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            len0 = WASM_VECTOR_LEN;
            ptr1 = passArrayJsValueToWasm0(given, wasm.__wbindgen_export);
            len1 = WASM_VECTOR_LEN;
        } catch (e) {
            if (ptr1) { for (let i = 0; i < len1; i++) dropObject(getDataViewMemory0().getUint32(ptr1 + 4 * i, true)); wasm.__wbindgen_export3(ptr1, len1 * 4, 4); }
            if (ptr0) { wasm.__wbindgen_export3(ptr0, len0 * 1, 1); }
            throw e;
        }
        wasm.checkAddFlags(retptr, ptr0, len0, ptr1, len1);
        var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
        var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
        if (r1) {
            throw takeObject(r0);
        }
    } finally {
        wasm.__wbindgen_add_to_stack_pointer(16);
    }
}

/**
 * `checkSeed(seed)`: refuses a PRNG seed (decimal text, any size) above 2^53-1, the most a
 * database keeps exact in every face.
 *
 * ```js
 * checkSeed("9007199254740993"); // throws EvodbError: invalid config: `seed` is 9007199254740993; …
 * ```
 * @param {string} seed
 */
export function checkSeed(seed) {
    try {
        const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
        const ptr0 = passStringToWasm0(seed, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        wasm.checkSeed(retptr, ptr0, len0);
        var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
        var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
        if (r1) {
            throw takeObject(r0);
        }
    } finally {
        wasm.__wbindgen_add_to_stack_pointer(16);
    }
}

/**
 * `configFromFlags(flags, program)`: the config JSON text `init`'s flags give, for
 * `new Database(JSON.parse(text), seed)` to validate. Throws an `EvodbError` whose `code` is
 * `usage` (a flag's form: exit 2) or `invalid-input` (a value that is not JSON: exit 1).
 *
 * ```js
 * configFromFlags({ scalars: [["numIslands", "4"]], fitness: "primary:score" }, "db-cli.mjs");
 * // '{"numIslands":4,"fitness":{"kind":"primary","metric":"score"}}'
 * ```
 * @param {ConfigFlags} flags
 * @param {string} program
 * @returns {string}
 */
export function configFromFlags(flags, program) {
    let deferred3_0;
    let deferred3_1;
    try {
        const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
        const ptr0 = passStringToWasm0(program, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        wasm.configFromFlags(retptr, addHeapObject(flags), ptr0, len0);
        var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
        var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
        var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
        var r3 = getDataViewMemory0().getInt32(retptr + 4 * 3, true);
        var ptr2 = r0;
        var len2 = r1;
        if (r3) {
            ptr2 = 0; len2 = 0;
            throw takeObject(r2);
        }
        deferred3_0 = ptr2;
        deferred3_1 = len2;
        return getStringFromWasm0(ptr2, len2);
    } finally {
        wasm.__wbindgen_add_to_stack_pointer(16);
        wasm.__wbindgen_export3(deferred3_0, deferred3_1, 1);
    }
}

/**
 * `embeddingFromFlag(text)`: `--embedding`'s JSON text as the list of numbers it gives; throws
 * an `EvodbError` (`invalid-input`) for text that is no such list.
 *
 * ```js
 * embeddingFromFlag("[0.5, -1]"); // [0.5, -1]
 * ```
 * @param {string} text
 * @returns {Float64Array}
 */
export function embeddingFromFlag(text) {
    try {
        const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
        const ptr0 = passStringToWasm0(text, wasm.__wbindgen_export, wasm.__wbindgen_export2);
        const len0 = WASM_VECTOR_LEN;
        wasm.embeddingFromFlag(retptr, ptr0, len0);
        var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
        var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
        var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
        var r3 = getDataViewMemory0().getInt32(retptr + 4 * 3, true);
        if (r3) {
            throw takeObject(r2);
        }
        var v2 = getArrayF64FromWasm0(r0, r1).slice();
        wasm.__wbindgen_export3(r0, r1 * 8, 8);
        return v2;
    } finally {
        wasm.__wbindgen_add_to_stack_pointer(16);
    }
}

/**
 * `policyCheck(changedFiles, targetFile, protectedPatterns?)`: `{pass, reason}` — evo-anything's rule
 * that a candidate changes only its target file and no protected one (`benchmark*.py`,
 * `eval*.py`, `*.sh` by default).
 *
 * ```js
 * policyCheck(["model.py", "benchmark.py"], "model.py"); // {pass: false, reason: "Protected file modified: 'benchmark.py'"}
 * ```
 * @param {string[]} changedFiles
 * @param {string} targetFile
 * @param {string[] | null} [protectedPatterns]
 * @returns {PolicyVerdict}
 */
export function policyCheck(changedFiles, targetFile, protectedPatterns) {
    try {
        const retptr = wasm.__wbindgen_add_to_stack_pointer(-16) >>> 0;
        let ptr0, len0, ptr1, len1, ptr2, len2;
        try {
            ptr0 = passArrayJsValueToWasm0(changedFiles, wasm.__wbindgen_export);
            len0 = WASM_VECTOR_LEN;
            ptr1 = passStringToWasm0(targetFile, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            len1 = WASM_VECTOR_LEN;
            ptr2 = isLikeNone(protectedPatterns) ? 0 : passArrayJsValueToWasm0(protectedPatterns, wasm.__wbindgen_export);
            len2 = WASM_VECTOR_LEN;
        } catch (e) {
            if (ptr2) { for (let i = 0; i < len2; i++) dropObject(getDataViewMemory0().getUint32(ptr2 + 4 * i, true)); wasm.__wbindgen_export3(ptr2, len2 * 4, 4); }
            if (ptr1) { wasm.__wbindgen_export3(ptr1, len1 * 1, 1); }
            if (ptr0) { for (let i = 0; i < len0; i++) dropObject(getDataViewMemory0().getUint32(ptr0 + 4 * i, true)); wasm.__wbindgen_export3(ptr0, len0 * 4, 4); }
            throw e;
        }
        wasm.policyCheck(retptr, ptr0, len0, ptr1, len1, ptr2, len2);
        var r0 = getDataViewMemory0().getInt32(retptr + 4 * 0, true);
        var r1 = getDataViewMemory0().getInt32(retptr + 4 * 1, true);
        var r2 = getDataViewMemory0().getInt32(retptr + 4 * 2, true);
        if (r2) {
            throw takeObject(r1);
        }
        return takeObject(r0);
    } finally {
        wasm.__wbindgen_add_to_stack_pointer(16);
    }
}
function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
        __wbg_Error_208446807d0d1e30: function(arg0, arg1) {
            const ret = Error(getStringFromWasm0(arg0, arg1));
            return addHeapObject(ret);
        },
        __wbg___wbindgen_debug_string_f249a2a76caa9a55: function(arg0, arg1) {
            const ret = debugString(getObject(arg1));
            const ptr1 = passStringToWasm0(ret, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            const len1 = WASM_VECTOR_LEN;
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
        },
        __wbg___wbindgen_is_null_c22311b1cc228e3a: function(arg0) {
            const ret = getObject(arg0) === null;
            return ret;
        },
        __wbg___wbindgen_is_string_fc456fee5d3317de: function(arg0) {
            const ret = typeof(getObject(arg0)) === 'string';
            return ret;
        },
        __wbg___wbindgen_is_undefined_be5b34249ff1fc15: function(arg0) {
            const ret = getObject(arg0) === undefined;
            return ret;
        },
        __wbg___wbindgen_string_get_7ce8eee7fd327545: function(arg0, arg1) {
            const obj = getObject(arg1);
            const ret = typeof(obj) === 'string' ? obj : undefined;
            var ptr1 = isLikeNone(ret) ? 0 : passStringToWasm0(ret, wasm.__wbindgen_export, wasm.__wbindgen_export2);
            var len1 = WASM_VECTOR_LEN;
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
        },
        __wbg___wbindgen_throw_4c88d8bf264fd984: function(arg0, arg1) {
            throw new Error(getStringFromWasm0(arg0, arg1));
        },
        __wbg_new_37eb45aaf5eeb820: function() {
            const ret = new Array();
            return addHeapObject(ret);
        },
        __wbg_new_7075786089b89c5e: function() {
            const ret = new Map();
            return addHeapObject(ret);
        },
        __wbg_new_787b9fb330d55d78: function(arg0, arg1) {
            const ret = new Error(getStringFromWasm0(arg0, arg1));
            return addHeapObject(ret);
        },
        __wbg_new_cd4348290afae586: function() {
            const ret = new Object();
            return addHeapObject(ret);
        },
        __wbg_set_2793479888329cb6: function() { return handleError(function (arg0, arg1, arg2) {
            const ret = Reflect.set(getObject(arg0), getObject(arg1), getObject(arg2));
            return ret;
        }, arguments); },
        __wbg_set_8282f7e0d2d01336: function(arg0, arg1, arg2) {
            const ret = getObject(arg0).set(getObject(arg1), getObject(arg2));
            return addHeapObject(ret);
        },
        __wbg_set_d2d33b52458e984a: function(arg0, arg1, arg2) {
            getObject(arg0)[arg1 >>> 0] = takeObject(arg2);
        },
        __wbg_set_e4b9a833d288759a: function(arg0, arg1, arg2) {
            getObject(arg0)[takeObject(arg1)] = takeObject(arg2);
        },
        __wbg_set_name_822e3903f3184979: function(arg0, arg1, arg2) {
            getObject(arg0).name = getStringFromWasm0(arg1, arg2);
        },
        __wbg_stringify_0a0fbf2ef722380a: function() { return handleError(function (arg0) {
            const ret = JSON.stringify(getObject(arg0));
            return addHeapObject(ret);
        }, arguments); },
        __wbindgen_generic_0000000000000001: function(arg0) {
            // Cast intrinsic for `F64 -> Externref`.
            const ret = arg0;
            return addHeapObject(ret);
        },
        __wbindgen_generic_0000000000000002: function(arg0, arg1) {
            // Cast intrinsic for `Ref(String) -> Externref`.
            const ret = getStringFromWasm0(arg0, arg1);
            return addHeapObject(ret);
        },
        __wbindgen_generic_0000000000000003: function(arg0) {
            // Cast intrinsic for `U64 -> Externref`.
            const ret = BigInt.asUintN(64, arg0);
            return addHeapObject(ret);
        },
        __wbindgen_object_clone_ref: function(arg0) {
            const ret = getObject(arg0);
            return addHeapObject(ret);
        },
        __wbindgen_object_drop_ref: function(arg0) {
            takeObject(arg0);
        },
    };
    return {
        __proto__: null,
        "./evodb_bg.js": import0,
    };
}

const CodeSignaturesFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_codesignatures_free(ptr, 1));
const DatabaseFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_database_free(ptr, 1));
const ReplayFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_replay_free(ptr, 1));
const SimulationFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_simulation_free(ptr, 1));

function addHeapObject(obj) {
    if (heap_next === heap.length) heap.push(heap.length + 1);
    const idx = heap_next;
    heap_next = heap[idx];

    heap[idx] = obj;
    return idx;
}

function debugString(val) {
    switch (typeof val) {
        // primitive types
        case 'number':
        case 'boolean':
        case 'undefined':
        return `${val}`;
        case 'string':
        return JSON.stringify(val);
        case 'bigint':
        return `${val}n`;
        case 'symbol':
        return val.description !== undefined
            ? `Symbol(${val.description})`
            : 'Symbol';
        case 'function':
        return typeof val.name === 'string' && val.name !== ''
            ? `Function(${val.name})`
            : 'Function';
        case 'object': {
            if (val === null) {
                return 'null';
            }
            // objects
            if (Array.isArray(val)) {
                return '[' + Array.from(val, debugString).join(', ') + ']';
            }
            // errors
            if (val instanceof Error) {
                return `${val.name}: ${val.message}\n${val.stack}`;
            }

            const toStringOutput = toString.call(val);
            // Test for built-in
            const className = /\[object ([^\]]+)\]/.exec(toStringOutput)?.[1];

            // Failed to match the standard '[object ClassName]'
            if (className === undefined) {
                return toStringOutput;
            }
            if (className === 'Object') {
                // we're a user defined class or Object
                // JSON.stringify avoids problems with cycles, and is generally much
                // easier than looping through ownProperties of `val`.
                try {
                    return 'Object(' + JSON.stringify(val) + ')';
                } catch (_) {
                    return 'Object';
                }
            }
            // TODO we could test for more things here, like `Set`s and `Map`s.
            return className;
        }
        // Per MDN: 'This list of values is exhaustive.'
        // https://developer.mozilla.org/en-US/docs/Web/JavaScript/Reference/Operators/typeof#description
    }
}

function dropObject(idx) {
    if (idx < 1028) return;
    heap[idx] = heap_next;
    heap_next = idx;
}

function getArrayF64FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getFloat64ArrayMemory0().subarray(ptr / 8, ptr / 8 + len);
}

function getArrayJsValueFromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    const mem = getDataViewMemory0();
    const result = [];
    for (let i = ptr; i < ptr + 4 * len; i += 4) {
        result.push(takeObject(mem.getUint32(i, true)));
    }
    return result;
}

let cachedDataViewMemory0 = null;
function getDataViewMemory0() {
    if (cachedDataViewMemory0 === null || cachedDataViewMemory0.buffer.detached === true || (cachedDataViewMemory0.buffer.detached === undefined && cachedDataViewMemory0.buffer !== wasm.memory.buffer)) {
        cachedDataViewMemory0 = new DataView(wasm.memory.buffer);
    }
    return cachedDataViewMemory0;
}

let cachedFloat64ArrayMemory0 = null;
function getFloat64ArrayMemory0() {
    if (cachedFloat64ArrayMemory0 === null || cachedFloat64ArrayMemory0.byteLength === 0) {
        cachedFloat64ArrayMemory0 = new Float64Array(wasm.memory.buffer);
    }
    return cachedFloat64ArrayMemory0;
}

function getStringFromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return decodeText(getUint8ArrayMemory0().subarray(ptr, ptr + len));
}

let cachedUint32ArrayMemory0 = null;
function getUint32ArrayMemory0() {
    if (cachedUint32ArrayMemory0 === null || cachedUint32ArrayMemory0.byteLength === 0) {
        cachedUint32ArrayMemory0 = new Uint32Array(wasm.memory.buffer);
    }
    return cachedUint32ArrayMemory0;
}

let cachedUint8ArrayMemory0 = null;
function getUint8ArrayMemory0() {
    if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {
        cachedUint8ArrayMemory0 = new Uint8Array(wasm.memory.buffer);
    }
    return cachedUint8ArrayMemory0;
}

function getObject(idx) { return heap[idx]; }

function handleError(f, args) {
    try {
        return f.apply(this, args);
    } catch (e) {
        wasm.__wbindgen_export4(addHeapObject(e));
    }
}

let heap = new Array(1024).fill(undefined);
heap.push(undefined, null, true, false);

let heap_next = heap.length;

function isLikeNone(x) {
    return x === undefined || x === null;
}

function passArray32ToWasm0(arg, malloc) {
    const ptr = malloc(arg.length * 4, 4) >>> 0;
    getUint32ArrayMemory0().set(arg, ptr / 4);
    WASM_VECTOR_LEN = arg.length;
    return ptr;
}

function passArrayF64ToWasm0(arg, malloc) {
    const ptr = malloc(arg.length * 8, 8) >>> 0;
    getFloat64ArrayMemory0().set(arg, ptr / 8);
    WASM_VECTOR_LEN = arg.length;
    return ptr;
}

function passArrayJsValueToWasm0(array, malloc) {
    const ptr = malloc(array.length * 4, 4) >>> 0;
    const mem = getDataViewMemory0();
    for (let i = 0; i < array.length; i++) {
        mem.setUint32(ptr + 4 * i, addHeapObject(array[i]), true);
    }
    WASM_VECTOR_LEN = array.length;
    return ptr;
}

function passStringToWasm0(arg, malloc, realloc) {
    if (realloc === undefined) {
        const buf = cachedTextEncoder.encode(arg);
        const ptr = malloc(buf.length, 1) >>> 0;
        getUint8ArrayMemory0().subarray(ptr, ptr + buf.length).set(buf);
        WASM_VECTOR_LEN = buf.length;
        return ptr;
    }

    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;

    const mem = getUint8ArrayMemory0();

    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }
        ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
        const view = getUint8ArrayMemory0().subarray(ptr + offset, ptr + len);
        const ret = cachedTextEncoder.encodeInto(arg, view);

        offset += ret.written;
        ptr = realloc(ptr, len, offset, 1) >>> 0;
    }

    WASM_VECTOR_LEN = offset;
    return ptr;
}

function takeObject(idx) {
    const ret = getObject(idx);
    dropObject(idx);
    return ret;
}

let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
cachedTextDecoder.decode();
const MAX_SAFARI_DECODE_BYTES = 2146435072;
let numBytesDecoded = 0;
function decodeText(bytes) {
    numBytesDecoded += bytes.length;
    if (numBytesDecoded >= MAX_SAFARI_DECODE_BYTES) {
        cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
        cachedTextDecoder.decode();
        numBytesDecoded = bytes.length;
    }
    return cachedTextDecoder.decode(bytes);
}

const cachedTextEncoder = new TextEncoder();

if (!('encodeInto' in cachedTextEncoder)) {
    cachedTextEncoder.encodeInto = function (arg, view) {
        const buf = cachedTextEncoder.encode(arg);
        view.set(buf);
        return {
            read: arg.length,
            written: buf.length
        };
    };
}

let WASM_VECTOR_LEN = 0;

let wasmModule, wasmInstance, wasm;
function __wbg_finalize_init(instance, module) {
    wasmInstance = instance;
    wasm = instance.exports;
    wasmModule = module;
    cachedDataViewMemory0 = null;
    cachedFloat64ArrayMemory0 = null;
    cachedUint32ArrayMemory0 = null;
    cachedUint8ArrayMemory0 = null;
    return wasm;
}

async function __wbg_load(module, imports) {
    if (typeof Response === 'function' && module instanceof Response) {
        if (!module.ok) {
            throw new Error(`failed to fetch Wasm: ${module.status} ${module.statusText} fetching '${module.url}'`);
        }

        if (typeof WebAssembly.instantiateStreaming === 'function') {
            try {
                return await WebAssembly.instantiateStreaming(module, imports);
            } catch (e) {
                const validResponse = expectedResponseType(module.type);

                if (validResponse && module.headers.get('Content-Type') !== 'application/wasm') {
                    console.warn("`WebAssembly.instantiateStreaming` failed because your server does not serve Wasm with `application/wasm` MIME type. Falling back to `WebAssembly.instantiate` which is slower. Original error:\n", e);

                } else { throw e; }
            }
        }

        const bytes = await module.arrayBuffer();
        return await WebAssembly.instantiate(bytes, imports);
    } else {
        const instance = await WebAssembly.instantiate(module, imports);

        if (instance instanceof WebAssembly.Instance) {
            return { instance, module };
        } else {
            return instance;
        }
    }

    function expectedResponseType(type) {
        switch (type) {
            case 'basic': case 'cors': case 'default': return true;
        }
        return false;
    }
}

function initSync(module) {
    if (wasm !== undefined) return wasm;


    if (module !== undefined) {
        if (Object.getPrototypeOf(module) === Object.prototype) {
            ({module} = module)
        } else {
            console.warn('using deprecated parameters for `initSync()`; pass a single object instead')
        }
    }

    const imports = __wbg_get_imports();
    if (!(module instanceof WebAssembly.Module)) {
        module = new WebAssembly.Module(module);
    }
    const instance = new WebAssembly.Instance(module, imports);
    return __wbg_finalize_init(instance, module);
}

let __wbg_init_promise;
async function __wbg_init(module_or_path) {
    if (wasm !== undefined) return wasm;
    if (__wbg_init_promise === undefined) {
        __wbg_init_promise = __wbg_init_once(module_or_path);
        __wbg_init_promise.catch(() => { __wbg_init_promise = undefined; });
    }
    return __wbg_init_promise;
}

async function __wbg_init_once(module_or_path) {

    if (module_or_path !== undefined) {
        if (Object.getPrototypeOf(module_or_path) === Object.prototype) {
            ({module_or_path} = module_or_path)
        } else {
            console.warn('using deprecated parameters for the initialization function; pass a single object instead')
        }
    }

    if (module_or_path === undefined) {
        module_or_path = new URL('evodb_bg.wasm', import.meta.url);
    }
    const imports = __wbg_get_imports();

    if (typeof module_or_path === 'string' || (typeof Request === 'function' && module_or_path instanceof Request) || (typeof URL === 'function' && module_or_path instanceof URL)) {
        module_or_path = fetch(module_or_path);
    }

    const { instance, module } = await __wbg_load(await module_or_path, imports);

    return __wbg_finalize_init(instance, module);
}

export { initSync, __wbg_init as default };
