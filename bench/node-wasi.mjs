// node-wasi.mjs — runs a wasm32-wasi command module under node's WASI.
//
//   node --experimental-wasi-unstable-preview1 bench/node-wasi.mjs [--dir=HOST] X.wasm [args...]
//
// The module sees argv [X.wasm, args...], the caller's environment and no
// preopened directories but HOST, seen as "/" (bench/run --corpus); its
// exit code becomes node's.
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import process from 'node:process';

let argv = process.argv.slice(2);
const preopens = {};
if (argv.length && argv[0].startsWith('--dir=')) {
  preopens['/'] = argv[0].slice(6);
  argv = argv.slice(1);
}
const path = argv[0];
if (!path) {
  process.stderr.write('usage: node-wasi.mjs module.wasm [args...]\n');
  process.exit(2);
}
const wasi = new WASI({
  version: 'preview1',
  args: argv,
  env: process.env,
  preopens,
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(path));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
// A command that still exports _initialize (the corpus's ruby.wasm, a
// reactor merged with a driver whose _start calls it) is run as weft runs
// it, _start only: node's start() refuses a module exporting both.
const { _start, _initialize } = instance.exports;
process.exitCode = wasi.start(_start && _initialize
  ? { exports: { ...instance.exports, _initialize: undefined } } : instance);
