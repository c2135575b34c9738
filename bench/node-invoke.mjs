// node-invoke.mjs — calls one export of a wasm32-wasi module under node,
// as `weft run --invoke` does: instantiate (with node's WASI imports), no
// _start, call NAME with integer arguments, print the result.
//
//   node bench/node-invoke.mjs X.wasm NAME [ints...]
//
// bench/run's `bigmod first` case: start-up plus one function's first call.
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import process from 'node:process';

const [path, name, ...args] = process.argv.slice(2);
if (!path || !name) {
  process.stderr.write('usage: node-invoke.mjs module.wasm NAME [ints...]\n');
  process.exit(2);
}
const wasi = new WASI({ version: 'preview1', args: [path], env: {}, preopens: {} });
const module = await WebAssembly.compile(await readFile(path));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
const fn = instance.exports[name];
if (typeof fn !== 'function') {
  process.stderr.write(`node-invoke.mjs: no exported function ${name}\n`);
  process.exit(2);
}
console.log(String(fn(...args.map(Number))));
