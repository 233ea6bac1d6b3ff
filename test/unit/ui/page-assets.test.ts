import { EXPORT_CSP, exportedPage } from '../../../ui/server/page-assets';
import { parseRunFilter, visibilityQuery } from '../../../ui/server/run-filter';
import type { ExportData } from '../../../ui/server/run-view';

test('an exported page keeps hostile message text inert: the data cannot end its script element', () => {
  const hostile = '</script><script>alert(1)</script><!-- \u2028 \u2029';
  const data: ExportData = {
    view: {
      run: { workflowId: 'agent-1', kind: 'agent:mcts', status: 'succeeded', execution: 'COMPLETED', startTime: '2026-01-01T00:00:00.000Z' },
      tree: { nodes: [{ id: 0, parent: null, label: hostile, status: 'root', visits: 1 }], bestPath: [0] },
      facts: [['answer', hostile]],
      live: false,
      rev: 'r1',
    },
    parts: { 0: { facts: [], delta: { add: [{ role: 'user', content: hostile }] } } },
    exportedAt: '2026-01-01T00:00:00.000Z',
  };
  const html = exportedPage(data, 'console.log("</script>")');
  expect(html).not.toContain('<script>alert(1)');
  expect(html.match(/<\/script>/g)).toHaveLength(2); // the data element's and the script's own ends, nothing else
  expect(html).toContain(`content="${EXPORT_CSP}"`);
  expect(EXPORT_CSP).toMatch(/default-src 'none'/);
  const json = /<script id="grove-data" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1];
  expect(JSON.parse(json)).toEqual(data);
  expect(html).toContain('console.log("<\\/script>")');
});

test('run filters are plain words; a bad one is named', () => {
  expect(parseRunFilter(new URLSearchParams('status=running&kind=agent&limit=20'))).toEqual({ status: 'running', kind: 'agent', limit: 20 });
  expect(parseRunFilter(new URLSearchParams('status=&kind='))).toEqual({});
  expect(() => parseRunFilter(new URLSearchParams('status=x" OR 1=1'))).toThrow(/^status must be a word of letters, digits/);
  expect(() => parseRunFilter(new URLSearchParams('limit=0'))).toThrow(/^limit must be an integer from 1 to 1000, got "0"$/);
  expect(visibilityQuery({})).toBe('GroveKind IS NOT NULL');
  expect(visibilityQuery({ status: 'failed', kind: 'airetry' })).toBe('GroveKind IS NOT NULL AND GroveStatus = "failed" AND (GroveKind = "airetry" OR GroveKind STARTS_WITH "airetry:")');
  expect(visibilityQuery({ kind: 'agent' })).toBe('GroveKind IS NOT NULL AND (GroveKind = "agent" OR GroveKind STARTS_WITH "agent:")');
  expect(visibilityQuery({ kind: 'code-fixer' })).toBe('GroveKind IS NOT NULL AND (GroveKind IN ("code-fixer", "codeFixer") OR GroveKind STARTS_WITH "code-fixer:")');
});
