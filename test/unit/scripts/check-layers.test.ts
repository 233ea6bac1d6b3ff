import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { checkLayers, importsOf, readImportGraph } from '../../../scripts/check-layers';

const ROOT = resolve(__dirname, '../../..');

describe('the layer check (npx tsx scripts/check-layers.ts)', () => {
  it('finds no import circle and no back arrow in grove', () => {
    expect(checkLayers(readImportGraph(ROOT))).toEqual({ circles: [], backArrows: [] });
  });

  it('reads every form of import, and none shown in a comment or a string', () => {
    const source = [
      "import type { A } from './a';",
      "import { B } from '../b/index';",
      "export * from './c';",
      "export type { D } from './d';",
      "import './e';",
      "const f = require('./f');",
      "const g = () => import('./g');",
      "// import h from './h';",
      "/** @example import i from './i' */",
      "const text = \"import j from './j'\";",
      "import { k } from 'pkg';",
    ].join('\n');
    expect(importsOf(source).sort()).toEqual(['../b/index', './a', './c', './d', './e', './f', './g', 'pkg']);
  });

  describe('on a small grove of its own', () => {
    let root: string;
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), 'grove-layers-'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    it('reports a circle between files and an arrow back up the layers', () => {
      write('core/a.ts', "import { b } from './b';\nexport const a = b;");
      write('core/b.ts', "import type { A } from './nested';\nexport const b = 1;");
      write('core/nested/index.ts', "import { a } from '../a';\nexport type A = typeof a;");
      write('activities/act.ts', "export type { Run } from '../workflows/run';");
      write('workflows/run.ts', "import { a } from '../core/a';\nexport type Run = typeof a;");
      write('client/cli.ts', "import { a } from '../core/a';\nconst w = require('../workflows/run');");
      write('core/test/ignored.ts', "import '../../client/cli';");

      const report = checkLayers(readImportGraph(root));

      expect(report.circles).toEqual([['core/a.ts', 'core/b.ts', 'core/nested/index.ts']]);
      expect(report.backArrows).toEqual([{ from: 'activities/act.ts', to: 'workflows/run.ts' }]);
    });

    it('reports nothing for a graph whose arrows all run down', () => {
      write('core/a.ts', 'export const a = 1;');
      write('workers/w.ts', "import { a } from '../core/a';");
      write('client/c.ts', "import '../workers/w';\nimport { a } from '../core/a';");

      expect(checkLayers(readImportGraph(root))).toEqual({ circles: [], backArrows: [] });
    });
  });
});
