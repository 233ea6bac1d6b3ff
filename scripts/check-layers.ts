/**
 * The layer check: reads the import graph of grove's source folders and reports every import
 * circle between files and every arrow that runs back up the layers. Exits 1 when it finds any.
 *
 *     npx tsx scripts/check-layers.ts
 *
 * The layers, bottom to top (a file may import from its own floor and the floors below):
 * `runtime/`, `core/` · `activities/`, `model-server/` · `workflows/`, `temporal/` · `workers/`,
 * `ui/` · `client/` · `bench/`, `scripts/`. Every kind of import counts, type-only included: a
 * type that lives too high still drags its folder into the reader's build and review.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The floors, bottom first; folders on one floor may import each other. */
export const LAYERS: readonly (readonly string[])[] = [
  ['runtime', 'core'],
  ['activities', 'model-server'],
  ['workflows', 'temporal'],
  ['workers', 'ui'],
  ['client'],
  ['bench', 'scripts'],
];

/** Folders never read: tests, builds, dependencies. */
const SKIPPED = new Set(['test', 'dist', 'node_modules']);

/** Files (paths relative to the root, `/`-separated) and the files each one imports. */
export type ImportGraph = Map<string, string[]>;

export interface LayerReport {
  /** Each circle: the files of one strongly connected component (more than one file), sorted. */
  circles: string[][];
  /** Each arrow from a lower floor to a higher one, `from → to`. */
  backArrows: { from: string; to: string }[];
}

/**
 * The module specifiers a source text imports, in any form with a string literal (`import … from`,
 * `import type`, `export … from`, `import '…'`, `require('…')`, `import('…')`). TypeScript's own
 * scanner reads them, so an import shown in a comment or a string is not taken for one.
 *
 * @example
 * importsOf("import type { A } from './a';\nconst b = require('../b');"); // ['./a', '../b']
 */
export function importsOf(source: string): string[] {
  return [...new Set(ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName))];
}

/**
 * The import graph of the `.ts` files under `folders` of `root`: only relative imports count
 * (packages are outside the layers), resolved to a file (`x.ts`, `x.d.ts`, `x/index.ts`).
 *
 * @example
 * const graph = readImportGraph(process.cwd(), ['core', 'client']);
 */
export function readImportGraph(root: string, folders: readonly string[] = LAYERS.flat()): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const folder of folders) {
    for (const file of tsFiles(join(root, folder))) {
      const from = relative(root, file).split('\\').join('/');
      const targets = importsOf(readFileSync(file, 'utf8'))
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => resolveImport(dirname(file), spec))
        .filter((target): target is string => target !== undefined)
        .map((target) => relative(root, target).split('\\').join('/'));
      graph.set(from, [...new Set(targets)]);
    }
  }
  return graph;
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

function resolveImport(fromDir: string, spec: string): string | undefined {
  const base = resolve(fromDir, spec);
  const candidates = [base, `${base}.ts`, `${base}.d.ts`, join(base, 'index.ts')];
  if (base.endsWith('.js')) candidates.push(`${base.slice(0, -3)}.ts`);
  return candidates.find((path) => existsSync(path) && statSync(path).isFile() && path.endsWith('.ts'));
}

/** The floor of a file by its top folder (0 = bottom); undefined outside the layers. */
export function floorOf(file: string, layers: readonly (readonly string[])[] = LAYERS): number | undefined {
  const top = file.split('/')[0]!;
  const floor = layers.findIndex((folders) => folders.includes(top));
  return floor < 0 ? undefined : floor;
}

/**
 * The circles and back arrows of an import graph.
 *
 * @example
 * const report = checkLayers(new Map([['core/a.ts', ['core/b.ts']], ['core/b.ts', ['core/a.ts']]]));
 * report.circles; // [['core/a.ts', 'core/b.ts']]
 */
export function checkLayers(graph: ImportGraph, layers: readonly (readonly string[])[] = LAYERS): LayerReport {
  const backArrows: LayerReport['backArrows'] = [];
  for (const [from, targets] of graph) {
    const low = floorOf(from, layers);
    for (const to of targets) {
      const high = floorOf(to, layers);
      if (low !== undefined && high !== undefined && high > low) backArrows.push({ from, to });
    }
  }
  backArrows.sort((a, b) => (a.from + a.to).localeCompare(b.from + b.to));
  return { circles: stronglyConnected(graph).filter((c) => c.length > 1), backArrows };
}

/** Tarjan's strongly connected components, iteratively (a deep import chain must not overflow the stack). */
function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++]!;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component.sort());
      }
    }
  }
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The report as a reader wants it: each circle and each back arrow on its own line, or that there are none. */
export function formatReport(report: LayerReport): string {
  const lines: string[] = [];
  for (const circle of report.circles) lines.push(`circle (${circle.length} files): ${circle.join(' ↔ ')}`);
  for (const arrow of report.backArrows) lines.push(`back arrow: ${arrow.from} → ${arrow.to}`);
  lines.push(`${report.circles.length} import circle(s), ${report.backArrows.length} back arrow(s)`);
  return lines.join('\n');
}

if (require.main === module) {
  const report = checkLayers(readImportGraph(resolve(__dirname, '..')));
  console.log(formatReport(report));
  process.exitCode = report.circles.length > 0 || report.backArrows.length > 0 ? 1 : 0;
}
