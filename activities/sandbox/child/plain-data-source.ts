/**
 * How values cross between the code under test and its tests in JavaScript: as *plain data*,
 * written as tagged JSON by `encode` in one QuickJS realm and rebuilt by `decode` in the other.
 * Plain data is `undefined`, `null`, booleans, numbers (NaN, ±Infinity and -0 included), strings,
 * bigints, arrays, plain objects (prototype `Object.prototype` or `null`), `Date`, `Map` and
 * `Set`. Anything else — a function, a class instance, a Promise — is refused with a TypeError
 * naming it, because a value that carries code would let the code under test decide how the
 * tests compare it (an `equals` that always says yes).
 *
 * `applyChanges` copies back changes the code made to arrays and objects it was given, so a test
 * of an in-place sort still sees the sorted array.
 */
export const PLAIN_DATA_SOURCE = String.raw`({
  encode: function encode(v, depth, at) {
    depth = depth || 0;
    at = at || '';
    const where = at ? ' (at ' + at + ')' : '';
    if (depth > 200) throw new TypeError('data nested more than 200 levels deep');
    switch (typeof v) {
      case 'undefined': return { $undefined: 1 };
      case 'boolean': case 'string': return v;
      case 'number': return Number.isFinite(v) && !Object.is(v, -0) ? v : { $number: Object.is(v, -0) ? '-0' : String(v) };
      case 'bigint': return { $bigint: String(v) };
      case 'object': {
        if (v === null) return null;
        if (Array.isArray(v)) { const out = []; for (let i = 0; i < v.length; i++) out.push(encode(v[i], depth + 1, at + '[' + i + ']')); return out; }
        if (v instanceof Date) return { $date: v.getTime() };
        if (v instanceof Map) return { $map: Array.from(v, (e) => [encode(e[0], depth + 1, at + '.<key>'), encode(e[1], depth + 1, at + '.get()')]) };
        if (v instanceof Set) return { $set: Array.from(v, (x) => encode(x, depth + 1, at + '.<item>')) };
        const proto = Object.getPrototypeOf(v);
        if (proto === Object.prototype || proto === null) {
          const out = {};
          for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: encode(v[k], depth + 1, at + '.' + k), enumerable: true, writable: true, configurable: true });
          return { $object: out };
        }
        const name = v.constructor && typeof v.constructor.name === 'string' && v.constructor.name ? v.constructor.name : 'non-plain';
        throw new TypeError('a ' + name + ' object' + where + ', which is not plain data');
      }
      default: throw new TypeError('a ' + typeof v + where + ', which is not plain data');
    }
  },
  decode: function decode(j) {
    if (j === null || typeof j !== 'object') return j;
    if (Array.isArray(j)) return j.map(decode);
    const keys = Object.keys(j);
    if (keys.length !== 1) throw new TypeError('not grove plain data');
    const v = j[keys[0]];
    switch (keys[0]) {
      case '$undefined': return undefined;
      case '$number': return Number(v);
      case '$bigint': return BigInt(v);
      case '$date': return new Date(v);
      case '$map': return new Map(v.map((e) => [decode(e[0]), decode(e[1])]));
      case '$set': return new Set(v.map(decode));
      case '$object': {
        const out = {};
        for (const k of Object.keys(v)) Object.defineProperty(out, k, { value: decode(v[k]), enumerable: true, writable: true, configurable: true });
        return out;
      }
    }
    throw new TypeError('not grove plain data');
  },
  applyChanges: function applyChanges(target, after) {
    if (Array.isArray(target) && Array.isArray(after)) { target.length = 0; for (const x of after) target.push(x); return; }
    if (target instanceof Map && after instanceof Map) { target.clear(); for (const [k, x] of after) target.set(k, x); return; }
    if (target instanceof Set && after instanceof Set) { target.clear(); for (const x of after) target.add(x); return; }
    if (target && after && typeof target === 'object' && typeof after === 'object' && Object.getPrototypeOf(target) === Object.prototype) {
      for (const k of Object.keys(target)) if (!(k in after)) delete target[k];
      for (const k of Object.keys(after)) Object.defineProperty(target, k, { value: after[k], enumerable: true, writable: true, configurable: true });
    }
  },
})`;
