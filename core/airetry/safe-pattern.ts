import { RE2JS } from 're2js';

/**
 * A user-supplied pattern, matched in time linear in the text (RE2 semantics, through `re2js`, a
 * pure-JavaScript RE2). JavaScript's own engine backtracks: `^Echo: (a+)+$` against forty `a`s and
 * a `b` runs for minutes, and in workflow code that blocks the workflow task until Temporal's
 * deadlock detector fails it, forever. RE2 has no backreferences or lookaround, so patterns that
 * need them are rejected when the run's input is checked, with the reason.
 */
export interface SafePattern {
  /** Whether the pattern matches somewhere in `text` (like `RegExp.prototype.test`). */
  test(text: string): boolean;
}

export class UnsupportedPatternError extends Error {
  override name = 'UnsupportedPatternError';
}

/** JavaScript flags that mean something to a single `test`; `g`, `y` and `d` do not, `u`/`v` are RE2's default. */
const FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

/**
 * @throws UnsupportedPatternError naming what RE2 cannot do (a backreference, a lookahead...).
 * @example
 * compilePattern('^y', 'i').test('Yellow') // true
 * compilePattern('^Echo: (a+)+$').test(`Echo: ${'a'.repeat(40)}b`) // false, in microseconds
 */
export function compilePattern(pattern: string, flags = ''): SafePattern {
  let bits = 0;
  for (const f of flags) bits |= FLAGS[f] ?? 0;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, bits);
  } catch (err) {
    const reason = (err as Error).message.replace(/^error parsing regexp: /, '');
    throw new UnsupportedPatternError(`not a pattern grove can match in linear time (RE2 syntax: no backreferences or lookaround): ${reason}`);
  }
  return { test: (text) => compiled.matcher(text).find() };
}
