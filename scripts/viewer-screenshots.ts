/**
 * The viewer's screenshots in docs/viewer.md: MCTS searches of about 10, 100 and 1,000 nodes on
 * the Saplings quickstart, run in this process by the same search code, activities and scripted
 * models as a durable run (no Temporal), drawn by the viewer's own adapter into the page `grove ui
 * export` writes, and shot in headless Chromium.
 *
 *   npx tsx scripts/viewer-screenshots.ts            # writes docs/images/viewer-*.png
 *   npx tsx scripts/viewer-screenshots.ts --out DIR  # elsewhere
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AgentInput } from '../core/agents/agent-options';
import { agentAdapter } from '../ui/adapters/agent-adapter';
import type { ViewerProbe } from '../ui/model/viewer-probe';
import { exportedPage, pageScript } from '../ui/server/page-assets';
import { exportData, snapshotView } from '../ui/server/run-view';
import { openBrowser } from '../bench/lib/browser';
import { inProcessAgent, quickstartInput, searchInProcess } from '../bench/lib/in-process-agent';

declare const window: { groveViewer?: ViewerProbe };

/** One shot: a search's input and seed, and what to show (a click on its best node, the page as it opens). */
interface Shot {
  name: string;
  input: AgentInput;
  seed: number;
  click?: 'best';
  /** A toolbar button to press first. */
  press?: string;
}

const SHOTS: Shot[] = [
  { name: 'viewer-10', seed: 1, input: quickstartInput({ model: 'multiplier?p=0.2&guess=0.2', seed: 1, bFactor: 2, maxRollouts: 4, budget: { maxCalls: 100 } }), click: 'best' },
  { name: 'viewer-100', seed: 7, input: quickstartInput({ model: 'multiplier?p=0.65&guess=0.1', seed: 7, bFactor: 3, maxRollouts: 30, budget: { maxCalls: 400 } }), click: 'best' },
  { name: 'viewer-1000', seed: 61, input: quickstartInput({ model: 'multiplier?p=0.72&guess=0.04', seed: 61, bFactor: 4, maxRollouts: 300, budget: { maxCalls: 4000 } }), click: 'best' },
  { name: 'viewer-1000-expanded', seed: 61, input: quickstartInput({ model: 'multiplier?p=0.72&guess=0.04', seed: 61, bFactor: 4, maxRollouts: 300, budget: { maxCalls: 4000 } }), press: 'expand all' },
];

async function main(): Promise<void> {
  const at = process.argv.indexOf('--out');
  const out = resolve(at >= 0 ? process.argv[at + 1] : join(__dirname, '..', 'docs', 'images'));
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : undefined;
  mkdirSync(out, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'grove-shots-'));
  const script = pageScript();
  const browser = await openBrowser();
  try {
    for (const shot of SHOTS.filter((s) => !only || only.includes(s.name))) {
      const env = inProcessAgent({ seed: shot.seed });
      const run = await searchInProcess(shot.input, { env });
      if (run.handover) throw new Error(`${shot.name}: unexpected handover`);
      const result = { tree: run.state.tree.toJSON(), bestNodeId: run.outcome.bestId, isSolution: run.outcome.isSolution, answer: run.answer, counters: run.state.counters, stop: run.outcome.stop, score: run.outcome.score };
      const snapshot = await agentAdapter.snapshot({ live: false, input: shot.input, result: async () => result, query: async () => undefined, store: env.store });
      const now = new Date('2025-01-01T12:00:00Z');
      const summary = { workflowId: `mcts-${run.state.tree.size}-nodes`, kind: 'agent:mcts', status: run.outcome.isSolution ? 'succeeded' : 'exhausted', execution: 'COMPLETED', calls: run.state.counters.llmCalls, startTime: now.toISOString() };
      const data = await exportData(snapshotView(summary, false, snapshot), snapshot, env.store, now);
      const file = join(dir, `${shot.name}.html`);
      writeFileSync(file, exportedPage(data, script));
      const page = await browser.newPage({ viewport: { width: 1500, height: 860 } });
      await page.goto(`file://${file}`);
      await page.waitForFunction(() => (window.groveViewer?.updates ?? 0) >= 1);
      if (shot.press) await page.getByRole('button', { name: shot.press, exact: true }).click();
      if (shot.click === 'best') {
        const p = await page.evaluate((id) => window.groveViewer!.screenPosition(id), run.outcome.bestId);
        if (p) await page.mouse.click(p.x, p.y);
        await page.locator('.node-panel').waitFor();
        await page.mouse.move(1, 1); // no hover tip in the picture
      }
      await page.waitForTimeout(200);
      await page.screenshot({ path: join(out, `${shot.name}.png`) });
      await page.close();
      console.log(`${shot.name}.png: ${run.state.tree.size} nodes, best n${run.outcome.bestId}${run.outcome.isSolution ? ' (solved)' : ''}, ${run.state.counters.llmCalls} model calls`);
    }
  } finally {
    await browser.close();
  }
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
