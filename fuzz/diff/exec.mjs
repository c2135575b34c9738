// exec.mjs — the V8 side of the differential fuzzer (fuzz/README.md,
// target diff/): runs modules made by binaryen's `wasm-opt -ttf` in node
// through the WebAssembly JS API and prints what they do, in exactly the
// format of fuzz/diff/exec.c (see there for every line), so that
// fuzz/diff/run can compare the two outputs.
//
//   node exec.mjs MODULE.wasm...
//
// Many modules per process, because node starts slowly; each begins with
// its "[module PATH]" line. The JS API does not show a function's
// parameter types, and a missing argument would not be a zero (undefined
// is NaN as a float, an error as an i64, a non-null externref), so the
// type, import, function and export sections are read here (§5.5).
// Values, traps and NaNs are printed as exec.c prints them: NaN as "nan"
// (the spec allows any payload for arithmetic results, and V8 does not keep
// payloads across the JS boundary), a trap as its kind only, an
// exception as "[exception]" (a WebAssembly.Exception: the module's tags are
// not exported, so its tag and payload cannot be read here) or
// "[exception TypeError]" (V8's TypeError for a v128 or an exnref crossing
// to or from JS, which exec.c imitates). The imports (binaryen 132's
// call-export, throw, sleep, ..., its tags and externref globals) are
// given the meaning exec.c's file comment says, the same on both sides.
import { readFileSync } from 'node:fs';

const VALTYPES = {
  0x7f: 'i32', 0x7e: 'i64', 0x7d: 'f32', 0x7c: 'f64', 0x7b: 'v128', 0x70: 'funcref', 0x6f: 'externref',
  0x69: 'exnref',
};
// (ref null? HT) (Wasm 3.0 §5.3.3), as exec.c sees it (weft.h): the
// hierarchy's top type; a concrete type index is a function type here (no GC).
const HEAPTYPES = { 0x70: 'funcref', 0x73: 'funcref', 0x6f: 'externref', 0x72: 'externref', 0x69: 'exnref', 0x74: 'exnref' };
const ZERO = { i32: 0, i64: 0n, f32: 0, f64: 0, funcref: null, externref: null };
// What JS cannot pass to or take from wasm: V8 throws a TypeError.
const NOT_FOR_JS = new Set(['v128', 'exnref']);
// The non-null reference every externref global import gets (exec.c).
const EXTERNREF = {};

// V8's trap messages, grouped into the kinds of exec.c's trap_kind.
const TRAPS = [
  [/unreachable/, 'unreachable'],
  [/memory access out of bounds|data segment is out of bounds/, 'memory'],
  [/table index is out of bounds/, 'table'],
  [/null function or function signature mismatch/, 'indirect'],
  [/divide by zero|remainder by zero/, 'div'],
  [/divide result unrepresentable|float unrepresentable in integer range/, 'overflow'],
  [/operation does not support unaligned accesses/, 'unaligned'],
  [/rethrowing null value|dereferencing a null pointer/, 'null'],
];

// Imports and exports in module order, functions with their types
// ({params, results} as type names). The module has been validated.
function readSignatures(bytes) {
  let pos = 8;
  const u32 = () => {
    let r = 0, shift = 0, b;
    do {
      b = bytes[pos++];
      r |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80);
    return r >>> 0;
  };
  const vec = (read) => Array.from({ length: u32() }, read);
  const name = () => {
    const n = u32();
    pos += n;
    return new TextDecoder().decode(bytes.subarray(pos - n, pos));
  };
  const valtype = () => {
    const b = bytes[pos++];
    if (b === 0x63 || b === 0x64) {
      const h = bytes[pos];
      if (h & 0x40) { // an abstract heap type: one negative s33 byte
        pos++;
        const t = HEAPTYPES[h];
        if (!t) throw new Error(`heap type 0x${h.toString(16)}`);
        return t;
      }
      u32(); // a type index (s33, non-negative): a function type without GC
      return 'funcref';
    }
    const t = VALTYPES[b];
    if (!t) throw new Error(`value type 0x${b.toString(16)}`);
    return t;
  };
  const limits = () => {
    const flags = bytes[pos++];
    u32();
    if (flags & 1) u32();
  };
  const types = [], funcs = [], imports = [], exports = [];
  while (pos < bytes.length) {
    const id = bytes[pos++];
    const size = u32();
    const end = pos + size;
    if (id === 1) {
      for (let n = u32(); n > 0; n--) {
        if (bytes[pos++] !== 0x60) throw new Error('type is not a function type');
        types.push({ params: vec(valtype), results: vec(valtype) });
      }
    } else if (id === 2) {
      for (let n = u32(); n > 0; n--) {
        const imp = { module: name(), name: name(), kind: bytes[pos++] };
        if (imp.kind === 0) funcs.push(imp.type = types[u32()]);
        else if (imp.kind === 1) { valtype(); limits(); }
        else if (imp.kind === 2) limits();
        else if (imp.kind === 3) { imp.valtype = valtype(); imp.mutable = bytes[pos++] !== 0; }
        else if (imp.kind === 4) { pos++; imp.type = types[u32()]; } // a tag: attribute 0, type index
        else throw new Error(`import kind ${imp.kind}`);
        imports.push(imp);
      }
    } else if (id === 3) {
      for (let n = u32(); n > 0; n--) funcs.push(types[u32()]);
    } else if (id === 7) {
      for (let n = u32(); n > 0; n--) {
        const exp = { name: name(), kind: bytes[pos++] };
        const index = u32();
        if (exp.kind === 0) exp.type = funcs[index];
        exports.push(exp);
      }
    }
    pos = end;
  }
  return { imports, exports };
}

const scratch = new DataView(new ArrayBuffer(8));
function format(type, v) {
  switch (type) {
    case 'i32':
    case 'i64':
      return String(v);
    case 'f32':
      if (Number.isNaN(v)) return 'nan';
      scratch.setFloat32(0, v);
      return '0x' + scratch.getUint32(0).toString(16).padStart(8, '0');
    case 'f64':
      if (Number.isNaN(v)) return 'nan';
      scratch.setFloat64(0, v);
      return '0x' + scratch.getBigUint64(0).toString(16).padStart(16, '0');
    default:
      return v === null ? 'null' : 'ref';
  }
}
const formatAll = (types, values) => types.map((t, i) => ' ' + format(t, values[i])).join('');

// FNV-1a, 32 bits, as in exec.c.
function hashBytes(p) {
  let h = 2166136261;
  for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p[i], 16777619) >>> 0;
  return h;
}

// Prints a failed call or instantiation like exec.c's report_failure
// (prefix '' or 'instantiate '); true for stack exhaustion (the module ends
// there).
function reportFailure(out, e, prefix) {
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    out.push('[skip stack]');
    return true;
  }
  if (e instanceof WebAssembly.RuntimeError) {
    const kind = TRAPS.find(([re]) => re.test(e.message));
    out.push(`[${prefix}trap ${kind ? kind[1] : 'other: ' + e.message}]`);
  } else if (e instanceof WebAssembly.Exception) {
    out.push(`[${prefix}exception]`);
  } else if (e instanceof TypeError && /type incompatibility when transforming from\/to JS/.test(e.message)) {
    out.push(`[${prefix}exception TypeError]`);
  } else {
    out.push(`[error ${e}]`);
  }
  return false;
}

function runModule(path, out) {
  out.push(`[module ${path}]`);
  const bytes = new Uint8Array(readFileSync(path));
  let module;
  try {
    module = new WebAssembly.Module(bytes);
  } catch (e) {
    if (!(e instanceof WebAssembly.CompileError)) throw e;
    out.push('[invalid]');
    return;
  }
  const { imports, exports } = readSignatures(bytes);
  const importObject = {};
  for (const imp of imports) {
    let value;
    if (imp.kind === 4) {
      value = new WebAssembly.Tag({ parameters: imp.type.params });
    } else if (imp.kind === 3 && imp.valtype === 'externref' && !imp.mutable) {
      value = EXTERNREF;
    } else if (imp.module === 'fuzzing-support' && imp.kind === 0) {
      const { params, results } = imp.type;
      value = (...args) => {
        out.push(`[${imp.name}${formatAll(params, args)}]`);
        return results.length === 1 ? ZERO[results[0]] : results.map((t) => ZERO[t]);
      };
    } else {
      out.push(`[skip import ${imp.module}.${imp.name}]`);
      return;
    }
    importObject[imp.module] ??= {};
    importObject[imp.module][imp.name] = value;
  }
  let instance;
  try {
    instance = new WebAssembly.Instance(module, importObject);
  } catch (e) {
    reportFailure(out, e, 'instantiate ');
    return;
  }
  const hang = instance.exports.hangLimitInitializer;
  // Every exported memory, once, in the order of its first export (as
  // exec.c; the JS API gives one Memory object per memory).
  const memories = [];
  for (const exp of exports) {
    if (exp.kind === 2 && memories.length < 8 && !memories.includes(instance.exports[exp.name]))
      memories.push(instance.exports[exp.name]);
    if (exp.kind !== 0) continue;
    out.push(`[call ${exp.name}]`);
    const { params, results } = exp.type;
    try {
      if (hang) hang();
      const r = instance.exports[exp.name](...params.map((t) => ZERO[t]));
      const values = results.length === 1 ? [r] : results.length === 0 ? [] : [...r];
      out.push(`[result${formatAll(results, values)}]`);
    } catch (e) {
      if (reportFailure(out, e, '')) return;
    }
  }
  for (const memory of memories) {
    const data = new Uint8Array(memory.buffer);
    out.push(`[memory ${data.length / 65536} ${hashBytes(data).toString(16).padStart(8, '0')}]`);
  }
}

const paths = process.argv.slice(2);
if (paths.length === 0) {
  process.stderr.write('usage: node exec.mjs MODULE.wasm...\n');
  process.exit(1);
}
for (const path of paths) {
  const out = [];
  runModule(path, out);
  process.stdout.write(out.join('\n') + '\n');
}
