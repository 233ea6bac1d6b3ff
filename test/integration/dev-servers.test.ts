import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { devDatabaseFile } from '../../client/local/dev-database';
import { ensureTemporal, type TemporalTarget } from '../../client/local/ensure-temporal';
import { freePort } from '../../client/temporal-server/ports';
import { rejection } from '../support/rejection';

/**
 * Two `grove dev` servers in one folder on different ports: each has its own database and lists
 * only its own runs; a database another live grove process holds is refused in one line.
 */
const home = mkdtempSync(join(tmpdir(), 'grove-two-dev-'));
const started: TemporalTarget[] = [];
afterAll(async () => {
  for (const target of started) await target.stop();
  rmSync(home, { recursive: true, force: true });
});

async function devServer(): Promise<{ target: TemporalTarget; port: number; client: Client; close(): Promise<void> }> {
  const port = await freePort();
  const env = { GROVE_HOME: home, GROVE_TEMPORAL_PORT: String(port), GROVE_UI_PORT: String(await freePort()), PATH: process.env.PATH };
  const target = await ensureTemporal({ env });
  started.push(target);
  const connection = await Connection.connect({ address: target.settings.address });
  return { target, port, client: new Client({ connection }), close: () => connection.close() };
}

async function runIds(client: Client): Promise<string[]> {
  const ids: string[] = [];
  for await (const run of client.workflow.list()) ids.push(run.workflowId);
  return ids;
}

test('two dev servers in one folder on different ports keep their runs apart', async () => {
  const a = await devServer();
  const b = await devServer();
  try {
    expect([a.target.started, b.target.started]).toEqual([true, true]);
    expect(existsSync(devDatabaseFile(home, a.port))).toBe(true);
    expect(existsSync(devDatabaseFile(home, b.port))).toBe(true);
    expect(devDatabaseFile(home, a.port)).not.toBe(devDatabaseFile(home, b.port));
    // No worker needed: a started run is listed by its own server only.
    await a.client.workflow.start('generate', { taskQueue: 'nobody', workflowId: 'on-a', args: [{ prompt: 'hi' }] });
    await b.client.workflow.start('generate', { taskQueue: 'nobody', workflowId: 'on-b', args: [{ prompt: 'hi' }] });
    // Visibility is eventually consistent: wait until each server lists its own run.
    for (const [server, own] of [[a, 'on-a'], [b, 'on-b']] as const) {
      for (let i = 0; i < 100 && !(await runIds(server.client)).includes(own); i++) await new Promise((r) => setTimeout(r, 100));
    }
    expect(await runIds(a.client)).toEqual(['on-a']);
    expect(await runIds(b.client)).toEqual(['on-b']);
  } finally {
    await a.close();
    await b.close();
  }
}, 120_000);

test('a dev-server database another live grove process holds is refused in one line', async () => {
  const port = await freePort();
  const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
  try {
    writeFileSync(`${devDatabaseFile(home, port)}.owner`, JSON.stringify({ pid: holder.pid, port }));
    const env = { GROVE_HOME: home, GROVE_TEMPORAL_PORT: String(port), GROVE_UI_PORT: String(await freePort()), PATH: process.env.PATH };
    const err = (await rejection(ensureTemporal({ env }))) as Error;
    expect(err.message).toContain(`the dev-server database ${devDatabaseFile(home, port)} is held by grove process ${holder.pid}`);
    expect(err.message.split('\n')).toHaveLength(1);
  } finally {
    holder.kill('SIGKILL');
  }
});
