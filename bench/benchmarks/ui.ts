import type { Page } from 'playwright-core';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { RunSource } from '../../ui/server/run-source';
import { GroveKind } from '../../workflows/search-attributes';
import { startUiServer } from '../../ui/server/ui-server';
import type { ViewerProbe } from '../../ui/model/viewer-probe';
import { openBrowser } from '../lib/browser';
import { benchQueue } from '../lib/bench-env';
import { spread, type Benchmark, type Row } from '../lib/benchmark';

// What the page-side callbacks below see (they run in the browser).
declare const window: { groveViewer?: ViewerProbe };

const POLL_MS = 1000; // `grove ui`'s default
const GROW = 10; // nodes added per update

/**
 * The viewer's latency at 1,000 and 10,000 nodes, in headless Chromium against a live run on
 * the dev server (a benchmark workflow that holds a search-shaped tree and grows on a signal):
 * - page load: from navigation to the tree drawn (HTML, script, the server's query of the run,
 *   layout, drawing), and that last update's parts as the page measured them;
 * - update: from the signal that adds nodes to the page showing them, with the page polling
 *   every second as `grove ui` does (so about half a poll interval is waiting), and the page's
 *   own work per update (fetch, layout, draw) — the time its main thread is busy.
 */
export const ui: Benchmark = {
  name: 'ui',
  title: 'Tree viewer: page load and live update (headless Chromium)',
  needsTemporal: true,
  async run(env) {
    const sizes = env.quick ? [1_000] : [1_000, 10_000];
    const reps = env.quick ? 3 : 5;
    const taskQueue = benchQueue('ui');
    const worker = await env.worker(taskQueue);
    const running = worker.run();
    const server = await startUiServer({ source: new RunSource({ client: env.client, store: new MemoryMessageStore() }), port: 0, pollMs: POLL_MS });
    const browser = await openBrowser();
    const rows: Row[] = [];
    const raw: Record<string, unknown>[] = [];
    try {
      for (const nodes of sizes) {
        const handle = await env.client.workflow.start('viewerTree', {
          taskQueue,
          workflowId: `${taskQueue}-${nodes}`,
          args: [{ algorithm: 'mcts', prompt: 'Explore.', tools: ['multiply'] }, { nodes, seed: nodes }],
        });
        // The run says what it is (GroveKind) in its first workflow task: load pages after that.
        while (!(await handle.describe()).typedSearchAttributes.get(GroveKind)) await new Promise((r) => setTimeout(r, 100));
        const load = { total: [] as number[], fetch: [] as number[], layout: [] as number[], draw: [] as number[] };
        let page: Page | undefined;
        for (let i = 0; i < reps; i++) {
          await page?.close();
          await new Promise((r) => setTimeout(r, 300)); // past the server's reuse window: every load queries the run
          page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
          await page.goto(`${server.url}#/run/${encodeURIComponent(handle.workflowId)}`);
          await page.waitForFunction(() => (window.groveViewer?.updates ?? 0) >= 1, undefined, { timeout: 60_000 });
          const p = await page.evaluate(() => ({ ...window.groveViewer!, screenPosition: undefined }));
          if (p.nodes !== nodes) throw new Error(`${nodes} nodes: the page shows ${p.nodes} (${await page.locator('.run-note').innerText()})`);
          load.total.push(p.drawnAt);
          load.fetch.push(p.fetchMs);
          load.layout.push(p.layoutMs);
          load.draw.push(p.drawMs);
        }
        const update = { total: [] as number[], fetch: [] as number[], layout: [] as number[], draw: [] as number[] };
        for (let i = 0; i < reps; i++) {
          const before = await page!.evaluate(() => window.groveViewer!.nodes);
          const t0 = performance.now();
          await handle.signal('grow', GROW);
          await page!.waitForFunction((n) => window.groveViewer!.nodes >= n, before + GROW, { polling: 'raf', timeout: 30_000 }).catch(async (err: Error) => {
            const status = await page!.locator('[data-testid=status]').innerText();
            throw new Error(`${nodes} nodes: the page did not show ${GROW} more nodes (${status}): ${err.message.split('\n')[0]}`);
          });
          update.total.push(performance.now() - t0);
          const p = await page!.evaluate(() => ({ ...window.groveViewer!, screenPosition: undefined }));
          update.fetch.push(p.fetchMs);
          update.layout.push(p.layoutMs);
          update.draw.push(p.drawMs);
          await new Promise((r) => setTimeout(r, 200 + Math.random() * POLL_MS)); // signal at a random point of the poll cycle
        }
        await page?.close();
        await handle.signal('finish');
        await handle.result();
        const row = (what: string, m: typeof load): Row => ({
          nodes,
          what,
          'total ms': spread(m.total, 0).text,
          'fetch ms': spread(m.fetch, 0).text,
          'layout ms': spread(m.layout, 1).text,
          'draw ms': spread(m.draw, 1).text,
        });
        rows.push(row('page load', load), row(`update (+${GROW} nodes, poll ${POLL_MS} ms)`, update));
        raw.push({ nodes, load, update });
      }
    } finally {
      await browser.close();
      await server.close();
      worker.shutdown();
      await running;
    }
    return {
      tables: [{ title: `${this.title}; median (min–max) of ${reps}`, rows }],
      data: { pollMs: POLL_MS, grow: GROW, reps, rows, raw },
      notes: [
        'page load: navigation to the tree drawn; fetch = the run\'s view from the server (describe, input, tree query, adaptation, JSON) and parsing it',
        `update: signal to the new nodes on screen; the page asks every ${POLL_MS} ms, so about half of that is waiting; fetch + layout + draw is the page's work per update`,
      ],
    };
  },
};
