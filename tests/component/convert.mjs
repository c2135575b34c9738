// convert.mjs — turns the component model's spec scripts
// (../shared/spec/component-model/test/{validation,binary,values,resources,linking}/*.wast)
// into wast2json-style JSON and .wasm files under tests/component/data/<group>/,
// which tests/component/runner.c reads.
//
//   node tests/component/convert.mjs [SPEC_TEST_DIR] [OUT_DIR]
//   (make component-data runs it with the defaults)
//
// Each top-level command is read with a small s-expression reader. A
// `(component ...)` in text is turned into a binary with jco's parser
// (wasm-tools compiled to JS, /work/tools/jco; JCO_TRANSPILE overrides the
// path); `(component binary "...")` is decoded here, byte for byte, so the
// malformed cases of binary.wast reach weft exactly as written;
// `(component quote "...")` is parsed as the concatenated text. A text jco
// refuses is written as {"type": "skip", "reason": "jco: ..."} with its
// message: jco's parser may lag the spec.
//
// The JSON, per script: {"source_filename", "commands": [...]}, each command
// one of
//   {"type": "module", "line", "filename", "name"?, "definition"?: true}
//       a component to load (a definition is loaded but not instantiated);
//   {"type": "instance", "line", "name"?, "of"}     (component instance $i $X)
//   {"type": "assert_invalid" | "assert_malformed" | "assert_unlinkable",
//    "line", "filename", "text"}
//   {"type": "assert_return", "line", "action", "expected": [value...]}
//   {"type": "assert_trap", "line", "action", "text"}
//   {"type": "action", "line", "action"}
//   {"type": "skip", "line", "reason", "command"?}
// an action: {"type": "invoke", "module"?, "field", "args": [value...]}, a
// value: {"type": "u32", "value": "5"} for a scalar (numbers as written in
// the script, strings and chars decoded), {"type": "record", "value":
// [{"field": "a", "value": value}...]}, {"type": "list"|"tuple", "value":
// [value...]}, {"type": "variant", "value": {"case": "c", "value"?: value}},
// {"type": "enum", "value": "label"}, {"type": "flags", "value": ["a"...]},
// and any other form as {"type": HEAD, "value": [its converted arguments]}.
import fs from 'node:fs';
import path from 'node:path';
import url from 'node:url';

const here = path.dirname(url.fileURLToPath(import.meta.url));
const specDir = process.argv[2] ?? path.resolve(here, '../../../shared/spec/component-model/test');
const outDir = process.argv[3] ?? path.join(here, 'data');
const jcoPath = process.env.JCO_TRANSPILE ??
    '/work/tools/jco/node_modules/@bytecodealliance/jco-transpile/dist/wasm-tools.js';
const { parse: jcoParse } = await import(jcoPath);
const GROUPS = ['validation', 'binary', 'values', 'resources', 'linking'];

// ---- the s-expression reader: lists keep their source span and line ----
function read(src) {
    let i = 0, line = 1;
    const top = [];
    const stack = [top];
    const starts = [];
    while (i < src.length) {
        const c = src[i];
        if (c === '\n') { line++; i++; continue; }
        if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
        if (c === ';' && src[i + 1] === ';') { while (i < src.length && src[i] !== '\n') i++; continue; }
        if (c === '(' && src[i + 1] === ';') { // block comment, nested
            let depth = 0;
            do {
                if (src[i] === '(' && src[i + 1] === ';') { depth++; i += 2; }
                else if (src[i] === ';' && src[i + 1] === ')') { depth--; i += 2; }
                else { if (src[i] === '\n') line++; i++; }
            } while (depth > 0 && i < src.length);
            continue;
        }
        if (c === '(') {
            const list = { list: [], start: i, line };
            stack[stack.length - 1].push(list);
            stack.push(list.list);
            starts.push(list);
            i++;
            continue;
        }
        if (c === ')') {
            const list = starts.pop();
            if (!list) throw new Error(`unbalanced ')' on line ${line}`);
            stack.pop();
            list.end = i + 1;
            i++;
            continue;
        }
        if (c === '"') {
            let j = i + 1;
            while (j < src.length && src[j] !== '"') { if (src[j] === '\\') j++; if (src[j] === '\n') line++; j++; }
            stack[stack.length - 1].push({ str: src.slice(i + 1, j) });
            i = j + 1;
            continue;
        }
        let j = i;
        while (j < src.length && !/[\s()";]/.test(src[j])) j++;
        stack[stack.length - 1].push({ atom: src.slice(i, j) });
        i = j;
    }
    if (starts.length) throw new Error(`unclosed '(' from line ${starts[starts.length - 1].line}`);
    return top;
}

// The bytes of a wast string literal (\xx hex, \n \t \\ \' \" \u{...}).
function strBytes(s) {
    const out = [];
    for (let i = 0; i < s.length; i++) {
        const c = s[i];
        if (c !== '\\') { out.push(...Buffer.from(c, 'utf8')); continue; }
        const d = s[++i];
        if (/[0-9a-fA-F]/.test(d) && /[0-9a-fA-F]/.test(s[i + 1])) { out.push(parseInt(s.slice(i, i + 2), 16)); i++; continue; }
        if (d === 'n') out.push(10); else if (d === 't') out.push(9); else if (d === 'r') out.push(13);
        else if (d === 'u') { const k = s.indexOf('}', i); out.push(...Buffer.from(String.fromCodePoint(parseInt(s.slice(i + 2, k), 16)), 'utf8')); i = k; }
        else out.push(d.charCodeAt(0));
    }
    return Buffer.from(out);
}
const strText = (s) => strBytes(s).toString('utf8');
const head = (x) => x && x.list && x.list[0] && x.list[0].atom;

// ---- component values ----
function value(x) {
    if (x.atom !== undefined) return x.atom;
    if (x.str !== undefined) return strText(x.str);
    const h = head(x);
    const args = x.list.slice(1);
    const t = h.endsWith('.const') ? h.slice(0, -6) : h;
    switch (t) {
    case 'record':
        return { type: t, value: args.map((f) => ({ field: value(f.list[1]), value: value(f.list[2]) })) };
    case 'variant':
        return { type: t, value: args.length > 1 ? { case: value(args[0]), value: value(args[1]) } : { case: value(args[0]) } };
    case 'flags':
        return { type: t, value: args.map(value) };
    case 'list': case 'tuple':
        return { type: t, value: args.map(value) };
    case 'str': return { type: 'string', value: args.length ? value(args[0]) : '' };
    default:
        if (args.length === 1 && args[0].list === undefined) return { type: t, value: value(args[0]) };
        return { type: t, value: args.map(value) };
    }
}
function action(x) {
    const h = head(x);
    const a = x.list.slice(1);
    let module;
    if (a[0] && a[0].atom && a[0].atom.startsWith('$')) module = a.shift().atom;
    const field = strText(a.shift().str);
    return { type: h, ...(module ? { module } : {}), field, args: a.map(value) };
}

// ---- one script ----
async function convert(group, file) {
    const src = fs.readFileSync(path.join(specDir, group, file), 'utf8');
    const base = file.replace(/\.wast$/, '');
    const commands = [];
    let n = 0;
    const counts = { components: 0, jcoSkips: 0 };

    // A component form to a .wasm file; returns the file name, or throws
    // {skip: reason} when jco's parser refuses its text.
    async function component(x) {
        const items = x.list.slice(1);
        let name;
        let definition = false;
        if (items[0] && items[0].atom === 'definition') { definition = true; items.shift(); }
        if (items[0] && items[0].atom && items[0].atom.startsWith('$')) name = items.shift().atom;
        let bytes;
        if (items[0] && items[0].atom === 'binary') {
            bytes = Buffer.concat(items.slice(1).map((s) => strBytes(s.str)));
        } else {
            let text;
            if (items[0] && items[0].atom === 'quote') text = '(component ' + items.slice(1).map((s) => strText(s.str)).join(' ') + ')';
            else {
                // the span without `definition`: (component $NAME? BODY)
                const body = items.length ? src.slice(items[0].start ?? findAtomStart(x, items[0]), x.end - 1) : '';
                text = '(component ' + (name ? name + ' ' : '') + body + ')';
            }
            try { bytes = Buffer.from(await jcoParse(text)); } catch (e) {
                const msg = String(e && e.payload !== undefined ? e.payload : (e && e.message) || e);
                throw { skip: 'jco: ' + msg.replace(/\s+/g, ' ').slice(0, 300) };
            }
        }
        const filename = `${base}.${n++}.wasm`;
        fs.writeFileSync(path.join(outDir, group, filename), bytes);
        counts.components++;
        return { filename, name, definition };
    }
    // The source offset of an atom or string item (atoms keep no span).
    function findAtomStart(x, item) {
        const inner = src.slice(x.start + 1, x.end - 1);
        const word = item.atom !== undefined ? item.atom : '"' + item.str + '"';
        const k = inner.indexOf(word);
        return x.start + 1 + k;
    }

    for (const x of read(src)) {
        const h = head(x);
        const line = x.line;
        try {
            if (h === 'component') {
                if (x.list[1] && x.list[1].atom === 'instance') {
                    const a = x.list.slice(2).map((i) => i.atom);
                    commands.push({ type: 'instance', line, ...(a.length > 1 ? { name: a[0] } : {}), of: a[a.length - 1] });
                    continue;
                }
                const c = await component(x);
                commands.push({ type: 'module', line, filename: c.filename, ...(c.name ? { name: c.name } : {}),
                    ...(c.definition ? { definition: true } : {}) });
            } else if (h === 'assert_invalid' || h === 'assert_malformed' || h === 'assert_unlinkable') {
                const text = x.list[2] && x.list[2].str !== undefined ? strText(x.list[2].str) : '';
                if (head(x.list[1]) !== 'component') {
                    commands.push({ type: 'skip', line, reason: `${h} of a ${head(x.list[1])}, not a component` });
                    continue;
                }
                const c = await component(x.list[1]);
                commands.push({ type: h, line, filename: c.filename, text });
            } else if (h === 'assert_return') {
                commands.push({ type: h, line, action: action(x.list[1]), expected: x.list.slice(2).map(value) });
            } else if (h === 'assert_trap') {
                commands.push({ type: h, line, action: action(x.list[1]), text: strText(x.list[2].str) });
            } else if (h === 'invoke') {
                commands.push({ type: 'action', line, action: action(x) });
            } else {
                commands.push({ type: 'skip', line, reason: `command '${h}' not converted` });
            }
        } catch (e) {
            if (!e || !e.skip) throw e;
            counts.jcoSkips++;
            commands.push({ type: 'skip', line, reason: e.skip, command: h });
        }
    }
    fs.writeFileSync(path.join(outDir, group, base + '.json'),
        JSON.stringify({ source_filename: `${group}/${file}`, commands }, null, 1) + '\n');
    return counts;
}

let total = { components: 0, jcoSkips: 0 };
for (const group of GROUPS) {
    if (!fs.existsSync(path.join(specDir, group))) continue; // weft's own scripts (wast/) have fewer groups
    const dir = path.join(outDir, group);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    for (const file of fs.readdirSync(path.join(specDir, group)).filter((f) => f.endsWith('.wast')).sort()) {
        const c = await convert(group, file);
        total.components += c.components;
        total.jcoSkips += c.jcoSkips;
    }
}
console.log(`${total.components} components written, ${total.jcoSkips} texts jco refused (recorded as skips)`);
