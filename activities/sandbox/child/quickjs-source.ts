/**
 * The JavaScript/TypeScript engine of a sandbox child (plain JavaScript; uses the prelude's
 * channel and `PLAIN_DATA` — see child-source.ts). QuickJS-WASM holds the code: it can reach
 * nothing but the `console` grove hands it.
 *
 * Tests run in a second QuickJS runtime (its own heap, its own globals), never in the code's:
 * the code cannot rebind `assert`, touch the tally or patch what the tests call. For each name
 * the test code mentions that the code defines, the tests' realm gets a stand-in: a function
 * that passes plain data over to the code's function and plain data back (see
 * plain-data-source.ts), or a copy of a plain value. The tally lives in the tests' realm, and
 * the outcome is sent on the channel by this closure, which neither realm can reach.
 */
export const QUICKJS_SOURCE = String.raw`
const TEST_PRELUDE = [
  'globalThis.__grove = { passed: 0, total: 0, failures: [], current: undefined };',
  'globalThis.assert = function assert(cond, message) {',
  '  __grove.total++;',
  '  if (cond) { __grove.passed++; return; }',
  '  const at = /tests\\.js:(\\d+)/.exec(new Error().stack || "");',
  '  __grove.failures.push({ message: (__grove.current ? __grove.current + ": " : "") + (message || "assertion failed"), line: at ? Number(at[1]) : undefined, test: __grove.current });',
  '};',
  'assert.equal = (a, b, m) => assert(JSON.stringify(a) === JSON.stringify(b), m || ("expected " + JSON.stringify(b) + ", got " + JSON.stringify(a)));',
  'assert.deepEqual = assert.equal;',
  'assert.ok = (cond, m) => assert(cond, m);',
  'globalThis.test = function test(name, fn) {',
  '  __grove.current = name;',
  '  try { fn(); } catch (e) { __grove.total++; __grove.failures.push({ message: name + ": " + e, test: name }); }',
  '  __grove.current = undefined;',
  '};',
].join('\n');

const CALLER = '((codec) => (f, json) => {' +
  'let args; try { args = codec.decode(JSON.parse(json)); } catch (e) { return JSON.stringify({ error: { name: "TypeError", message: "grove could not pass the arguments: " + e } }); }' +
  'let value; try { value = f(...args); } catch (e) {' +
  '  const stack = e && e.stack ? String(e.stack) : ""; const at = /solution\\.js:(\\d+)/.exec(stack);' +
  '  return JSON.stringify({ error: { name: e && e.name ? String(e.name) : "Error", message: e && e.message !== undefined ? String(e.message) : String(e), line: at ? Number(at[1]) : undefined } }); }' +
  'try { return JSON.stringify({ value: codec.encode(value), args: codec.encode(args) }); }' +
  'catch (e) { return JSON.stringify({ error: { name: "TypeError", message: "returned " + (e && e.message || e) + ": only plain data crosses from the code to the tests", notPlain: true } }); }' +
'})';

const STUBS = '((call, codec) => (name) => function (...args) {' +
  'let json; try { json = JSON.stringify(codec.encode(args)); } catch (e) { throw new TypeError("the tests pass " + e.message + " to " + name + "(): only plain data crosses from the tests to the code"); }' +
  'const reply = JSON.parse(call(name, json));' +
  'if (reply.error) { const known = { TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError }; const E = known[reply.error.name] || Error; const e = new E(reply.error.message); if (!known[reply.error.name]) e.name = reply.error.name; throw e; }' +
  'if (reply.args) { const after = codec.decode(reply.args); for (let i = 0; i < args.length; i++) codec.applyChanges(args[i], after[i]); }' +
  'return codec.decode(reply.value);' +
'})';

const JS_RESERVED = new Set('break case catch class const continue debugger default delete do else export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static enum await implements package protected interface private public arguments eval undefined'.split(' '));

async function bootJs() {
  const { getQuickJS } = hostRequire(boot.paths.quickjs);
  const QuickJS = await getQuickJS();
  return (job) => runJs(QuickJS, job);
}

function runJs(QuickJS, job) {
  const started = hrNow();
  const deadline = started + job.timeoutMs;
  let timedOut = false;
  let overflow = false;
  const printed = { out: 0, err: 0 };
  function print(stream, text) {
    if (overflow) return;
    const room = job.maxOutputChars - printed[stream];
    if (text.length > room) {
      // Stop at once: grove's count of the output decides the outcome; a loop of prints must not run on.
      overflow = true;
      writeAll(stream === 'out' ? 1 : 2, text.slice(0, Math.max(0, room)) + ' ');
      done({ ok: false, error: { kind: 'output', message: 'the program printed more than ' + job.maxOutputChars + ' characters to std' + stream + '; output truncated and the run stopped' } });
    }
    printed[stream] += text.length;
    if (text) writeAll(stream === 'out' ? 1 : 2, text);
  }
  function realm() {
    const rt = QuickJS.newRuntime();
    rt.setMemoryLimit(job.memoryMb * 1024 * 1024);
    rt.setMaxStackSize(256 * 1024);
    rt.setInterruptHandler(() => { if (overflow) return true; if (hrNow() > deadline) { timedOut = true; return true; } return false; });
    const vm = rt.newContext();
    const consoleObj = vm.newObject();
    for (const [name, stream] of [['log', 'out'], ['info', 'out'], ['debug', 'out'], ['warn', 'err'], ['error', 'err']]) {
      const fn = vm.newFunction(name, (...args) => {
        const parts = args.map((h) => { let v; try { v = vm.dump(h); } catch (e) { v = '[unprintable]'; } return typeof v === 'string' ? v : JSON.stringify(v); });
        print(stream, parts.join(' ') + '\n');
      });
      vm.setProp(consoleObj, name, fn);
      fn.dispose();
    }
    vm.setProp(vm.global, 'console', consoleObj);
    consoleObj.dispose();
    return { rt, vm };
  }
  function describe(vm, handle, file) {
    let e;
    try { e = vm.dump(handle); } catch (err) { e = { name: 'Error', message: String(err && err.message || err) }; }
    if (handle.alive) handle.dispose();
    const name = e && e.name ? String(e.name) : 'Error';
    const message = e && e.message !== undefined ? name + ': ' + e.message : String(e);
    const stack = e && e.stack ? String(e.stack) : '';
    const at = /solution\.js:(\d+)/.exec(stack);
    let kind = 'runtime';
    if (overflow) kind = 'output';
    else if (timedOut) kind = 'timeout';
    else if (name === 'SyntaxError') kind = 'syntax';
    else if (/out of memory|string too long|array too long|invalid array length/i.test(message)) kind = 'memory';
    const error = { kind, message: kind === 'timeout' ? 'the program ran longer than ' + job.timeoutMs + ' ms' : kind === 'output' ? 'the program printed more than ' + job.maxOutputChars + ' characters; output truncated and the run stopped' : (file === 'tests.js' ? 'in the tests: ' : '') + message };
    if (at) error.line = Number(at[1]);
    return error;
  }
  function run(r, source, file) {
    const res = r.vm.evalCode(source, file);
    if (res.error) return { error: describe(r.vm, res.error, file) };
    let value;
    try { value = r.vm.dump(res.value); } catch (e) { value = undefined; }
    if (res.value.alive) res.value.dispose();
    const jobs = r.rt.executePendingJobs();
    if (jobs.error) return { error: describe(r.vm, jobs.error, file) };
    // A deadline hit inside a promise job rejects that promise instead of reaching here as an error.
    if (timedOut) return { error: { kind: 'timeout', message: 'the program ran longer than ' + job.timeoutMs + ' ms' } };
    return { value };
  }
  const elapsed = () => Math.round(hrNow() - started);
  const done = (outcome) => { send({ t: 'done', outcome: Object.assign(outcome, { durationMs: elapsed() }) }); exitNow(0); };

  const code = realm();
  const main = run(code, job.code, 'solution.js');
  if (main.error) return done({ ok: false, error: main.error });
  if (overflow) return done({ ok: false, error: { kind: 'output', message: 'the program printed more than ' + job.maxOutputChars + ' characters; output truncated and the run stopped' } });
  if (job.testCode === undefined) return done({ ok: true, result: plainResult(main.value) });

  const tests = realm();
  tests.vm.unwrapResult(tests.vm.evalCode(TEST_PRELUDE, 'prelude.js')).dispose();
  const codecC = code.vm.unwrapResult(code.vm.evalCode(PLAIN_DATA_SOURCE, 'grove.js'));
  const caller = code.vm.unwrapResult(code.vm.evalCode(CALLER, 'grove.js'));
  const callC = code.vm.unwrapResult(code.vm.callFunction(caller, code.vm.undefined, codecC));
  const encodeC = code.vm.unwrapResult(code.vm.evalCode('((c) => (v) => JSON.stringify(c.encode(v)))', 'grove.js'));
  const encodeValueC = code.vm.unwrapResult(code.vm.callFunction(encodeC, code.vm.undefined, codecC));
  const codecT = tests.vm.unwrapResult(tests.vm.evalCode(PLAIN_DATA_SOURCE, 'grove.js'));
  const functions = new Map();
  const callHost = tests.vm.newFunction('call', (nameH, jsonH) => {
    const name = tests.vm.getString(nameH);
    const arg = code.vm.newString(tests.vm.getString(jsonH));
    const res = code.vm.callFunction(callC, code.vm.undefined, functions.get(name), arg);
    arg.dispose();
    let text;
    if (res.error) {
      const e = describe(code.vm, res.error, 'solution.js');
      text = JSON.stringify({ error: { name: e.kind === 'memory' ? 'RangeError' : 'InternalError', message: e.message } });
    } else {
      text = code.vm.typeof(res.value) === 'string' ? code.vm.getString(res.value) : '';
      res.value.dispose();
      code.rt.executePendingJobs();
      try { JSON.parse(text); } catch (e) { text = JSON.stringify({ error: { name: 'TypeError', message: name + '() gave an answer grove could not read' } }); }
    }
    return tests.vm.newString(text);
  });
  const stubsOf = tests.vm.unwrapResult(tests.vm.evalCode(STUBS, 'grove.js'));
  const makeStub = tests.vm.unwrapResult(tests.vm.callFunction(stubsOf, tests.vm.undefined, callHost, codecT));
  const decodeT = tests.vm.unwrapResult(tests.vm.evalCode('((c) => (s) => c.decode(JSON.parse(s)))', 'grove.js'));
  const decodeValueT = tests.vm.unwrapResult(tests.vm.callFunction(decodeT, tests.vm.undefined, codecT));
  const tokens = new Set(job.testCode.match(/[A-Za-z_$][\w$]*/g) || []);
  for (const name of tokens) {
    if (JS_RESERVED.has(name) || name.length > 200) continue;
    if (tests.vm.dump(tests.vm.unwrapResult(tests.vm.evalCode('typeof ' + name))) !== 'undefined') continue;
    const kind = code.vm.evalCode('typeof ' + name, 'grove.js');
    if (kind.error) { kind.error.dispose(); continue; }
    const type = code.vm.dump(kind.value);
    kind.value.dispose();
    if (type === 'undefined') continue;
    const valueH = code.vm.evalCode(name, 'grove.js');
    if (valueH.error) { valueH.error.dispose(); continue; }
    if (type === 'function') {
      functions.set(name, valueH.value);
      const stub = tests.vm.unwrapResult(tests.vm.callFunction(makeStub, tests.vm.undefined, tests.vm.newString(name)));
      defineGlobal(tests.vm, name, stub);
      continue;
    }
    const enc = code.vm.callFunction(encodeValueC, code.vm.undefined, valueH.value);
    valueH.value.dispose();
    if (!enc.error && code.vm.typeof(enc.value) === 'string') {
      const copy = tests.vm.callFunction(decodeValueT, tests.vm.undefined, tests.vm.newString(code.vm.getString(enc.value)));
      enc.value.dispose();
      if (!copy.error) { defineGlobal(tests.vm, name, copy.value); continue; }
      copy.error.dispose();
    } else if (enc.error) enc.error.dispose(); else enc.value.dispose();
    const message = JSON.stringify('the tests use ' + name + ', which is not plain data: grove runs the tests apart from the code, and only plain data crosses');
    tests.vm.unwrapResult(tests.vm.evalCode('Object.defineProperty(globalThis, ' + JSON.stringify(name) + ', { configurable: true, get() { throw new TypeError(' + message + '); } })', 'grove.js')).dispose();
  }
  const ran = run(tests, job.testCode, 'tests.js');
  const tally = JSON.parse(tests.vm.dump(tests.vm.unwrapResult(tests.vm.evalCode('JSON.stringify(__grove)'))));
  const counts = { passed: tally.passed, total: tally.total, completed: !ran.error && !timedOut && !overflow };
  if (ran.error) return done({ ok: false, error: ran.error, tests: counts });
  if (tally.failures.length > 0) {
    const f = tally.failures[0];
    const error = { kind: 'test', message: f.message + (tally.failures.length > 1 ? ' (and ' + (tally.failures.length - 1) + ' more failing)' : '') };
    if (f.test) error.test = f.test;
    return done({ ok: false, error, tests: counts });
  }
  done({ ok: true, result: plainResult(main.value), tests: counts });
}

function defineGlobal(vm, name, handle) {
  vm.setProp(vm.global, name, handle);
  handle.dispose();
}

function plainResult(value) {
  if (value === undefined) return undefined;
  try { return JSON.parse(JSON.stringify(value)); } catch (e) { return String(value); }
}
`;
