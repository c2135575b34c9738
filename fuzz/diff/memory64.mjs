// memory64.mjs — fuzz/diff/run's repair of binaryen's memory64 modules:
//
//   node memory64.mjs IN.wasm OUT.wasm
//
// wasm-opt -ttf with a 64-bit memory (--initial-fuzz=memory64.wat) writes
// every active data segment's offset as i32.const, which the validator
// (and binaryen's own) rejects: an offset has the memory's address type
// (Wasm 3.0 §3.4.9). Binaryen 108 and 119 both do it (tried 2026-12-03), so
// run makes such modules with --no-validation and this turns each offset
// into the i64.const of the same value (the signed LEB128 reads the same
// number; binaryen's offsets are small and positive). Exits 1 when a
// segment's offset is not one i32.const or i64.const.
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
const b = new Uint8Array(readFileSync(input));
let pos = 8;
const u32 = () => {
  let r = 0, shift = 0, x;
  do {
    x = b[pos++];
    r |= (x & 0x7f) << shift;
    shift += 7;
  } while (x & 0x80);
  return r >>> 0;
};
const leb = () => { while (b[pos++] & 0x80); };
while (pos < b.length) {
  const id = b[pos++];
  const size = u32();
  const end = pos + size;
  if (id === 11) { // data section (§5.5.14): flags 0 and 2 are active
    for (let n = u32(); n > 0; n--) {
      const flags = u32();
      if (flags === 2) u32();
      if (flags !== 1) {
        if (b[pos] !== 0x41 && b[pos] !== 0x42) process.exit(1);
        b[pos++] = 0x42;
        leb();
        if (b[pos++] !== 0x0b) process.exit(1);
      }
      const len = u32(); // (not `pos += u32()`: that adds to the old pos)
      pos += len;
    }
  }
  pos = end;
}
writeFileSync(output, b);
