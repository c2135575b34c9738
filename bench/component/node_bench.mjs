// node_bench.mjs — the component benchmarks of bench/component (README
// there), jco's side: bench.wasm transpiled by `jco transpile
// --instantiation async` (into OUTDIR by run.sh), the same cases as
// weft_bench.c with the same arguments, the median of 7 batches.
//   node node_bench.mjs OUTDIR
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import process from 'node:process';

const dir = path.resolve(process.argv[2]);
const { instantiate } = await import(path.join(dir, 'bench.js'));
const core = await WebAssembly.compile(await readFile(path.join(dir, 'bench.core.wasm')));
const getCoreModule = () => core;
const BATCHES = 7;
const median = (v) => v.sort((a, b) => a - b)[BATCHES >> 1];
const now = () => Number(process.hrtime.bigint()) / 1e3; // microseconds

async function timeInstantiate(iters) {
  const t = [];
  for (let b = 0; b < BATCHES; b++) {
    const t0 = now();
    for (let i = 0; i < iters; i++) await instantiate(getCoreModule, {});
    t.push((now() - t0) / iters);
  }
  return median(t);
}

function timeCall(f, arg, iters) {
  const t = [];
  let r;
  for (let b = 0; b < BATCHES; b++) {
    const t0 = now();
    if (arg === undefined) for (let i = 0; i < iters; i++) r = f();
    else for (let i = 0; i < iters; i++) r = f(arg);
    t.push((now() - t0) / iters);
  }
  return [median(t), r];
}

const line = (label, us) => console.log(`${label.padEnd(22)} ${us.toFixed(3).padStart(10)} us`);
line('instantiate', await timeInstantiate(2000));
const inst = await instantiate(getCoreModule, {});
let str = '';
for (let i = 0; i < 1024; i++) str += String.fromCharCode(97 + (i % 26));
const cases = [
  ['call noop()', inst.noop, undefined, 200000, 'noop'],
  ['call string 1 KiB', inst.strLen, str, 50000, 'str-len'],
  ['call list<u32> x1000', inst.u32sLen, Array.from({ length: 1000 }, (_, i) => i), 5000, 'u32s-len'],
  ['call list<string> x100', inst.totalLen, Array.from({ length: 100 }, (_, i) => str.slice(i, i + 16)), 5000, 'total-len'],
  ['call list<u8> 64 KiB', inst.bytesLen, Uint8Array.from({ length: 65536 }, (_, i) => i & 0xff), 200, 'bytes-len'],
];
for (const [label, f, arg, iters, name] of cases) {
  const [us, r] = timeCall(f, arg, iters);
  line(label, us);
  if (arg !== undefined) console.log(`  check ${name} = ${r}`);
}
