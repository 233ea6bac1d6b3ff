import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/**
 * core/ and workflows/ import one way: no module reaches itself through its imports. Type-only
 * imports count too — a circle of types is still two modules that cannot be read, changed or
 * split apart one at a time.
 */
const ROOT = join(__dirname, '../../..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => join(dirname(file), name))
    .map((base) => [`${base}.ts`, join(base, 'index.ts')].find((f) => existsSync(f)))
    .filter((f): f is string => f !== undefined);
}

/** Strongly connected components of more than one module (Tarjan). */
function circles(files: string[]): string[][] {
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((g) => g !== f)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        component.push(relative(ROOT, w));
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const f of graph.keys()) if (!index.has(f)) visit(f);
  return found;
}

test('core/ and workflows/ have no import circle (type-only imports included)', () => {
  expect(circles([...tsFiles(join(ROOT, 'core')), ...tsFiles(join(ROOT, 'workflows'))])).toEqual([]);
});

test('the check finds a circle made of type-only imports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'grove-circles-'));
  writeFileSync(join(dir, 'a.ts'), "import type { B } from './b';\nexport interface A { b: B }\n");
  writeFileSync(join(dir, 'b.ts'), "import type { A } from './a';\nexport interface B { a?: A }\n");
  writeFileSync(join(dir, 'c.ts'), "import type { A } from './a';\nexport type C = A;\n");
  expect(circles(tsFiles(dir)).map((c) => c.map((f) => f.slice(f.lastIndexOf('/') + 1)))).toEqual([['a.ts', 'b.ts']]);
});
