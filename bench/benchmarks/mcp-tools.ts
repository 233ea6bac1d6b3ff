import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { McpServers } from '../../activities/mcp/mcp-servers';
import { MemoryMessageStore } from '../../activities/store/memory-message-store';
import { createToolActivities, type AnyToolDefinition } from '../../activities/tools';
import type { AgentInput } from '../../core/agents/agent-options';
import { ConversationRefs } from '../../core/hash/conversation-refs';
import { userMessage } from '../../core/schemas/messages';
import { exampleTools, finalAnswer, multiply } from '../../examples/tools';
import { benchQueue, type BenchEnv } from '../lib/bench-env';
import { spread, type Benchmark, type Row } from '../lib/benchmark';
import { QUICKSTART_MCTS } from './overhead';

const ROOT = join(__dirname, '..', '..');
/** docs/mcp.md's calculator: `multiply` served by an MCP server over stdio. */
const CALCULATOR = { calc: { command: process.execPath, args: ['-r', 'tsx/cjs', join(ROOT, 'examples', 'mcp', 'calculator-server.ts')], cwd: ROOT } };

/** The example tools as regular activities (what an MCP tool always is), and the same `multiply` under the MCP tool's shape of name. */
const regular = (t: AnyToolDefinition): AnyToolDefinition => ({ ...t, fast: false });
const localMultiply: AnyToolDefinition = { ...regular(multiply), name: 'local__multiply' };

/** The quickstart with a player that makes no mistakes: every run takes the same six steps (five multiplications and the answer), whichever tool multiplies. */
const search = (multiplyTool: string): AgentInput => ({
  ...QUICKSTART_MCTS,
  algorithm: 'greedy',
  tools: [multiplyTool, 'final_answer'],
  model: 'multiplier',
  evaluator: { name: 'multiplication-checker' },
});

/**
 * What serving a tool from an MCP server costs per call, against the same tool written with
 * `defineTool`: the bare call (MCP `tools/call` over stdio vs a function call), the tool activity
 * run as a function (argument checks, formatting, redaction, the store), and a durable search of
 * the same shape — its `groveRunTool` activities' time from scheduling to completion in history,
 * and its wall time — with `multiply` as a regular activity, as an MCP tool, and declared fast (a
 * local activity, which an MCP tool never is).
 */
export const mcpTools: Benchmark = {
  name: 'mcp-tools',
  title: 'MCP tool calls vs defineTool: per call (bare, as an activity function, durable) and per search of the same shape',
  needsTemporal: true,
  async run(env: BenchEnv) {
    const reps = env.quick ? 3 : 15;
    const calls = env.quick ? 100 : 500;
    const mcp = new McpServers(CALCULATOR);
    const rows: Row[] = [];
    const data: Record<string, unknown> = {};
    try {
      let t0 = performance.now();
      const [mcpMultiply] = await mcp.tools();
      const startMs = performance.now() - t0;

      // The bare call.
      const bare = { define: [] as number[], mcp: [] as number[] };
      const connection = mcp.connections[0]!;
      for (let i = 0; i < calls; i++) {
        t0 = performance.now();
        await multiply.run({ a: i, b: 8.11 }, { trajectory: [] });
        bare.define.push(performance.now() - t0);
        t0 = performance.now();
        await connection.callTool('multiply', { a: i, b: 8.11 });
        bare.mcp.push(performance.now() - t0);
      }

      // The tool activity as a function (what a worker runs for one call), in a mock activity context.
      const store = new MemoryMessageStore();
      const refs = new ConversationRefs();
      const root = refs.addPath(null, undefined, [userMessage('multiply')]);
      const activities = createToolActivities({ tools: [localMultiply], sources: [mcp], store });
      const asActivity = { define: [] as number[], mcp: [] as number[] };
      for (let i = 0; i < calls; i++) {
        for (const [key, name] of [['define', 'local__multiply'], ['mcp', mcpMultiply!.name]] as const) {
          const call = { id: `call_${key}_${i}`, type: 'function' as const, function: { name, arguments: JSON.stringify({ a: i, b: 8.11 }) } };
          const activityEnv = new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });
          t0 = performance.now();
          await activityEnv.run(activities.groveRunTool, { trajectory: refs.input(root), call, offered: [name] });
          asActivity[key].push(performance.now() - t0);
        }
      }

      // Durable searches of the same shape.
      const queues = { define: benchQueue('mcp-define'), mcp: benchQueue('mcp-mcp'), fast: benchQueue('mcp-fast') };
      const workers = [
        await env.worker(queues.define, { tools: [localMultiply, regular(finalAnswer)] }),
        await env.worker(queues.mcp, { tools: [regular(finalAnswer)], mcpServers: mcp }),
        await env.worker(queues.fast, { tools: exampleTools }),
      ];
      const durable = { define: { wall: [] as number[], perCall: [] as number[] }, mcp: { wall: [] as number[], perCall: [] as number[] }, fast: { wall: [] as number[], perCall: [] as number[] } };
      const tools = { define: 'local__multiply', mcp: mcpMultiply!.name, fast: 'multiply' };
      let steps = 0;
      await workers[0]!.runUntil(() =>
        workers[1]!.runUntil(() =>
          workers[2]!.runUntil(async () => {
            for (let rep = 0; rep < reps; rep++) {
              for (const key of ['define', 'mcp', 'fast'] as const) {
                t0 = performance.now();
                const handle = await env.grove(queues[key]).start('agent', search(tools[key]));
                const result = await handle.result();
                durable[key].wall.push(performance.now() - t0);
                if (!result.isSolution) throw new Error(`the ${key} search did not solve the quickstart`);
                steps = result.counters.toolRuns;
                durable[key].perCall.push(...multiplyActivityMs(await handle.fetchHistory(), tools[key]));
              }
            }
          }),
        ),
      );

      const ms = (samples: number[], digits = 2) => spread(samples, digits);
      const median = { define: ms(asActivity.define).median, mcp: ms(asActivity.mcp).median };
      rows.push(
        { measure: 'bare call (function vs MCP tools/call over stdio)', 'defineTool ms': ms(bare.define, 3).text, 'MCP ms': ms(bare.mcp, 3).text, 'MCP − defineTool ms': (ms(bare.mcp, 3).median - ms(bare.define, 3).median).toFixed(3), n: calls },
        { measure: 'tool activity as a function (checks, format, redact, store)', 'defineTool ms': ms(asActivity.define).text, 'MCP ms': ms(asActivity.mcp).text, 'MCP − defineTool ms': (median.mcp - median.define).toFixed(2), n: calls },
        {
          measure: 'durable groveRunTool multiply, scheduled → completed in history',
          'defineTool ms': ms(durable.define.perCall, 0).text,
          'MCP ms': ms(durable.mcp.perCall, 0).text,
          'MCP − defineTool ms': (ms(durable.mcp.perCall, 0).median - ms(durable.define.perCall, 0).median).toFixed(0),
          n: durable.mcp.perCall.length,
        },
        {
          measure: `durable greedy search, ${steps} tool runs, wall (fast defineTool as a local activity: ${ms(durable.fast.wall, 0).text})`,
          'defineTool ms': ms(durable.define.wall, 0).text,
          'MCP ms': ms(durable.mcp.wall, 0).text,
          'MCP − defineTool ms': (ms(durable.mcp.wall, 0).median - ms(durable.define.wall, 0).median).toFixed(0),
          n: reps,
        },
      );
      Object.assign(data, { serverStartMs: startMs, bare, asActivity, durable, reps, calls });
      return {
        tables: [{ title: `${this.title}; median (min–max)`, rows }],
        data,
        notes: [
          `Starting the calculator server (node + tsx) and listing its tools took ${startMs.toFixed(0)} ms, once per worker.`,
          'defineTool rows use `multiply` as a regular activity (as an MCP tool always runs); history times have millisecond resolution and include the task-queue round trip.',
          'The durable searches take the same steps whichever tool multiplies (a player without mistakes, checked by the multiplication-checker evaluator).',
        ],
      };
    } finally {
      await mcp.close();
    }
  },
};

/** Scheduled → completed ms of every groveRunTool activity that ran `tool`, from a history. */
function multiplyActivityMs(history: { events?: unknown[] | null }, tool: string): number[] {
  const scheduled = new Map<string, number>();
  const out: number[] = [];
  for (const e of (history.events ?? []) as Array<Record<string, any>>) {
    const at = Number(e.eventTime?.seconds ?? 0) * 1000 + Math.floor((e.eventTime?.nanos ?? 0) / 1e6);
    const sched = e.activityTaskScheduledEventAttributes;
    if (sched?.activityType?.name === 'groveRunTool') {
      const input = JSON.parse(Buffer.from(sched.input.payloads[0].data).toString()) as { call: { function: { name: string } } };
      if (input.call.function.name === tool) scheduled.set(String(e.eventId), at);
    }
    const done = e.activityTaskCompletedEventAttributes;
    const from = done ? scheduled.get(String(done.scheduledEventId)) : undefined;
    if (from !== undefined) out.push(at - from);
  }
  return out;
}
