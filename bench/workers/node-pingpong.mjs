// node-pingpong.mjs — node's fastest thread round trip, for comparison with
// weft's host -> worker -> host (bench/workers/run --rtt): the main thread
// and one worker_thread hand a token over through a SharedArrayBuffer with
// Atomics.wait/notify, N rounds, each timed; prints the median and p99.
//
//   node bench/workers/node-pingpong.mjs [N]     (default 100000)
import { Worker, isMainThread, workerData } from 'node:worker_threads';

if (isMainThread) {
  const n = Number(process.argv[2] || 100000);
  const sab = new SharedArrayBuffer(8);
  const a = new Int32Array(sab);
  const w = new Worker(new URL(import.meta.url), { workerData: { sab, n } });
  const lat = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    Atomics.store(a, 0, 1);          // ping
    Atomics.notify(a, 0, 1);
    while (Atomics.load(a, 0) !== 2) Atomics.wait(a, 0, 1);
    lat[i] = Number(process.hrtime.bigint() - t0);
    Atomics.store(a, 0, 0);
  }
  Atomics.store(a, 0, 3);            // done
  Atomics.notify(a, 0, 1);
  await new Promise((r) => w.on('exit', r));
  lat.sort();
  const us = (x) => (x / 1000).toFixed(2);
  console.log(`node SharedArrayBuffer + Atomics.wait/notify ping-pong (main thread <-> worker_thread): ` +
              `p50 ${us(lat[n >> 1])} us, p99 ${us(lat[Math.floor(n * 0.99)])} us, max ${us(lat[n - 1])} us (${n} rounds)`);
} else {
  const { sab, n } = workerData;
  const a = new Int32Array(sab);
  for (;;) {
    let v;
    while ((v = Atomics.load(a, 0)) === 0 || v === 2) Atomics.wait(a, 0, v);
    if (v === 3) break;
    Atomics.store(a, 0, 2);          // pong
    Atomics.notify(a, 0, 1);
  }
}
