import type { Worker } from '@temporalio/worker';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { FileMessageStore } from '../../activities/store/file-message-store';
import type { AgentNode } from '../../core/agents/agent-node';
import { SampleTree } from '../../core/tree/sample-tree';
import { stepLabel } from '../../ui/adapters/labels';
import { until } from '../../workers/worker-process';
import type { AgentResult } from '../../core/agents/agent-result';
import { RunSource } from '../../ui/server/run-source';
import { startUiServer, type UiServer } from '../../ui/server/ui-server';
import type { ViewerProbe } from '../../ui/model/viewer-probe';
import { openBrowser } from '../../bench/lib/browser';
import { artifact } from '../support/artifacts';
import { QUICKSTART, quickstartInput } from '../../bench/lib/in-process-agent';
import { colorGameInput } from '../support/inputs';
import { runCli } from '../support/run-cli';
import { groveClient, openTestEnv, testLlmConfig, testWorker, uniqueTaskQueue, type TestEnv } from '../support/temporal-env';
import { startModelServer, type ModelServer } from '../../model-server';

/**
 * The viewer in a real browser (Debian's Chromium), checked for what a person looks for: a live
 * search grows on its page without a reload; a node's label says its tool call (the same as its
 * conversation); every step of the best path is labelled, listed in order and drawn in amber;
 * labels never cover each other; a code fixer's attempts say what their tests did; a branch a
 * rewind abandoned is drawn and marked (and `grove tree` prints it); an unknown run id is said
 * so on the page; an exported file shows the same run with no server and no requests; a model
 * call's answer grows in its node's panel while the call streams (held mid-stream by the model
 * server, so what the page can show is known).
 * Screenshots go to .grove/test-artifacts/.
 */
let env: TestEnv;
let model: ModelServer;
let worker: Worker;
let running: Promise<void>;
let server: UiServer;
let browser: Browser;
const taskQueue = uniqueTaskQueue('ui');
const storeDir = mkdtempSync(join(process.env.GROVE_TEST_DIR ?? '/tmp', 'ui-store-'));

beforeAll(async () => {
  env = await openTestEnv();
  model = await startModelServer();
  const store = new FileMessageStore(storeDir);
  worker = await testWorker(env, { taskQueue, llm: testLlmConfig(model.baseURL), store });
  running = worker.run();
  const grove = groveClient(env, taskQueue);
  server = await startUiServer({
    source: new RunSource({ client: env.client, store, temporalUiUrl: 'http://127.0.0.1:8233' }),
    port: 0,
    pollMs: 200,
    // The run's events, as `grove ui` serves them: a running call's answer grows on the page.
    events: (workflowId, signal) => grove.events(workflowId, { store, signal, pollMs: 200 }),
  });
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  worker?.shutdown();
  await running;
  await model?.close();
  await env?.close();
});

// What the browser-side callbacks below see (they run in the page, not in node).
declare const window: { groveViewer?: ViewerProbe; marker?: number };
declare const document: { querySelector(selector: string): { textContent: string | null } | null };
/** The text of the first answer being written in the open node panel. */
const FIRST_ANSWER = '.live-answers pre.stream-text';

const probe = (page: Page) => page.evaluate(() => ({ ...window.groveViewer, screenPosition: undefined }) as Omit<ViewerProbe, 'screenPosition'>);

async function clickNode(page: Page, id: number): Promise<void> {
  const at = await page.evaluate((n) => window.groveViewer!.screenPosition(n), id);
  if (!at) throw new Error(`node ${id} is not drawn`);
  await page.mouse.click(at.x, at.y);
  await page.locator(`.node-panel[data-node="${id}"]`).waitFor();
}

/** The words a person reads next to a node on the tree (throws when the node has no label drawn). */
async function labelOf(page: Page, id: number): Promise<{ text: string; cls: string; box: { x: number; y: number; width: number; height: number } }> {
  const label = page.locator(`.node-label[data-node="${id}"]`);
  const box = await label.boundingBox();
  if (!box) throw new Error(`n${id} has no label drawn`);
  return { text: await label.locator('.text').innerText(), cls: (await label.getAttribute('class')) ?? '', box };
}

/** Every label drawn lies inside the tree's area and none covers another. */
async function expectReadableLabels(page: Page): Promise<number> {
  const area = (await page.locator('.canvas-host').boundingBox())!;
  const boxes = (await page.locator('.node-label').evaluateAll((els) => els.map((el) => el.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, w: r.width, h: r.height })))) as { x: number; y: number; w: number; h: number }[];
  for (const b of boxes) {
    expect(b.w).toBeGreaterThan(20);
    expect(b.x >= area.x - 1 && b.x + b.w <= area.x + area.width + 1 && b.y >= area.y - 1 && b.y + b.h <= area.y + area.height + 1).toBe(true);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const overlap = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 1 && Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 1;
      expect(overlap).toBe(false);
    }
  }
  return boxes.length;
}

/** The colour drawn on the tree's canvas at a page point. */
async function pixelAt(page: Page, at: { x: number; y: number }): Promise<[number, number, number]> {
  return page.evaluate((p) => {
    const canvas = (document as unknown as { querySelector(s: string): { getBoundingClientRect(): { left: number; top: number }; width: number; getContext(k: '2d'): { getImageData(x: number, y: number, w: number, h: number): { data: number[] } } } }).querySelector('canvas.tree-canvas');
    const rect = canvas.getBoundingClientRect();
    const dpr = (window as unknown as { devicePixelRatio: number }).devicePixelRatio || 1;
    const d = canvas.getContext('2d').getImageData(Math.round((p.x - rect.left) * dpr), Math.round((p.y - rect.top) * dpr), 1, 1).data;
    return [d[0], d[1], d[2]] as [number, number, number];
  }, at);
}

test('a live search grows on its page without a reload; clicking a node shows its conversation', async () => {
  // Slow models: the search takes a few seconds, so the page sees it grow.
  model.addFault({ match: { model: 'multiplier' }, action: { kind: 'latency', ms: 500 }, times: 0 });
  model.addFault({ match: { model: 'multiplier-judge' }, action: { kind: 'latency', ms: 250 }, times: 0 });
  const handle = await groveClient(env, taskQueue).start('agent', quickstartInput({ model: 'multiplier?p=0.4&guess=0.2', seed: 7, budget: { maxCalls: 40 } }));
  const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
  await page.goto(`${server.url}#/?kind=agent&status=running`);
  // Listed at once (the client wrote GroveKind `agent`), then under its algorithm once the run says it.
  await page.locator(`tr[data-workflow-id="${handle.workflowId}"]`).waitFor();
  await page.locator(`tr[data-workflow-id="${handle.workflowId}"]`, { hasText: /agent:mcts\s*running/ }).waitFor({ timeout: 10_000 });
  await page.locator(`tr[data-workflow-id="${handle.workflowId}"] a`).first().click();
  await page.waitForFunction(() => (window.groveViewer?.nodes ?? 0) >= 1);
  await page.evaluate(() => (window.marker = 42));

  const seen: { nodes: number; live: boolean }[] = [];
  const result = handle.result() as Promise<AgentResult>;
  let done = false;
  void result.finally(() => (done = true));
  while (!done) {
    const p = await probe(page);
    seen.push({ nodes: p.nodes, live: p.live });
    await page.waitForTimeout(150);
  }
  const final = await result;
  await page.waitForFunction(() => window.groveViewer?.live === false, undefined, { timeout: 10_000 });
  const last = await probe(page);

  const liveCounts = [...new Set(seen.filter((s) => s.live).map((s) => s.nodes))];
  expect(liveCounts.length).toBeGreaterThanOrEqual(2); // it grew while the run worked
  expect(liveCounts).toEqual([...liveCounts].sort((a, b) => a - b));
  expect(last.nodes).toBe(final.nodes);
  expect(last.bestPath[last.bestPath.length - 1]).toBe(final.bestNodeId);
  expect(await page.evaluate(() => window.marker)).toBe(42); // same page, never reloaded
  await expect(page.getByTestId('run-status').innerText()).resolves.toBe(final.isSolution ? 'succeeded' : 'exhausted');
  await expect(page.getByTestId('status').innerText()).resolves.toMatch(new RegExp(`^${final.nodes} nodes · ${last.shown} shown · best path ${last.bestPath.length} · finished`));

  // The best path is easy to follow: every step of it is labelled and marked as such, in order, on
  // the tree and in the side list; the edge into its last node is drawn in amber.
  expect(await expectReadableLabels(page)).toBe(last.shown); // every node shown has its words
  const bestLabels = await page.locator('.node-label.best').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-node'))));
  expect(bestLabels.sort((a, b) => a - b)).toEqual([...last.bestPath].sort((a, b) => a - b));
  expect(await page.locator('.best-path li').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-node'))))).toEqual(last.bestPath);
  const end = (await page.evaluate((id) => window.groveViewer!.screenPosition(id), final.bestNodeId))!;
  const [r, g, b] = await pixelAt(page, { x: end.x - 9, y: end.y });
  expect(r > 200 && g > 130 && g < 190 && b < 90).toBe(true); // #e8a317

  // The first step of the best trajectory: a multiply call, its tool output and the evaluator's reasoning.
  const step = last.bestPath[1];
  await clickNode(page, step);
  const panel = page.locator('.node-panel');
  const call = await panel.locator('.message.own.assistant .tool-call').first().innerText();
  expect(call).toMatch(/^→ multiplyy?\(/);
  // Its label on the tree says the same: the tool and its arguments, in words.
  const [, tool, args] = /^→ (\w+)\((.*)\)$/s.exec(call)!;
  const named = Object.entries(JSON.parse(args) as Record<string, unknown>).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ');
  expect(await labelOf(page, step)).toMatchObject({ text: `${tool}(${named})`, cls: expect.stringContaining('best') });
  await expect(panel.locator('.message.own.tool').first().innerText()).resolves.toMatch(/tool output/i);
  await expect(panel.locator('.reasoning').innerText()).resolves.toMatch(/Evaluator reasoning\s+\S+/);
  await expect(panel.locator('.inherited').innerText()).resolves.toContain(QUICKSTART);
  await page.screenshot({ path: artifact('viewer-agent.png') });

  // The best node's conversation is the run's answer, message for message.
  await clickNode(page, final.bestNodeId);
  const texts = await panel.locator('.message').count();
  expect(texts).toBe(final.messages.length);

  // Collapsing a subtree hides it (the node says how many it holds).
  await page.getByRole('button', { name: 'expand all', exact: true }).click();
  await clickNode(page, step);
  await panel.locator('button.toggle').click();
  await page.waitForFunction(() => document.querySelector('.node-panel .toggle')?.textContent === 'expand subtree');
  const parents = new Map(final.tree!.nodes.map((t) => [t[0], t[1]] as const));
  const under = [...parents.keys()].filter((id) => {
    for (let at = parents.get(id); at !== null && at !== undefined; at = parents.get(at)) if (at === step) return true;
    return false;
  }).length;
  expect(under).toBeGreaterThan(0);
  expect((await probe(page)).shown).toBe(final.nodes - under);
  await expect(page.getByTestId('status').innerText()).resolves.toMatch(new RegExp(`^${final.nodes} nodes · ${final.nodes - under} shown · `));

  // The list's filters reach Temporal visibility.
  await page.goto(`${server.url}#/?status=failed&kind=agent`);
  await page.locator('table.runs').waitFor();
  await page.waitForTimeout(500);
  expect(await page.locator(`tr[data-workflow-id="${handle.workflowId}"]`).count()).toBe(0);
  await page.close();

  // Exported: one file, no server, no requests; the same tree and conversations.
  const file = artifact('agent-export.html');
  const cli = await runCli(['ui', 'export', handle.workflowId, '--out', file], { TEMPORAL_ADDRESS: env.address, GROVE_STORE_URL: storeDir });
  expect(cli.stderr).toBe('');
  expect(cli.stdout).toMatch(new RegExp(`^wrote .*agent-export\\.html \\(${final.nodes} nodes, \\d+ KB\\)\n$`));
  const html = readFileSync(file, 'utf8');
  expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
  const exported = await browser.newPage({ viewport: { width: 1400, height: 850 } });
  const requests: string[] = [];
  exported.on('request', (r) => requests.push(r.url()));
  await exported.goto(`file://${file}`);
  await exported.waitForFunction(() => (window.groveViewer?.nodes ?? 0) > 0);
  expect((await probe(exported)).nodes).toBe(final.nodes);
  await clickNode(exported, final.bestNodeId);
  expect(await exported.locator('.node-panel .message').count()).toBe(final.messages.length);
  await exported.screenshot({ path: artifact('viewer-agent-export.png') });
  expect(requests).toEqual([`file://${file}`]);
  await exported.close();
});

test('an airetry sample tree: failed samples carry their check feedback', async () => {
  const result = await groveClient(env, taskQueue).run('airetry', colorGameInput());
  const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
  await page.goto(`${server.url}#/run/${encodeURIComponent(result.workflowId)}`);
  await page.waitForFunction(() => window.groveViewer?.updates === 1);
  const p = await probe(page);
  const tuples = (result.tree as { nodes: unknown[][] }).nodes;
  expect(p.nodes).toBe(tuples.length);
  expect(p.bestPath[p.bestPath.length - 1]).toBe(result.activeSampleId);
  await expect(page.locator('.run-facts').innerText()).resolves.toMatch(/check maxWords#0\s+passed/);

  const failed = tuples.find((t) => t[3] === false)!;
  await clickNode(page, failed[0] as number);
  const panel = page.locator('.node-panel');
  await expect(panel.locator('.feedback').innerText()).resolves.toContain(String(failed[8]).trim().split('\n')[0]);
  await expect(panel.locator('.inherited, .message.user').first().innerText()).resolves.toContain('Guess what color I am thinking');

  await clickNode(page, result.activeSampleId);
  const answers = await panel.locator('.message.own.assistant').allInnerTexts();
  expect(answers[answers.length - 1]).toContain(String(result.output));
  await page.screenshot({ path: artifact('viewer-airetry.png') });
  await page.close();
});

test('a workflow of your own that exposes its AI call is drawn as a sample tree (read by query)', async () => {
  const workflowId = uniqueTaskQueue('color-game');
  const result = await env.client.workflow.execute('colorGame', { taskQueue, workflowId, args: [{ seed: 1 }] });
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  await page.goto(`${server.url}#/run/${encodeURIComponent(workflowId)}`);
  await page.waitForFunction(() => (window.groveViewer?.nodes ?? 0) > 1);
  const p = await probe(page);
  expect(p.nodes).toBe((result as { calls: number }).calls + 1);
  expect(p.bestPath[p.bestPath.length - 1]).toBe((result as { activeSampleId: number }).activeSampleId);
  await page.close();
});

test('a code fixer\'s tree: each attempt labelled by what its tests did in the sandbox; listed as code-fixer', async () => {
  const input = JSON.parse(readFileSync('examples/inputs/code-fixer.json', 'utf8'));
  const result = await groveClient(env, taskQueue).run('code-fixer', input);
  const [failed, passed] = result.attempts;
  const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
  await page.goto(`${server.url}#/?kind=code-fixer`);
  await expect(page.locator(`tr[data-workflow-id="${result.workflowId}"]`).innerText()).resolves.toMatch(/^\S+\s+code-fixer\s+succeeded/);
  await page.goto(`${server.url}#/run/${encodeURIComponent(result.workflowId)}`);
  await page.waitForFunction(() => window.groveViewer?.updates === 1);
  expect(await labelOf(page, failed.sampleId)).toMatchObject({ text: "✗ 2/3 tests · test failed: line 2: assert is_palindrome('A man, a plan, a canal: Panama') failed", cls: expect.stringContaining('s-failed') });
  expect(await labelOf(page, passed.sampleId)).toMatchObject({ text: '✓ 3/3 tests · def is_palindrome(s):', cls: expect.stringMatching(/s-solution.*best/) });
  expect(await labelOf(page, 0)).toMatchObject({ text: expect.stringMatching(/^prompt: Write a Python function `is_palindrome\(s\)`/) });
  await expectReadableLabels(page);
  await expect(page.locator('.run-facts').innerText()).resolves.toMatch(/verdict\s+fixed: 3\/3 tests passed in the sandbox/);
  await page.screenshot({ path: artifact('viewer-code-fixer.png') });
  await page.close();
});

test('a search a person rewound: the abandoned branch is drawn (and printed by grove tree), off the best path', async () => {
  const grove = groveClient(env, taskQueue);
  const id = uniqueTaskQueue('rewound');
  // A player that always errs never solves it, and every call takes 100 ms: the search runs until stopped.
  model.addFault({ match: { callKeyPrefix: `${id}/` }, action: { kind: 'latency', ms: 100 }, times: 0 });
  const handle = await grove.start('agent', quickstartInput({ model: 'multiplier?p=1', budget: { maxCalls: 400 }, maxRollouts: 200 }), { workflowId: id });
  const nodes = () => handle.query<{ nodes: number }>('progress').then((p) => p.nodes, () => 0);
  await until(async () => (await nodes()) >= 4, 30_000, 'a few nodes');
  const rewound = (await grove.steer('ana').rewind(id, { nodeId: 0, feedback: 'Use the multiply tool for every step.' })) as { abandoned: number[] };
  await until(async () => (await nodes()) > Math.max(...rewound.abandoned) + 2, 30_000, 'new nodes');
  await grove.steer('ana').stop(id, { reason: 'enough' });
  const result = await handle.result();
  const tree = SampleTree.fromJSON<AgentNode>(result.tree);
  const roots = tree.abandonedRoots();
  expect(roots.length).toBeGreaterThan(0);

  const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
  await page.goto(`${server.url}#/run/${encodeURIComponent(id)}`);
  await page.waitForFunction(() => window.groveViewer?.updates === 1);
  for (const root of roots) {
    // Drawn where it grew (under the prompt), marked abandoned, with what it did.
    expect(await labelOf(page, root)).toMatchObject({ text: stepLabel(tree.node(root).data.preview!), cls: expect.stringContaining('s-abandoned') });
    expect((await probe(page)).bestPath).not.toContain(root);
  }
  await expect(page.locator('.run-facts').innerText()).resolves.toMatch(new RegExp(`abandoned by rewinds\\s+${rewound.abandoned.length} nodes? \\(${roots.map((r) => `n${r}`).join(', ')} and below\\)`));
  await clickNode(page, roots[0]);
  await expect(page.locator('.node-panel .facts').innerText()).resolves.toMatch(/status\s+abandoned: a rewind pruned its branch/);
  await page.screenshot({ path: artifact('viewer-rewound.png') });
  await page.close();

  // grove tree prints the same branches, marked.
  const printed = await runCli(['tree', id], { TEMPORAL_ADDRESS: env.address });
  const marked = printed.stdout.split('\n').filter((l) => l.endsWith('[abandoned]')).map((l) => Number(/\bn(\d+) d\d/.exec(l)![1]));
  expect(marked.sort((a, b) => a - b)).toEqual([...rewound.abandoned].sort((a, b) => a - b));
}, 90_000);

test('an unknown run id says so on the page, and the page finds the run once it exists', async () => {
  const id = uniqueTaskQueue('no-such-run');
  const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
  await page.goto(`${server.url}#/run/${encodeURIComponent(id)}`);
  const missing = page.getByTestId('missing');
  await missing.waitFor();
  await expect(missing.innerText()).resolves.toMatch(new RegExp(`^No run “${id}”\\n+The server says: no run ${id} in namespace default\\.`));
  expect(await page.locator('canvas.tree-canvas').isVisible()).toBe(false);
  await page.screenshot({ path: artifact('viewer-unknown-run.png') });
  // Started now: the page, looking again every few seconds, draws it without a reload.
  await groveClient(env, taskQueue).run('airetry', colorGameInput({ seed: 3 }), { workflowId: id });
  await page.waitForFunction(() => (window.groveViewer?.nodes ?? 0) > 1, undefined, { timeout: 15_000 });
  expect(await missing.isVisible()).toBe(false);
  await page.close();
});

test('the server only reads, answers only this machine\'s names, names bad input, and sends no secret', async () => {
  const secret = 'sk-viewer-test-secret-5f1e2d';
  process.env.OPENAI_API_KEY = secret;
  const { workflowId } = await groveClient(env, taskQueue).run('airetry', colorGameInput({ seed: 2 }));
  const url = new URL(server.url);
  const get = (path: string, opts: { method?: string; host?: string } = {}) =>
    new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path, method: opts.method ?? 'GET', headers: { host: opts.host ?? url.host } }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });

  expect(url.hostname).toBe('127.0.0.1');
  const pages = await Promise.all(['/', '/app.js', '/api/runs', `/api/runs/${workflowId}`, `/api/runs/${workflowId}/nodes/1`].map((p) => get(p)));
  for (const page of pages) {
    expect(page.status).toBe(200);
    expect(page.body).not.toContain(secret);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
  }
  expect(JSON.parse(pages[2].body).runs.map((r: { workflowId: string }) => r.workflowId)).toContain(workflowId);
  expect(JSON.parse(pages[4].body)).toMatchObject({ id: 1, conversation: expect.arrayContaining([{ role: 'user', content: expect.stringContaining('Guess what color') }]) });
  const view = JSON.parse(pages[3].body);
  await expect(get(`/api/runs/${workflowId}?rev=${view.rev}`)).resolves.toMatchObject({ status: 200, body: JSON.stringify({ rev: view.rev, live: false, unchanged: true }) });

  // A finished run's event stream: its tree's nodes, then its final status, and the stream ends.
  const events = await get(`/api/runs/${workflowId}/stream`);
  expect(events.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(events.body).toMatch(/event: node\ndata: \{"type":"node","id":0,/);
  expect(events.body.trimEnd().split('\n\n').at(-1)).toMatch(/^event: status\ndata: \{"type":"status","status":"succeeded","execution":"COMPLETED","live":false\}$/);
  expect(events.body).not.toContain(secret);
  await expect(get('/api/runs', { host: `evil.example:${url.port}` })).resolves.toMatchObject({ status: 403, body: expect.stringMatching(/is not this machine/) });
  await expect(get(`/api/runs/${workflowId}`, { method: 'POST' })).resolves.toMatchObject({ status: 405 });
  await expect(get('/api/runs?status=a"b')).resolves.toMatchObject({ status: 400, body: expect.stringMatching(/status must be a word/) });
  await expect(get('/api/runs/no-such-run')).resolves.toMatchObject({ status: 404, body: expect.stringMatching(/no run no-such-run/) });
  await expect(get(`/api/runs/${workflowId}/nodes/999`)).resolves.toMatchObject({ status: 404, body: expect.stringMatching(/has no node 999/) });
  delete process.env.OPENAI_API_KEY;
});

test('a person sees the answer of a held call grow in the panel of the node it extends', async () => {
  // The first expansion's call is held after 3 tokens: the page can only show what was streamed.
  model.hold({ model: 'multiplier' }, { afterTokens: 3 });
  const handle = await groveClient(env, taskQueue).start('agent', quickstartInput({ seed: 2, budget: { maxCalls: 20 } }));
  const page = await browser.newPage({ viewport: { width: 1300, height: 800 } });
  try {
    await page.goto(`${server.url}#/run/${encodeURIComponent(handle.workflowId)}`);
    await page.waitForFunction(() => (window.groveViewer?.nodes ?? 0) >= 1);
    // The page says where the model is writing, and the node's panel shows it.
    await page.getByTestId('writing').filter({ hasText: 'The model is writing below n0' }).waitFor();
    await clickNode(page, 0);
    // The expansion asks for 3 candidates in one call: 3 answers stream, each in its block; the first is followed.
    const text = page.locator('.node-panel[data-node="0"] .live-answers pre.stream-text').first();
    await page.locator('.node-panel[data-node="0"] .live-answers .block').nth(2).waitFor();
    await page.waitForFunction((selector) => (document.querySelector(selector)?.textContent ?? '').includes('multiply'), FIRST_ANSWER);
    expect(await page.locator('.node-panel[data-node="0"] .live-answers .block').count()).toBe(3);
    const first = await text.innerText();
    expect(first.startsWith('→ multiply(')).toBe(true);
    await page.screenshot({ path: artifact('viewer-streaming-held.png') });

    // Let it go on to its 5th token, and hold it there: the same panel, more text.
    model.release();
    model.hold({ model: 'multiplier' }, { afterTokens: 5 });
    await page.waitForFunction(
      ([selector, before]) => {
        const now = document.querySelector(selector)?.textContent ?? '';
        return now.length > before.length && now.startsWith(before);
      },
      [FIRST_ANSWER, first] as const,
      { timeout: 30_000 },
    );
    const second = await text.innerText();
    expect(second.startsWith(first)).toBe(true);
    expect(second.length).toBeGreaterThan(first.length);
    await expect(page.locator('.live-answers .block').first().getAttribute('data-state')).resolves.toBe('streaming');
    await page.screenshot({ path: artifact('viewer-streaming-grown.png') });
  } finally {
    model.release();
    await page.close();
  }
  await handle.result();
}, 120_000);
