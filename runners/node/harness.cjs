'use strict';
// In-container harness for JavaScript (TypeScript arrives already transpiled), protocol:
// docs/harness-protocol.md. Prints the ready line, reads one job line from stdin, runs the user's
// code the way Node runs a plain CommonJS file, calls the target once per case and streams frames
// on a private channel to the original stdout.
//
// Node built-ins only, and no `require`, `import` statement or `import.meta`: the file loads the
// built-ins with dynamic import() so that it runs both as CommonJS (inside the image) and as an
// ES module (a bare process inside this repository, whose package.json says "type": "module").

const MARK = '\x1e';
const MAX_DEPTH = 256;
const TRUNCATION_MARKER = '\n...[truncated]';
// The largest return value a result frame carries, in bytes of JSON (protocol section 4).
const RETURN_LIMIT = 1 << 20;
// An error's type and message are cut to this many characters (the host shows fewer still).
const MAX_ERROR_CHARS = 4096;

// main's arguments, in order
const BUILTINS = ['node:fs', 'node:vm', 'node:path', 'node:util', 'node:module', 'node:perf_hooks'];

function harnessFailure(error) {
  // a failure of the harness itself (never of user code): say why on stderr and stop
  process.stderr.write(`harness failure: ${error && error.stack ? error.stack : error}\n`);
  process.exit(70);
}

// Inside the runner image the harness starts from a V8 startup snapshot (runners/node/snapshot.cjs
// evaluates this file with `snapshotHarness` defined, at image build time); anywhere else it loads
// the built-ins itself.
if (typeof snapshotHarness === 'function') {
  snapshotHarness(main, BUILTINS, harnessFailure);
} else {
  Promise.all(BUILTINS.map((name) => import(name)))
    .then((modules) => main(...modules.map((namespace) => namespace.default)))
    .catch(harnessFailure);
}

function main(fs, vm, path, util, Module, perfHooks) {
  // Bound once, so that user code patching these objects cannot cut the frame channel.
  const { writeSync, readSync, openSync, closeSync, constants } = fs;
  const stringify = JSON.stringify;
  const parseJson = JSON.parse;
  const inspect = util.inspect;
  const { isMap, isSet } = util.types;
  const objectKeys = Object.keys;
  const charCodeAt = Function.prototype.call.bind(String.prototype.charCodeAt);
  const getPrototypeOf = Object.getPrototypeOf;
  const ObjectPrototype = Object.prototype;
  const { performance } = perfHooks;
  const now = () => performance.now();
  const reallyExit = typeof process.reallyExit === 'function' ? process.reallyExit.bind(process) : process.exit.bind(process);
  const sleepCell = new Int32Array(new SharedArrayBuffer(4));
  const sleep = (ms) => Atomics.wait(sleepCell, 0, 0, ms);

  // ---------------------------------------------------------------------------
  // The frame channel: the original stdout, reopened (a pipe or file reopened through /proc is a
  // descriptor of its own) so that closing fd 1 or destroying process.stdout cannot cut it.
  // A socket cannot be reopened; then fd 1 itself is the channel and closing it through fs is
  // made a no-op.
  let channel = 1;
  try {
    channel = openSync('/proc/self/fd/1', constants.O_WRONLY | constants.O_APPEND);
  } catch {
    channel = 1;
  }
  if (channel === 1) guardChannel(fs);

  function writeAll(text) {
    const data = Buffer.from(text, 'utf8');
    let offset = 0;
    let waits = 0;
    while (offset < data.length) {
      try {
        offset += writeSync(channel, data, offset, data.length - offset);
        waits = 0;
      } catch (error) {
        if (error && error.code === 'EAGAIN') {
          // fd 1 is a non-blocking pipe or socket that is full: wait for the host to drain it
          sleep(Math.min(1 + waits, 20));
          waits += 1;
          continue;
        }
        // the channel is gone: nothing more can be reported
        reallyExit(1);
      }
    }
  }

  function guardChannel(fsModule) {
    const originalCloseSync = fsModule.closeSync;
    const originalClose = fsModule.close;
    fsModule.closeSync = function closeSync(fd, ...rest) {
      if (fd === channel) return undefined;
      return originalCloseSync.call(this, fd, ...rest);
    };
    fsModule.close = function close(fd, callback, ...rest) {
      if (fd === channel) {
        if (typeof callback === 'function') process.nextTick(callback, null);
        return undefined;
      }
      return originalClose.call(this, fd, callback, ...rest);
    };
  }

  // ---------------------------------------------------------------------------
  // stdin: exactly one line, read synchronously on fd 0 (process.stdin is never created);
  // afterwards fd 0 is /dev/null, so user code reading stdin sees an empty input.
  function readJobLine() {
    const chunks = [];
    const buffer = Buffer.allocUnsafe(1 << 20);
    let waits = 0;
    for (;;) {
      let count;
      try {
        count = readSync(0, buffer, 0, buffer.length, null);
      } catch (error) {
        if (error && error.code === 'EAGAIN') {
          sleep(Math.min(1 + waits, 50));
          waits += 1;
          continue;
        }
        if (error && error.code === 'EOF') count = 0;
        else throw error;
      }
      waits = 0;
      if (count === 0) break;
      const newline = buffer.subarray(0, count).indexOf(10);
      if (newline >= 0) {
        chunks.push(Buffer.from(buffer.subarray(0, newline)));
        break;
      }
      chunks.push(Buffer.from(buffer.subarray(0, count)));
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  function detachStdin() {
    try {
      closeSync(0);
      const fd = openSync('/dev/null', 'r');
      if (fd !== 0) closeSync(fd);
    } catch {
      // stdin stays as it is
    }
  }

  // ---------------------------------------------------------------------------
  // Output capture: one buffer per case, at most `cap` UTF-8 bytes, stdout and stderr interleaved.
  class Capture {
    constructor(cap) {
      this.cap = cap;
      this.parts = [];
      this.size = 0;
      this.cut = false;
    }

    get room() {
      return this.cap - this.size;
    }

    add(text) {
      if (this.cut || text.length === 0) return;
      const room = this.room;
      // every UTF-16 unit takes at least one byte: only the first `room` can fit, so a huge text
      // is never encoded whole
      const head = text.length > room ? text.slice(0, room) : text;
      const size = Buffer.byteLength(head, 'utf8');
      if (head === text && size <= room) {
        this.parts.push(text);
        this.size += size;
        return;
      }
      const bytes = Buffer.from(head, 'utf8');
      let end = room;
      // step back over continuation bytes so that no character is split
      while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
      this.parts.push(bytes.toString('utf8', 0, end));
      this.size = this.cap;
      this.cut = true;
    }

    text() {
      const out = this.parts.join('');
      return this.cut ? out + TRUNCATION_MARKER : out;
    }
  }

  let capture = new Capture(0);

  // At most `maxBytes` of a binary chunk are decoded: the capture keeps no more than that.
  function chunkText(chunk, encoding, maxBytes) {
    if (typeof chunk === 'string') {
      if (typeof encoding !== 'string' || /^utf-?8$/i.test(encoding)) return chunk;
      return Buffer.from(chunk, encoding).toString('utf8');
    }
    if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, maxBytes)).toString('utf8');
    const error = new TypeError(`The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ${inspect(chunk)}`);
    error.code = 'ERR_INVALID_ARG_TYPE';
    throw error;
  }

  // Each write's callback is called once, on the next tick. They are counted, not queued one tick
  // each: console passes the same handler with every write, and `for (;;) console.error(line)`
  // never yields, so a tick per write filled the heap before the host's time limit came.
  const pendingCallbacks = new Map();
  function callPendingCallbacks() {
    const due = [...pendingCallbacks];
    pendingCallbacks.clear();
    for (const [callback, count] of due) for (let i = 0; i < count; i += 1) callback(null);
  }

  // console.* writes through these, so everything printed lands in the current capture.
  function capturedWrite(chunk, encoding, callback) {
    if (typeof encoding === 'function') {
      callback = encoding;
      encoding = undefined;
    }
    // a character that fits ends within room + 3 bytes
    capture.add(chunkText(chunk, encoding, capture.room + 4));
    if (typeof callback === 'function') {
      if (pendingCallbacks.size === 0) process.nextTick(callPendingCallbacks);
      pendingCallbacks.set(callback, (pendingCallbacks.get(callback) || 0) + 1);
    }
    return true;
  }
  const stdoutWrite = function write(chunk, encoding, callback) { return capturedWrite(chunk, encoding, callback); };
  const stderrWrite = function write(chunk, encoding, callback) { return capturedWrite(chunk, encoding, callback); };

  function installCapture() {
    try {
      process.stdout.write = stdoutWrite;
      process.stderr.write = stderrWrite;
    } catch {
      // user code replaced the streams with something read-only; its output is its own
    }
  }

  // ---------------------------------------------------------------------------
  // Value encoding (protocol section 4)
  function reprOf(value) {
    try {
      const text = inspect(value);
      if (typeof text === 'string') return text;
    } catch {
      // fall through
    }
    try {
      return String(value);
    } catch {
      return '[unrepresentable value]';
    }
  }

  const compareOrderable = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

  function sortIfOrderable(items) {
    if (items.length === 0) return items;
    const numbers = items.every((item) => typeof item === 'number' || typeof item === 'bigint');
    const strings = !numbers && items.every((item) => typeof item === 'string');
    return numbers || strings ? items.sort(compareOrderable) : items;
  }

  function encodeNumber(value) {
    if (value !== value) return '"NaN"';
    if (value === Infinity) return '"Infinity"';
    if (value === -Infinity) return '"-Infinity"';
    if (value === 0) return '0';
    return String(value);
  }

  // Thrown through the encoder when a value's JSON outgrows the limit; `atLeast` is a lower bound
  // on its size in bytes.
  class TooLarge {
    constructor(atLeast) {
      this.atLeast = atLeast;
    }
  }

  // Writes one value as JSON, counting its UTF-8 bytes as it goes, so that a value over the
  // limit is refused before its whole text exists.
  class Encoder {
    constructor(limit) {
      this.limit = limit;
      this.size = 0;
      this.path = new Set();
    }

    // Refuses, before building it, a piece that will take at least `atLeast` more bytes.
    reserve(atLeast) {
      if (this.size + atLeast > this.limit) throw new TooLarge(this.size + atLeast);
    }

    spend(count) {
      this.size += count;
      if (this.size > this.limit) throw new TooLarge(this.size);
    }

    ascii(text) {
      this.spend(text.length);
      return text;
    }

    // Every UTF-16 unit takes at least one byte of JSON, so a huge string is refused unconverted.
    string(value) {
      this.reserve(value.length + 2);
      const text = stringify(value);
      this.spend(Buffer.byteLength(text, 'utf8'));
      return text;
    }

    // A BigInt of 2^(room * log2 10) or more has more digits than fit: refused before its
    // (slow) conversion to decimal.
    bigint(value) {
      const room = this.limit - this.size;
      const magnitude = value < 0n ? -value : value;
      if (BigInt.asUintN(Math.ceil(room * Math.log2(10)), magnitude) !== magnitude) throw new TooLarge(this.limit + 1);
      return this.ascii(String(value));
    }

    // A value that cannot be encoded becomes its repr string.
    encode(value, depth = 0) {
      const size = this.size;
      try {
        return this.encodeInner(value, depth);
      } catch (error) {
        if (error instanceof TooLarge) throw error;
        // what a failed attempt counted is not part of the text
        this.size = size;
        return this.string(reprOf(value));
      }
    }

    encodeInner(value, depth) {
      switch (typeof value) {
        case 'undefined':
          return this.ascii('null');
        case 'boolean':
          return this.ascii(value ? 'true' : 'false');
        case 'number':
          return this.ascii(encodeNumber(value));
        case 'bigint':
          return this.bigint(value);
        case 'string':
          return this.string(value);
        case 'object':
          if (value === null) return this.ascii('null');
          break;
        default:
          return this.string(reprOf(value));
      }
      if (depth >= MAX_DEPTH || this.path.has(value)) return this.string(reprOf(value));
      this.path.add(value);
      try {
        return this.container(value, depth + 1);
      } finally {
        this.path.delete(value);
      }
    }

    container(value, depth) {
      if (Array.isArray(value)) return this.items(value, depth);
      if (isSet(value)) {
        this.reserve(2 * value.size + 1);
        return this.items(sortIfOrderable(Array.from(value)), depth);
      }
      if (isMap(value)) {
        // keys that read the same (1 and "1") keep the first one's place and the last one's value
        const fields = new Map();
        for (const [key, item] of Array.from(value)) fields.set(String(key), item);
        return this.fields(Array.from(fields.keys()), (key) => fields.get(key), depth);
      }
      const proto = getPrototypeOf(value);
      if (proto === ObjectPrototype || proto === null) return this.fields(objectKeys(value), (key) => value[key], depth);
      return this.string(reprOf(value));
    }

    // Every item takes at least a byte and a comma: a huge (or sparse) array is refused unread.
    items(list, depth) {
      const length = list.length;
      this.reserve(2 * length + 1);
      this.spend(2 + Math.max(length - 1, 0));
      const parts = new Array(length);
      for (let i = 0; i < length; i += 1) parts[i] = this.encode(list[i], depth);
      return `[${parts.join(',')}]`;
    }

    // Every field takes at least `"":0` and a comma.
    fields(keys, itemOf, depth) {
      this.reserve(5 * keys.length + 1);
      this.spend(2 + Math.max(keys.length - 1, 0) + keys.length);
      return `{${keys.map((key) => `${this.string(key)}:${this.encode(itemOf(key), depth)}`).join(',')}}`;
    }
  }

  // The value of a result frame, or the error of a value too large to send.
  function encodeResult(result) {
    try {
      return { value: new Encoder(RETURN_LIMIT).encode(result), error: null };
    } catch (error) {
      if (!(error instanceof TooLarge)) throw error;
      const message = `return value too large: at least ${error.atLeast} bytes as JSON (limit ${RETURN_LIMIT})`;
      return { value: 'null', error: { type: 'RangeError', message, line: null, column: null } };
    }
  }

  // ---------------------------------------------------------------------------
  // Errors
  const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  // Runtime errors carry the line of the innermost stack frame in the user's file (no column);
  // a syntax error found while compiling carries line and column, which V8 puts on the first
  // lines of the stack ("solution.js:3", the source line, a caret line).
  function locate(error, filename, userLines) {
    let stack;
    try {
      stack = error.stack;
    } catch {
      stack = undefined;
    }
    if (typeof stack !== 'string') return { line: null, column: null };
    const name = escapeRegExp(filename);
    let line = null;
    let column = null;
    const compiled = new RegExp(`^${name}:(\\d+)\\n`).exec(stack);
    if (compiled) {
      line = Number(compiled[1]);
      const caret = stack.split('\n')[2] || '';
      if (/^\s*\^+\s*$/.test(caret)) column = caret.indexOf('^') + 1;
    } else {
      const frame = new RegExp(`^\\s+at (?:.*\\()?${name}:(\\d+):(\\d+)\\)?\\s*$`, 'm').exec(stack);
      if (frame) line = Number(frame[1]);
    }
    if (line !== null && line > userLines) {
      // the footer appended after the user's code: the error is at the end of the user's code
      line = userLines;
      column = null;
    }
    return { line, column };
  }

  function describeError(error, filename, userLines) {
    if (error === null || (typeof error !== 'object' && typeof error !== 'function')) {
      return { type: 'Error', message: `Uncaught ${reprOf(error)}`, line: null, column: null };
    }
    let type = 'Error';
    let message = '';
    try {
      if (typeof error.name === 'string' && error.name) type = error.name;
      else if (error.constructor && typeof error.constructor.name === 'string' && error.constructor.name) type = error.constructor.name;
    } catch {
      // keep the default
    }
    try {
      message = typeof error.message === 'string' ? error.message : error instanceof Error ? '' : `Uncaught ${reprOf(error)}`;
    } catch {
      message = '';
    }
    return { type, message, ...locate(error, filename, userLines) };
  }

  // Every kind of line break a terminal, a log or JavaScript itself reads as a new line.
  const isLineBreak = (code) =>
    (code >= 10 && code <= 13) || code === 0x85 || code === 0x2028 || code === 0x2029;

  /**
   * User code names its error types: the type goes out on one line, every run of spaces and line
   * breaks one space, none at either end. A plain loop, so that patched String or RegExp methods
   * cannot change what it does.
   */
  function oneLineType(text) {
    let out = '';
    let gap = false;
    for (let i = 0; i < text.length; i += 1) {
      const code = charCodeAt(text, i);
      if (code <= 32 || code === 0xa0 || isLineBreak(code)) {
        gap = out.length > 0;
        continue;
      }
      if (gap) out += ' ';
      gap = false;
      out += text[i];
    }
    return out;
  }

  /** Every line break as "\n": the host joins a message's lines with spaces (protocol section 3) and knows only "\n". */
  function plainLineBreaks(text) {
    let out = '';
    for (let i = 0; i < text.length; i += 1) out += isLineBreak(charCodeAt(text, i)) ? '\n' : text[i];
    return out;
  }

  function errorJson(error) {
    if (!error) return 'null';
    const line = Number.isInteger(error.line) ? String(error.line) : 'null';
    const column = Number.isInteger(error.column) ? String(error.column) : 'null';
    const type = oneLineType(String(error.type).slice(0, MAX_ERROR_CHARS));
    const message = plainLineBreaks(String(error.message).slice(0, MAX_ERROR_CHARS));
    return `{"type":${stringify(type)},"message":${stringify(message)},"line":${line},"column":${column}}`;
  }

  const missing = (message) => ({ type: 'ReferenceError', message, line: null, column: null });

  function namesText(names) {
    if (names.length <= 1) return names.join('');
    return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
  }

  // ---------------------------------------------------------------------------
  // Loading the user's code: a classic sloppy-mode script wrapped like a CommonJS module, plus a
  // footer (on a line of its own, so that error lines match the user's) that hands back the
  // top-level bindings the host asked for.
  function load(code, filename, bindings) {
    const absolute = path.resolve(filename);
    const dirname = path.dirname(absolute);
    const module = new Module(absolute, null);
    module.filename = absolute;
    module.paths = typeof Module._nodeModulePaths === 'function' ? Module._nodeModulePaths(dirname) : [];
    const localRequire = Module.createRequire(absolute);
    const entries = bindings.map((name) => `${stringify(name)}: typeof ${name} === "undefined" ? undefined : ${name}`);
    const footer = `\nreturn {${entries.join(', ')}};`;
    const options = { filename };
    const loader = vm.constants && vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER;
    if (loader) options.importModuleDynamically = loader;
    const wrapper = vm.compileFunction(code + footer, ['exports', 'require', 'module', '__filename', '__dirname'], options);
    const table = wrapper.call(module.exports, module.exports, localRequire, module, absolute, dirname);
    module.loaded = true;
    return { table: table && typeof table === 'object' ? table : {}, module };
  }

  function exported(module, name) {
    try {
      const exports = module.exports;
      if (exports && (typeof exports === 'object' || typeof exports === 'function')) return exports[name];
    } catch {
      // an exotic exports object
    }
    return undefined;
  }

  // The first name that is a function wins: a top-level binding, else a property of
  // module.exports; failing both, a function that is module.exports itself or its `default`
  // (`module.exports = …` and `export default …` code).
  function resolveTarget(loaded, target) {
    const names = (target.names || []).map(String);
    if (target.class) {
      const className = String(target.class);
      let Owner = loaded.table[className];
      if (typeof Owner !== 'function') Owner = exported(loaded.module, className);
      if (typeof Owner !== 'function') return { error: missing(`no class named ${className} is defined`) };
      let method;
      try {
        method = names.find((name) => typeof Owner.prototype[name] === 'function');
      } catch {
        method = undefined;
      }
      return { Owner, className, names, method };
    }
    for (const name of names) {
      if (typeof loaded.table[name] === 'function') return { fn: loaded.table[name] };
      const fromExports = exported(loaded.module, name);
      if (typeof fromExports === 'function') return { fn: fromExports };
    }
    if (typeof loaded.module.exports === 'function') return { fn: loaded.module.exports };
    const fallback = exported(loaded.module, 'default');
    if (typeof fallback === 'function') return { fn: fallback };
    return { error: missing(`no function named ${namesText(names)} is defined`) };
  }

  // ---------------------------------------------------------------------------
  // Cases
  let stall = null;
  const STALLED = Symbol('stalled');
  // The event loop ran dry while a case awaited its promise: nothing can settle it any more.
  // (An immediate, not a bare call: only a pending handle keeps the loop going after this event.)
  process.on('beforeExit', () => {
    if (stall) setImmediate(stall);
  });
  // What Node would print before dying is the output of the case running; the harness goes on.
  process.on('uncaughtException', (error) => {
    capture.add(`Uncaught ${reprOf(error)}\n`);
  });
  process.on('unhandledRejection', (reason) => {
    capture.add(`Uncaught (in promise) ${reprOf(reason)}\n`);
  });

  function settle(thenable) {
    return new Promise((resolve, reject) => {
      stall = () => reject(STALLED);
      Promise.resolve(thenable).then(resolve, reject);
    }).finally(() => {
      stall = null;
    });
  }

  async function runCase(testCase, target, filename, userLines) {
    const args = Array.isArray(testCase.args) ? testCase.args : [];
    for (const position of Array.isArray(testCase.undef) ? testCase.undef : []) args[position] = undefined;
    let receiver;
    let fn = target.fn;
    if (target.Owner) {
      try {
        receiver = new target.Owner();
        const candidates = target.method ? [target.method] : target.names;
        fn = undefined;
        for (const name of candidates) {
          if (typeof receiver[name] === 'function') {
            fn = receiver[name];
            break;
          }
        }
      } catch (error) {
        return { value: 'null', error: describeError(error, filename, userLines), ms: 0 };
      }
      if (fn === undefined) {
        return { value: 'null', error: missing(`no method named ${namesText(target.names)} is defined in class ${target.className}`), ms: 0 };
      }
    }
    const start = now();
    let result;
    try {
      result = fn.apply(receiver, args);
      if (result !== null && (typeof result === 'object' || typeof result === 'function') && typeof result.then === 'function') {
        result = await settle(result);
      }
    } catch (error) {
      const ms = now() - start;
      if (error === STALLED) {
        return { value: 'null', error: { type: 'Error', message: 'the returned promise never settled', line: null, column: null }, ms };
      }
      return { value: 'null', error: describeError(error, filename, userLines), ms };
    }
    const ms = now() - start;
    return { ...encodeResult(result), ms };
  }

  async function run(job) {
    const prefix = `${MARK}${job.nonce} `;
    const send = (body) => writeAll(`${prefix}${body}\n`);
    const filename = String(job.filename || 'solution.js');
    const code = String(job.code || '');
    const userLines = code.split('\n').length;
    const target = job.target || { names: [] };
    const cases = Array.isArray(job.cases) ? job.cases : [];
    const cap = Number(job.stdoutCap) || 0;

    capture = new Capture(cap);
    installCapture();
    let error = null;
    let resolved;
    try {
      const bindings = [...(target.class ? [String(target.class)] : []), ...(target.names || []).map(String)];
      resolved = resolveTarget(load(code, filename, bindings), target);
      error = resolved.error || null;
    } catch (failure) {
      error = describeError(failure, filename, userLines);
    }
    if (error) {
      send(`{"t":"loaded","error":${errorJson(error)},"stdout":${stringify(capture.text())}}`);
      send('{"t":"done"}');
      return;
    }
    send('{"t":"loaded","error":null}');

    // what the code printed while loading stays in the capture: it leads case 0's output
    for (let number = 0; number < cases.length; number += 1) {
      const testCase = cases[number];
      if (number > 0) capture = new Capture(cap);
      installCapture();
      const index = new Encoder(RETURN_LIMIT).encode(testCase.i);
      send(`{"t":"begin","i":${index}}`);
      const outcome = await runCase(testCase, resolved, filename, userLines);
      installCapture();
      send(`{"t":"result","i":${index},"value":${outcome.value},"error":${errorJson(outcome.error)},"ms":${encodeNumber(outcome.ms)},"stdout":${stringify(capture.text())}}`);
    }
    send('{"t":"done"}');
  }

  writeAll(`${MARK}ready Node ${process.versions.node}\n`);
  const line = readJobLine();
  detachStdin();
  if (!line.trim()) reallyExit(2);
  const job = parseJson(line);
  return run(job).then(() => reallyExit(0));
}
