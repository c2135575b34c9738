// node-wasi-threads.mjs — runs a wasi-threads command under node, for the
// thread benchmarks: the same .wasm weft runs, with one worker_thread per
// wasi.thread-spawn, one shared WebAssembly.Memory, and the module's own
// memory.atomic.wait32/notify (V8's Atomics). Only the WASI functions the
// benchmark guests import are provided.
//
//   node --no-liftoff bench/threads/node-wasi-threads.mjs FILE.wasm [ARGS...]
//
// --no-liftoff: with V8's baseline compiler (Liftoff), node v20.20 runs
// these modules wrongly on x86-64: tests/threads/wasm/mutex_counter.wasm
// counts up to 605698 instead of 80000 under a futex mutex, and the
// ping-pong hangs; with TurboFan only (--no-liftoff) both are right. The
// bench runner passes the flag.
import { readFileSync, writeSync } from 'node:fs';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const EAGAIN = 6;

function imports(memory, argv, spawn) {
  const view = () => new DataView(memory.buffer);
  const bytes = () => new Uint8Array(memory.buffer);
  const enc = new TextEncoder();
  const wasi = {
    fd_write(fd, iovs, n, nwritten) {
      let total = 0;
      for (let i = 0; i < n; i++) {
        const ptr = view().getUint32(iovs + 8 * i, true);
        const len = view().getUint32(iovs + 8 * i + 4, true);
        writeSync(fd, bytes().slice(ptr, ptr + len));
        total += len;
      }
      view().setUint32(nwritten, total, true);
      return 0;
    },
    fd_read() { return 52; /* ENOSYS */ },
    proc_exit(code) {
      parentPort.postMessage({ exit: code });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // until the process ends
    },
    clock_time_get(id, precision, out) {
      const t = id === 0 ? BigInt(Date.now()) * 1000000n : process.hrtime.bigint();
      view().setBigUint64(out, t, true);
      return 0;
    },
    poll_oneoff() { return 52; },
    sched_yield() { return 0; },
    args_sizes_get(argc, size) {
      view().setUint32(argc, argv.length, true);
      view().setUint32(size, argv.reduce((s, a) => s + enc.encode(a).length + 1, 0), true);
      return 0;
    },
    args_get(ptrs, buf) {
      let off = buf;
      argv.forEach((a, i) => {
        const b = enc.encode(a);
        view().setUint32(ptrs + 4 * i, off, true);
        bytes().set(b, off);
        bytes()[off + b.length] = 0;
        off += b.length + 1;
      });
      return 0;
    },
  };
  return {
    wasi_snapshot_preview1: wasi,
    wasi: { 'thread-spawn': spawn },
    env: { memory },
  };
}

// Reads (initial, maximum) of the first imported memory from the binary:
// the JS API does not expose an import's limits.
function readMemoryImport(bytes) {
  let i = 8;
  const leb = () => {
    let r = 0, s = 0, b;
    do { b = bytes[i++]; r |= (b & 0x7f) << s; s += 7; } while (b & 0x80);
    return r >>> 0;
  };
  while (i < bytes.length) {
    const id = bytes[i++];
    const size = leb();
    const end = i + size;
    if (id === 2) {
      const n = leb();
      for (let k = 0; k < n; k++) {
        for (let s = 0; s < 2; s++) { const len = leb(); i += len; } // module, name
        const kind = bytes[i++];
        if (kind === 0) leb();
        else if (kind === 1) { i++; const f = bytes[i++]; leb(); if (f & 1) leb(); }
        else if (kind === 3) i += 2;
        else if (kind === 2) {
          const f = bytes[i++];
          const initial = leb();
          const maximum = f & 1 ? leb() : undefined;
          return { initial, maximum, shared: (f & 2) !== 0 };
        }
      }
    }
    i = end;
  }
  throw new Error('no memory import');
}

// Every wasm thread, the main one included, runs in a worker_thread: node's
// main thread must stay free to boot workers and relay messages (a worker
// cannot start while the main thread blocks in Atomics.wait). Workers are booted
// before _start runs; thread-spawn takes a tid and an idle worker from
// shared counters (so it returns at once) and asks the main thread to hand
// the thread to that worker.
const POOL = 4;

if (isMainThread) {
  const [file, ...rest] = process.argv.slice(2);
  const bytes = readFileSync(file);
  const module = new WebAssembly.Module(bytes);
  const lim = readMemoryImport(bytes);
  const memory = new WebAssembly.Memory({ initial: lim.initial, maximum: lim.maximum, shared: true });
  const argv = [file, ...rest];
  const counters = new Int32Array(new SharedArrayBuffer(8)); // [next tid, idle workers]
  counters[0] = 2;
  counters[1] = POOL; // spawnable threads; one more worker runs _start
  const idle = [];
  const workers = await Promise.all(Array.from({ length: POOL + 1 }, () => new Promise((ready) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { module, memory, argv, counters } });
    w.once('message', () => ready(w));
  })));
  for (const w of workers) {
    w.on('message', (m) => {
      if (m.exit !== undefined) process.exit(m.exit);
      if (m.spawn) idle.shift().postMessage({ tid: m.spawn, arg: m.arg });
    });
    w.on('error', (e) => { console.error(e); process.exit(134); });
  }
  idle.push(...workers.slice(1));
  workers[0].postMessage({ tid: 1 });
} else {
  const { module, memory, argv, counters } = workerData;
  const spawn = (arg) => {
    if (Atomics.sub(counters, 1, 1) <= 0) {
      Atomics.add(counters, 1, 1);
      return -EAGAIN;
    }
    const tid = Atomics.add(counters, 0, 1);
    parentPort.postMessage({ spawn: tid, arg });
    return tid;
  };
  parentPort.once('message', ({ tid, arg }) => {
    const inst = new WebAssembly.Instance(module, imports(memory, argv, spawn));
    if (tid === 1) {
      inst.exports._start();
      parentPort.postMessage({ exit: 0 });
    } else {
      inst.exports.wasi_thread_start(tid, arg);
    }
  });
  parentPort.postMessage('ready');
}
