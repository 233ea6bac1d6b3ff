/**
 * The first part of every sandbox child's program (plain JavaScript, run by `node -e`): its
 * channel to grove and the cut from the host.
 *
 * The channel is fd 3, a pipe carrying JSON lines both ways, read with blocking reads so that a
 * child can wait for a reply in the middle of running Python (the tests' calls into the code).
 * Everything the child needs from Node — the file descriptor calls, `Buffer`, a decoder, the
 * clock, `process.exit` — is captured in this closure before `reduceGlobals` empties the global
 * object down to the language's own built-ins: Pyodide hands Python a bridge to JavaScript's
 * global object (its FFI can build any JS value and walk to `Function`), so that global must lead
 * nowhere — no `process`, `require`, `console`, `Buffer`, `fetch`, no timers or message ports.
 * Closures cannot be reached from code; globals can.
 */
export const PRELUDE_SOURCE = String.raw`
'use strict';
const hostRequire = require;
const fs = hostRequire('fs');
const { StringDecoder } = hostRequire('string_decoder');
const HostBuffer = Buffer;
const boot = JSON.parse(process.argv[process.argv.length - 1]);
const hostProcess = process;
const hostPerformance = performance;
const HostAtomics = Atomics;
const exitNow = (code) => hostProcess.reallyExit(code);
const hrNow = () => hostPerformance.now();
const CHANNEL = 3;
const pause = new Int32Array(new SharedArrayBuffer(4));
function writeAll(fd, data) {
  const buf = typeof data === 'string' ? HostBuffer.from(data, 'utf8') : data;
  let off = 0;
  while (off < buf.length) {
    try { off += fs.writeSync(fd, buf, off, buf.length - off); }
    catch (e) { if (e && e.code === 'EAGAIN') { HostAtomics.wait(pause, 0, 0, 1); continue; } if (e && e.code === 'EPIPE') exitNow(0); throw e; }
  }
}
function send(message) { writeAll(CHANNEL, JSON.stringify(message) + '\n'); }
const decoder = new StringDecoder('utf8');
const chunk = HostBuffer.alloc(1 << 16);
let pending = '';
// The channel is non-blocking, so a child waiting for its job (a spare) sleeps between reads,
// longer the longer it waits (1 ms up to 32 ms), and leaves when the process that started it has
// gone: a spare must never spin or outlive its worker.
const parentPid = hostProcess.ppid;
let idle = 1;
function idleWait() {
  HostAtomics.wait(pause, 0, 0, idle);
  if (idle < 32) idle *= 2;
  else if (hostProcess.ppid !== parentPid) exitNow(0);
}
function readLine() {
  for (;;) {
    const nl = pending.indexOf('\n');
    if (nl >= 0) { const line = pending.slice(0, nl); pending = pending.slice(nl + 1); return line; }
    let n;
    try { n = fs.readSync(CHANNEL, chunk, 0, chunk.length, null); idle = 1; }
    catch (e) { if (e && e.code === 'EAGAIN') { idleWait(); continue; } exitNow(0); }
    if (n === 0) exitNow(0); // grove closed the channel: nothing more to do
    pending += decoder.write(chunk.subarray(0, n));
  }
}
function readMessage() { return JSON.parse(readLine()); }
// An error that escapes the engine (Emscripten's exit, a refused operation deep inside Pyodide)
// is reported on the channel in one line instead of Node printing its source to stderr, which
// grove reads as the program's own output.
function onCrash(e) {
  const exit = e && e.name === 'ExitStatus' && typeof e.status === 'number' ? e.status : undefined;
  try { send({ t: 'crash', exit, message: String(e && e.message || e).slice(0, 500) }); } catch (err) {}
  exitNow(exit === undefined ? 70 : exit);
}
hostProcess.on('uncaughtException', onCrash);
hostProcess.on('unhandledRejection', onCrash);
const LANGUAGE_GLOBALS = new Set(['Object', 'Function', 'Array', 'Number', 'parseFloat', 'parseInt', 'Infinity', 'NaN', 'undefined', 'Boolean', 'String', 'Symbol', 'Date', 'Promise', 'RegExp', 'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'globalThis', 'JSON', 'Math', 'Intl', 'ArrayBuffer', 'Uint8Array', 'Int8Array', 'Uint16Array', 'Int16Array', 'Uint32Array', 'Int32Array', 'Float32Array', 'Float64Array', 'Uint8ClampedArray', 'BigUint64Array', 'BigInt64Array', 'DataView', 'Map', 'BigInt', 'Set', 'WeakMap', 'WeakSet', 'Proxy', 'Reflect', 'FinalizationRegistry', 'WeakRef', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape', 'isFinite', 'isNaN', 'WebAssembly', 'TextEncoder', 'TextDecoder', 'crypto']);
// 'eval' goes too: a direct eval inside an engine's own module scope (Emscripten's run_script) would see that scope's require.
function reduceGlobals() {
  for (const key of Reflect.ownKeys(globalThis)) {
    if (typeof key === 'string' && LANGUAGE_GLOBALS.has(key)) continue;
    try { delete globalThis[key]; } catch (e) {}
    try { if (key in globalThis) Object.defineProperty(globalThis, key, { value: undefined, writable: false, configurable: false }); } catch (e) {}
  }
  // The engines read the clock through 'performance.now()' and log through 'console': a clock and
  // a console that says nothing, and nothing else.
  const quiet = () => {};
  Object.defineProperty(globalThis, 'console', { value: Object.freeze({ log: quiet, info: quiet, debug: quiet, warn: quiet, error: quiet, trace: quiet }), writable: false, configurable: false });
  Object.defineProperty(globalThis, 'performance', { value: Object.freeze({ now: hrNow, timeOrigin: 0 }), writable: false, configurable: false });
}
`;
