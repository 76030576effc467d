'use strict';
// In-container harness for JavaScript (TypeScript arrives already transpiled): loads the user's
// script as Node loads a plain CommonJS file, calls the target once per case and streams one
// frame per event to the host (protocol: docs/harness-protocol.md).
const fs = require('fs');
const path = require('path');
const util = require('util');
const vm = require('vm');
const { createRequire } = require('module');
const { performance } = require('perf_hooks');

const MARK = '\x1e';
const MAX_DEPTH = 256;
const TRUNCATED = '\n...[truncated]';

// The original stdout, reopened before user code runs, so closing fd 1 or destroying
// process.stdout cannot cut the result channel.
function openChannel() {
  try {
    return fs.openSync('/proc/self/fd/1', 'w');
  } catch {
    return 1;
  }
}
const channel = openChannel();

function writeAll(text) {
  const data = Buffer.from(text, 'utf8');
  let offset = 0;
  while (offset < data.length) {
    try {
      offset += fs.writeSync(channel, data, offset, data.length - offset);
    } catch (error) {
      if (error.code !== 'EAGAIN') throw error;
    }
  }
}

class Capture {
  constructor(cap) {
    this.cap = cap;
    this.reset();
  }

  reset() {
    this.parts = [];
    this.size = 0;
    this.truncated = false;
  }

  write(chunk, encoding) {
    if (this.truncated) return;
    let data = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk);
    const room = this.cap - this.size;
    if (data.length > room) {
      data = data.subarray(0, room);
      this.truncated = true;
    }
    this.parts.push(data);
    this.size += data.length;
  }

  take() {
    // A cut in the middle of a character is dropped by the decoder's replacement; trim it instead.
    let data = Buffer.concat(this.parts);
    if (this.truncated) {
      let end = data.length;
      while (end > 0 && (data[end - 1] & 0xc0) === 0x80) end -= 1;
      if (end > 0 && data[end - 1] >= 0xc0) end -= 1;
      const lead = data[end];
      const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
      if (end + need <= data.length) end += need;
      data = data.subarray(0, end);
    }
    const text = data.toString('utf8') + (this.truncated ? TRUNCATED : '');
    this.reset();
    return text;
  }
}

function inspectValue(value) {
  try {
    return util.inspect(value, { depth: 4, breakLength: Infinity });
  } catch {
    return Object.prototype.toString.call(value);
  }
}

function isPlainObject(value) {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function sortedIfOrderable(items) {
  if (items.every((item) => typeof item === 'number')) return items.sort((a, b) => a - b);
  if (items.every((item) => typeof item === 'string')) return items.sort();
  return items;
}

// Writes a return value as JSON text by the protocol's rules (exact BigInts, NaN as strings, ...).
function toJson(value, depth, seen) {
  if (value === undefined || value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (Number.isNaN(value)) return '"NaN"';
      if (!Number.isFinite(value)) return value > 0 ? '"Infinity"' : '"-Infinity"';
      return Object.is(value, -0) ? '0' : JSON.stringify(value);
    case 'bigint':
      return value.toString();
    case 'string':
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      return JSON.stringify(inspectValue(value));
  }
  if (depth >= MAX_DEPTH || seen.has(value)) return JSON.stringify(inspectValue(value));
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      const items = [];
      for (let i = 0; i < value.length; i += 1) items.push(toJson(value[i], depth + 1, seen));
      return `[${items.join(',')}]`;
    }
    if (value instanceof Set) return `[${sortedIfOrderable([...value]).map((item) => toJson(item, depth + 1, seen)).join(',')}]`;
    if (value instanceof Map) {
      return `{${[...value].map(([k, v]) => `${JSON.stringify(String(k))}:${toJson(v, depth + 1, seen)}`).join(',')}}`;
    }
    if (isPlainObject(value)) {
      return `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:${toJson(value[k], depth + 1, seen)}`).join(',')}}`;
    }
    return JSON.stringify(inspectValue(value));
  } finally {
    seen.delete(value);
  }
}

function encode(value) {
  try {
    return toJson(value, 0, new Set());
  } catch {
    return JSON.stringify(inspectValue(value));
  }
}

// Runtime errors carry the line of the innermost user frame; syntax errors also the column,
// which V8 shows as a caret under the offending source line.
function errorLocation(error, filename) {
  const stack = typeof error?.stack === 'string' ? error.stack : '';
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const frame = new RegExp(`${escaped}:(\\d+)`).exec(stack);
  if (!frame) return { line: null, column: null };
  let column = null;
  if (error instanceof SyntaxError && stack.startsWith(frame[0])) {
    const caret = stack.split('\n')[2] ?? '';
    if (/^\s*\^+\s*$/.test(caret)) column = caret.indexOf('^') + 1;
  }
  return { line: Number(frame[1]), column };
}

function describeError(error, filename) {
  if (error === null || typeof error !== 'object') {
    return { type: 'Error', message: `uncaught ${typeof error} ${inspectValue(error)}`, line: null, column: null };
  }
  let type = 'Error';
  let message = '';
  try {
    type = typeof error.name === 'string' && error.name ? error.name : (error.constructor?.name ?? 'Error');
    message = typeof error.message === 'string' ? error.message : inspectValue(error);
  } catch {
    // an exotic thrown object; keep the defaults
  }
  return { type, message, ...errorLocation(error, filename) };
}

function orList(names) {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

function readJob() {
  return new Promise((resolve, reject) => {
    const chunks = [];
    const onData = (chunk) => {
      const newline = chunk.indexOf(10);
      if (newline < 0) {
        chunks.push(chunk);
        return;
      }
      chunks.push(chunk.subarray(0, newline));
      process.stdin.off('data', onData);
      process.stdin.pause();
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error);
      }
    };
    process.stdin.on('data', onData);
    process.stdin.once('end', () => reject(new Error('stdin closed before a job arrived')));
  });
}

class Harness {
  send(frame) {
    writeAll(`${MARK}${this.nonce} ${frame}\n`);
  }

  sendObject(object) {
    this.send(JSON.stringify(object));
  }

  async run() {
    writeAll(`${MARK}ready Node ${process.versions.node}\n`);
    const job = await readJob();
    this.nonce = job.nonce;
    const filename = job.filename || 'solution.js';
    const capture = new Capture(Number(job.stdoutCap) || 65536);
    const captureWrite = (chunk, encoding, callback) => {
      capture.write(chunk, encoding);
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') process.nextTick(done);
      return true;
    };
    process.stdout.write = captureWrite;
    process.stderr.write = captureWrite;

    const target = job.target;
    const names = target.names;
    let scope;
    try {
      scope = this.load(job.code, filename, target.class ? [target.class] : names);
    } catch (error) {
      this.sendObject({ t: 'loaded', error: describeError(error, filename), stdout: capture.take() });
      this.sendObject({ t: 'done' });
      return;
    }
    const found = this.lookup(scope, target, names);
    if (!found) {
      const kind = target.class ? `method of ${target.class}` : 'function';
      const error = { type: 'ReferenceError', message: `no ${kind} named ${orList(names)} is defined`, line: null, column: null };
      this.sendObject({ t: 'loaded', error, stdout: capture.take() });
      this.sendObject({ t: 'done' });
      return;
    }
    this.sendObject({ t: 'loaded', error: null });
    for (const testCase of job.cases) await this.runCase(testCase, found, filename, capture);
    this.sendObject({ t: 'done' });
  }

  // Compiles the code the way Node wraps a CommonJS module, plus a footer that hands back the
  // top-level bindings the host asked for (function declarations, const/let/class included).
  load(code, filename, bindings) {
    const module = { exports: {}, filename: path.join('/tmp', filename), id: '.', loaded: false };
    const localRequire = createRequire(module.filename);
    const footer = `\n;return {${bindings.map((name) => `${JSON.stringify(name)}: typeof ${name} === "undefined" ? undefined : ${name}`).join(', ')}};`;
    const wrapper = vm.compileFunction(code + footer, ['exports', 'require', 'module', '__filename', '__dirname'], { filename });
    const locals = wrapper.call(module.exports, module.exports, localRequire, module, module.filename, '/tmp');
    module.loaded = true;
    return { locals, module };
  }

  lookup(scope, target, names) {
    const exported = (name) => {
      const exports = scope.module.exports;
      if (exports && (typeof exports === 'object' || typeof exports === 'function') && typeof exports[name] === 'function') return exports[name];
      return undefined;
    };
    if (target.class) {
      const Owner = scope.locals[target.class] ?? exported(target.class);
      if (typeof Owner !== 'function') return undefined;
      const name = names.find((n) => typeof Owner.prototype?.[n] === 'function');
      return name ? { make: () => { const instance = new Owner(); return instance[name].bind(instance); } } : undefined;
    }
    for (const name of names) {
      const fn = typeof scope.locals[name] === 'function' ? scope.locals[name] : exported(name);
      if (typeof fn === 'function') return { make: () => fn };
    }
    const whole = scope.module.exports;
    if (typeof whole === 'function') return { make: () => whole };
    const defaultExport = whole && typeof whole === 'object' ? whole.default : undefined;
    return typeof defaultExport === 'function' ? { make: () => defaultExport } : undefined;
  }

  async runCase(testCase, found, filename, capture) {
    this.sendObject({ t: 'begin', i: testCase.i });
    const args = testCase.args ?? [];
    for (const index of testCase.undef ?? []) args[index] = undefined;
    let value = 'null';
    let error = null;
    const started = performance.now();
    let elapsed;
    try {
      let result = found.make()(...args);
      if (result !== null && typeof result === 'object' && typeof result.then === 'function') result = await result;
      elapsed = performance.now() - started;
      value = encode(result);
    } catch (failure) {
      elapsed = performance.now() - started;
      error = describeError(failure, filename);
    }
    // The value is already JSON text; splice it in so BigInts and exact numbers survive.
    const rest = JSON.stringify({ error, ms: elapsed, stdout: capture.take() }).slice(1);
    this.send(`{"t":"result","i":${Number(testCase.i)},"value":${value},${rest}`);
  }
}

process.on('unhandledRejection', () => undefined);
new Harness().run().then(
  () => process.exit(0),
  (error) => {
    writeAll(`harness failure: ${error && error.stack ? error.stack : String(error)}\n`);
    process.exit(70);
  },
);
