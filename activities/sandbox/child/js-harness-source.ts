/**
 * The JavaScript test harness, as source evaluated in the tests' QuickJS realm (trusted: only
 * the harness and the user's tests run there) and the caller evaluated in the code's realm
 * (untrusted: the code can change anything it uses — which only changes what the code answers).
 *
 * `assert.equal` / `assert.deepEqual` are deep *strict* equality, decided in the tests' realm:
 * `Object.is` for primitives (NaN equals NaN; -0 is not 0), same prototype, `Date` by time, `Map`
 * and `Set` by their entries, plain objects by their own enumerable keys in any order, arrays by
 * length and elements. A test function may return a promise: its rejection fails the test, and
 * one that never settles fails it too; a generator function never runs and is refused.
 */
export const JS_TEST_PRELUDE_SOURCE = String.raw`
globalThis.__grove = { passed: 0, total: 0, failures: [], current: undefined, pending: 0 };
(() => {
  const grove = globalThis.__grove;
  const fail = (message, test) => {
    const at = /tests\.js:(\d+)/.exec(new Error().stack || '');
    grove.failures.push({ message: (test ? test + ': ' : '') + message, line: at ? Number(at[1]) : undefined, test });
  };
  function same(a, b, seen) {
    if (Object.is(a, b)) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    for (const [x, y] of seen) if (x === a && y === b) return true;
    seen = seen.concat([[a, b]]);
    if (a instanceof Date) return Object.is(a.getTime(), b.getTime());
    if (a instanceof Map) {
      if (a.size !== b.size) return false;
      for (const [k, v] of a) if (!b.has(k) || !same(v, b.get(k), seen)) return false;
      return true;
    }
    if (a instanceof Set) {
      if (a.size !== b.size) return false;
      outer: for (const x of a) {
        if (b.has(x)) continue;
        for (const y of b) if (same(x, y, seen)) continue outer;
        return false;
      }
      return true;
    }
    if (Array.isArray(a) && a.length !== b.length) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !same(a[k], b[k], seen)) return false;
    return true;
  }
  function show(v) {
    if (typeof v === 'bigint') return v + 'n';
    if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
    if (v === undefined) return 'undefined';
    if (v instanceof Map) return 'Map(' + show([...v]) + ')';
    if (v instanceof Set) return 'Set(' + show([...v]) + ')';
    try { return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? x + 'n' : x === undefined ? '(undefined)' : typeof x === 'number' && !Number.isFinite(x) ? String(x) : x)); } catch (e) { return String(v); }
  }
  globalThis.assert = function assert(cond, message) {
    grove.total++;
    if (cond) { grove.passed++; return; }
    fail(message || 'assertion failed', grove.current);
  };
  assert.equal = (actual, expected, message) => assert(same(actual, expected, []), message || ('expected ' + show(expected) + ', got ' + show(actual)));
  assert.deepEqual = assert.equal;
  assert.strictEqual = assert.equal;
  assert.ok = (cond, message) => assert(cond, message);
  globalThis.test = function test(name, fn) {
    grove.current = name;
    try {
      const r = fn();
      if (r && typeof r.then === 'function') {
        grove.pending++;
        r.then(() => { grove.pending--; }, (e) => { grove.pending--; grove.total++; fail(String(e), name); });
      } else if (r && typeof r.next === 'function' && typeof r[Symbol.iterator] === 'function') {
        grove.total++;
        fail('a generator function is never run as a test; write a plain or async function', name);
      }
    } catch (e) {
      grove.total++;
      fail(String(e), name);
    }
    grove.current = undefined;
  };
})();
`;

/**
 * The call into the code, evaluated in the code's realm: arguments in and the result out as
 * plain data (JSON text). A result that is a promise is settled by running the code's pending
 * jobs; `take()` then gives its value or its rejection.
 */
export const JS_CALLER_SOURCE = String.raw`((codec) => {
  let box;
  const errorOf = (e) => {
    const stack = e && e.stack ? String(e.stack) : '';
    const at = /solution\.js:(\d+)/.exec(stack);
    return { name: e && e.name ? String(e.name) : 'Error', message: e && e.message !== undefined ? String(e.message) : String(e), line: at ? Number(at[1]) : undefined };
  };
  const answer = (value, args) => {
    try { return JSON.stringify({ value: codec.encode(value), args: codec.encode(args) }); }
    catch (e) { return JSON.stringify({ error: { name: 'TypeError', message: 'returned ' + (e && e.message || e) + ': only plain data crosses from the code to the tests', notPlain: true } }); }
  };
  const call = (f, json) => {
    let args;
    try { args = codec.decode(JSON.parse(json)); } catch (e) { return JSON.stringify({ error: { name: 'TypeError', message: 'grove could not pass the arguments: ' + e } }); }
    let value;
    try { value = f(...args); } catch (e) { return JSON.stringify({ error: errorOf(e) }); }
    if (value && typeof value.then === 'function') {
      box = undefined;
      value.then((v) => { box = answer(v, args); }, (e) => { box = JSON.stringify({ error: errorOf(e) }); });
      return '{"pending":true}';
    }
    return answer(value, args);
  };
  call.take = () => (box === undefined ? JSON.stringify({ error: { name: 'Error', message: 'the promise it returned did not settle' } }) : box);
  return call;
})`;

/** The stand-in the tests' realm gets for a function of the code: plain data over, plain data back. */
export const JS_STUBS_SOURCE = String.raw`((call, codec) => (name) => function (...args) {
  let json;
  try { json = JSON.stringify(codec.encode(args)); } catch (e) { throw new TypeError('the tests pass ' + e.message + ' to ' + name + '(): only plain data crosses from the tests to the code'); }
  const reply = JSON.parse(call(name, json));
  if (reply.error) {
    const known = { TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };
    const E = known[reply.error.name] || Error;
    const e = new E(reply.error.message);
    if (!known[reply.error.name]) e.name = reply.error.name;
    throw e;
  }
  if (reply.args) { const after = codec.decode(reply.args); for (let i = 0; i < args.length; i++) codec.applyChanges(args[i], after[i]); }
  return codec.decode(reply.value);
})`;
