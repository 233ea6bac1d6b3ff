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
const JS_RESERVED = new Set('break case catch class const continue debugger default delete do else export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static enum await implements package protected interface private public arguments eval undefined'.split(' '));

async function bootJs() {
  const { getQuickJS } = hostRequire(boot.paths.quickjs);
  const QuickJS = await getQuickJS();
  return (job) => runJs(QuickJS, job);
}

function runJs(QuickJS, job) {
  const started = hrNow();
  const deadline = started + job.timeoutMs;
  const state = { timedOut: false, overflow: false };
  const printed = { out: 0, err: 0 };
  const elapsed = () => Math.round(hrNow() - started);
  const done = (outcome) => {
    // A result larger than the output limit travels cut (grove bounds it again on its side).
    if (outcome.result !== undefined) { const json = JSON.stringify(outcome.result); if (json.length > job.maxOutputChars) outcome.result = json.slice(0, job.maxOutputChars); }
    if (outcome.error && outcome.error.message.length > 4000) outcome.error.message = outcome.error.message.slice(0, 4000);
    send({ t: 'done', outcome: Object.assign(outcome, { durationMs: elapsed() }) });
    exitNow(0);
  };
  const outputError = () => ({ kind: 'output', message: 'the program printed more than ' + job.maxOutputChars + ' characters; output truncated and the run stopped' });
  function print(stream, text) {
    if (state.overflow) return;
    const room = job.maxOutputChars - printed[stream];
    if (text.length > room) {
      // Stop at once: grove's count of the output decides the outcome; a loop of prints must not run on.
      state.overflow = true;
      writeAll(stream === 'out' ? 1 : 2, text.slice(0, Math.max(0, room)) + ' ');
      done({ ok: false, error: outputError() });
    }
    printed[stream] += text.length;
    if (text) writeAll(stream === 'out' ? 1 : 2, text);
  }
  const realm = () => newRealm(QuickJS, job, deadline, state, print);
  const describe = (vm, handle, file) => describeError(vm, handle, file, job, state);
  const run = (r, source, file) => evaluate(r, source, file, describe, state, job);

  const code = realm();
  // Names the tests use that the language already defines: the code may not replace them for the tests.
  const tokens = [...new Set(job.testCode === undefined ? [] : job.testCode.match(/[A-Za-z_$][\w$]*/g) || [])].filter((n) => !JS_RESERVED.has(n) && n.length <= 200);
  const pristine = new Map();
  for (const name of tokens) {
    const v = code.vm.evalCode(name, 'grove.js');
    if (v.error) v.error.dispose(); else pristine.set(name, v.value);
  }
  const sameValue = code.vm.unwrapResult(code.vm.evalCode('((a, b) => a === b || (a !== a && b !== b))', 'grove.js'));
  code.vm.unwrapResult(code.vm.evalCode('globalThis.exports = {}; globalThis.module = { exports: globalThis.exports };', 'grove.js')).dispose();
  const main = run(code, job.code, 'solution.js');
  if (main.error) return done({ ok: false, error: main.error });
  if (state.overflow) return done({ ok: false, error: outputError() });
  if (job.testCode === undefined) return done({ ok: true, result: plainResult(main.value) });

  const tests = realm();
  tests.vm.unwrapResult(tests.vm.evalCode(JS_TEST_PRELUDE_SOURCE, 'prelude.js')).dispose();
  const link = linkTests(code, tests, tokens, pristine, sameValue, describe);
  if (link.refused) return done({ ok: false, error: { kind: 'runtime', message: link.refused }, tests: { passed: 0, total: 0, completed: false } });
  const ran = run(tests, job.testCode, 'tests.js');
  const tally = JSON.parse(tests.vm.dump(tests.vm.unwrapResult(tests.vm.evalCode('JSON.stringify(__grove)'))));
  if (!ran.error && tally.pending > 0) tally.failures.push({ message: tally.pending + ' test' + (tally.pending === 1 ? '' : 's') + ' returned a promise that never settled' });
  const counts = { passed: tally.passed, total: tally.total + (tally.pending > 0 ? tally.pending : 0), completed: !ran.error && !state.timedOut && !state.overflow };
  if (ran.error) return done({ ok: false, error: ran.error, tests: counts });
  if (tally.failures.length > 0) {
    const f = tally.failures[0];
    const error = { kind: 'test', message: f.message + (tally.failures.length > 1 ? ' (and ' + (tally.failures.length - 1) + ' more failing)' : '') };
    if (f.test) error.test = f.test;
    return done({ ok: false, error, tests: counts });
  }
  done({ ok: true, result: plainResult(main.value), tests: counts });
}

function newRealm(QuickJS, job, deadline, state, print) {
  const rt = QuickJS.newRuntime();
  rt.setMemoryLimit(job.memoryMb * 1024 * 1024);
  rt.setMaxStackSize(256 * 1024);
  rt.setInterruptHandler(() => { if (state.overflow) return true; if (hrNow() > deadline) { state.timedOut = true; return true; } return false; });
  const vm = rt.newContext();
  const consoleObj = vm.newObject();
  for (const [name, stream] of [['log', 'out'], ['info', 'out'], ['debug', 'out'], ['warn', 'err'], ['error', 'err']]) {
    const fn = vm.newFunction(name, (...args) => {
      print(stream, args.map((h) => show(vm, h)).join(' ') + '\n');
    });
    vm.setProp(consoleObj, name, fn);
    fn.dispose();
  }
  vm.setProp(vm.global, 'console', consoleObj);
  consoleObj.dispose();
  return { rt, vm };
}

function show(vm, handle) {
  let v;
  try { v = vm.dump(handle); } catch (e) { return '[unprintable]'; }
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint') return v + 'n';
  try { return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x + 'n' : x)); } catch (e) { return String(v); }
}

function describeError(vm, handle, file, job, state) {
  let e;
  try { e = vm.dump(handle); } catch (err) { e = { name: 'Error', message: String(err && err.message || err) }; }
  if (handle.alive) handle.dispose();
  const name = e && e.name ? String(e.name) : 'Error';
  const message = e && e.message !== undefined ? name + ': ' + e.message : String(e);
  const at = /solution\.js:(\d+)/.exec(e && e.stack ? String(e.stack) : '');
  let kind = 'runtime';
  if (state.overflow) kind = 'output';
  else if (state.timedOut) kind = 'timeout';
  else if (name === 'SyntaxError') kind = 'syntax';
  else if (/out of memory|string too long|array too long|invalid array length/i.test(message)) kind = 'memory';
  const error = { kind, message: kind === 'timeout' ? 'the program ran longer than ' + job.timeoutMs + ' ms' : kind === 'output' ? 'the program printed more than ' + job.maxOutputChars + ' characters; output truncated and the run stopped' : (file === 'tests.js' ? 'in the tests: ' : '') + message };
  if (at) error.line = Number(at[1]);
  return error;
}

function evaluate(r, source, file, describe, state, job) {
  const res = r.vm.evalCode(source, file);
  if (res.error) return { error: describe(r.vm, res.error, file) };
  let value;
  try { value = r.vm.dump(res.value); } catch (e) { value = undefined; }
  if (res.value.alive) res.value.dispose();
  const jobs = r.rt.executePendingJobs();
  if (jobs.error) return { error: describe(r.vm, jobs.error, file) };
  // A deadline hit inside a promise job rejects that promise instead of reaching here as an error.
  if (state.timedOut) return { error: { kind: 'timeout', message: 'the program ran longer than ' + job.timeoutMs + ' ms' } };
  return { value };
}

/**
 * Gives the tests' realm a stand-in for each name the tests use that the code defines: a
 * function that calls across (plain data both ways), or a copy of a plain value. Refuses when
 * the code has replaced a built-in the tests use (parseInt, Math, JSON…): the tests' own stays,
 * and a test meant for the code's version would pass for the wrong reason.
 */
function linkTests(code, tests, tokens, pristine, sameValue, describe) {
  const codecC = code.vm.unwrapResult(code.vm.evalCode(PLAIN_DATA_SOURCE, 'grove.js'));
  const callerOf = code.vm.unwrapResult(code.vm.evalCode(JS_CALLER_SOURCE, 'grove.js'));
  const callC = code.vm.unwrapResult(code.vm.callFunction(callerOf, code.vm.undefined, codecC));
  const takeC = code.vm.getProp(callC, 'take');
  const encodeValueC = code.vm.unwrapResult(code.vm.callFunction(code.vm.unwrapResult(code.vm.evalCode('((c) => (v) => JSON.stringify(c.encode(v)))', 'grove.js')), code.vm.undefined, codecC));
  const codecT = tests.vm.unwrapResult(tests.vm.evalCode(PLAIN_DATA_SOURCE, 'grove.js'));
  const functions = new Map();
  const readText = (res, name) => {
    if (res.error) {
      const e = describe(code.vm, res.error, 'solution.js');
      return JSON.stringify({ error: { name: e.kind === 'memory' ? 'RangeError' : 'InternalError', message: e.message } });
    }
    const text = code.vm.typeof(res.value) === 'string' ? code.vm.getString(res.value) : '';
    res.value.dispose();
    try { JSON.parse(text); return text; } catch (e) { return JSON.stringify({ error: { name: 'TypeError', message: name + '() gave an answer grove could not read' } }); }
  };
  const callHost = tests.vm.newFunction('call', (nameH, jsonH) => {
    const name = tests.vm.getString(nameH);
    const arg = code.vm.newString(tests.vm.getString(jsonH));
    let text = readText(code.vm.callFunction(callC, code.vm.undefined, functions.get(name), arg), name);
    arg.dispose();
    code.rt.executePendingJobs();
    if (JSON.parse(text).pending) text = readText(code.vm.callFunction(takeC, code.vm.undefined), name);
    return tests.vm.newString(text);
  });
  const makeStub = tests.vm.unwrapResult(tests.vm.callFunction(tests.vm.unwrapResult(tests.vm.evalCode(JS_STUBS_SOURCE, 'grove.js')), tests.vm.undefined, callHost, codecT));
  const decodeValueT = tests.vm.unwrapResult(tests.vm.callFunction(tests.vm.unwrapResult(tests.vm.evalCode('((c) => (s) => c.decode(JSON.parse(s)))', 'grove.js')), tests.vm.undefined, codecT));
  for (const name of tokens) {
    const inTests = tests.vm.dump(tests.vm.unwrapResult(tests.vm.evalCode('typeof ' + name))) !== 'undefined';
    if (inTests) {
      const original = pristine.get(name);
      if (original === undefined) continue;
      const now = code.vm.evalCode(name, 'grove.js');
      if (now.error) { now.error.dispose(); continue; }
      const same = code.vm.dump(code.vm.unwrapResult(code.vm.callFunction(sameValue, code.vm.undefined, original, now.value)));
      now.value.dispose();
      if (!same) return { refused: 'the code redefines ' + name + ', a built-in the tests use: grove does not let the code under test replace what the tests rely on (rename it)' };
      continue;
    }
    const kind = code.vm.evalCode('typeof ' + name, 'grove.js');
    if (kind.error) { kind.error.dispose(); continue; }
    const type = code.vm.dump(kind.value);
    kind.value.dispose();
    if (type === 'undefined') continue;
    const valueH = code.vm.evalCode(name, 'grove.js');
    if (valueH.error) { valueH.error.dispose(); continue; }
    if (type === 'function') {
      functions.set(name, valueH.value);
      defineGlobal(tests.vm, name, tests.vm.unwrapResult(tests.vm.callFunction(makeStub, tests.vm.undefined, tests.vm.newString(name))));
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
  return {};
}

function defineGlobal(vm, name, handle) {
  vm.setProp(vm.global, name, handle);
  handle.dispose();
}

function plainResult(value) {
  if (value === undefined) return undefined;
  try { return JSON.parse(JSON.stringify(value, (k, x) => (typeof x === 'bigint' ? x + 'n' : x))); } catch (e) { return String(value); }
}
`;
