import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * core/ must bundle into a Temporal workflow: relative imports, zod and re2js only, and none of the
 * nondeterministic or Node-only globals. Comments are stripped first (they may mention them).
 */
const CORE = join(__dirname, '../../../core');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Removes comments, keeping string literals (a `//` inside a string is not a comment). */
function stripComments(src: string): string {
  let out = '';
  let i = 0;
  let quote: string | null = null;
  while (i < src.length) {
    const c = src[i];
    const next = src[i + 1];
    if (quote) {
      out += c;
      if (c === '\\') {
        out += next ?? '';
        i += 2;
        continue;
      }
      if (c === quote) quote = null;
      i++;
    } else if (c === '/' && next === '/') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 2;
    } else {
      if (c === '"' || c === "'" || c === '`') quote = c;
      out += c;
      i++;
    }
  }
  return out;
}

/** Code with string contents blanked, so words inside messages don't count. */
function blankStrings(code: string): string {
  return code.replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1/g, (s) => s[0] + ' '.repeat(s.length - 2) + s[0]);
}

const FORBIDDEN: Array<[string, RegExp]> = [
  ['Date', /\bDate\b/],
  ['Math.random', /\bMath\s*\.\s*random\b/],
  ['setTimeout', /\bsetTimeout\b/],
  ['setInterval', /\bsetInterval\b/],
  ['setImmediate', /\bsetImmediate\b/],
  ['process', /\bprocess\b/],
  ['require(', /\brequire\s*\(/],
  ['dynamic import(', /\bimport\s*\(/],
  ['console', /\bconsole\b/],
  ['performance', /\bperformance\b/],
];

/** Packages core may import: zod (schemas) and re2js (linear-time user patterns), both pure and deterministic. */
const ALLOWED = new Set(['zod', 're2js']);

function violations(src: string): string[] {
  const code = stripComments(src);
  const problems: string[] = [];
  for (const m of code.matchAll(/\b(?:import|export)\b[^;'"`]*?\bfrom\s*(['"])([^'"]+)\1/g)) {
    if (!m[2].startsWith('./') && !m[2].startsWith('../') && !ALLOWED.has(m[2])) problems.push(`imports '${m[2]}'`);
  }
  for (const m of code.matchAll(/\bimport\s*(['"])([^'"]+)\1/g)) {
    if (!m[2].startsWith('./') && !m[2].startsWith('../') && !ALLOWED.has(m[2])) problems.push(`imports '${m[2]}'`);
  }
  const bare = blankStrings(code);
  for (const [name, re] of FORBIDDEN) if (re.test(bare)) problems.push(`uses ${name}`);
  return problems;
}

describe('core purity guard', () => {
  const files = tsFiles(CORE);

  it('finds the core sources', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.map((f) => relative(CORE, f))).toEqual(expect.arrayContaining(['index.ts', 'random.ts', 'tree/sample-tree.ts']));
  });

  it('every core file imports only relative paths or zod and uses no forbidden globals', () => {
    const report = files.flatMap((f) => violations(readFileSync(f, 'utf8')).map((p) => `${relative(CORE, f)}: ${p}`));
    expect(report).toEqual([]);
  });

  it('the guard itself catches what it should (and ignores comments and strings)', () => {
    expect(violations(`import { readFileSync } from 'node:fs';`)).toEqual([`imports 'node:fs'`]);
    expect(violations(`import type { X } from '@temporalio/workflow';`)).toEqual([`imports '@temporalio/workflow'`]);
    expect(violations(`import 'reflect-metadata';`)).toEqual([`imports 'reflect-metadata'`]);
    expect(violations(`export * from 'lodash';`)).toEqual([`imports 'lodash'`]);
    expect(violations(`const t = Date.now();`)).toEqual(['uses Date']);
    expect(violations(`const x = Math.random();`)).toEqual(['uses Math.random']);
    expect(violations(`setTimeout(f, 1);`)).toEqual(['uses setTimeout']);
    expect(violations(`if (process.env.X) {}`)).toEqual(['uses process']);
    expect(violations(`const fs = require('fs');`)).toEqual(['uses require(']);
    expect(violations(`console.log(1);`)).toEqual(['uses console']);
    expect(violations(`import { z } from 'zod';\nimport { a } from '../a';\n// Date.now() in a comment\n/* process */`)).toEqual([]);
    expect(violations(`const msg = 'Deadline: no Date or process here';`)).toEqual([]);
    expect(violations("const url = 'http://x'; const y = Date.now();")).toEqual(['uses Date']);
  });
});
