import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { exportedPage, pageScript } from '../../../ui/server/page-assets';
import { RunSource } from '../../../ui/server/run-source';
import { DEFAULT_VIEWER_PORT, startUiServer } from '../../../ui/server/ui-server';
import { openViewerStore } from '../../../ui/server/viewer-store';
import { connectClient } from '../../../temporal/connect';
import { temporalSettings } from '../../../temporal/connection-options';
import { numberOption, parseCommandArgs, UsageError } from '../usage-error';
import { GroveClient } from '../../grove-client';

type Io = { out: (line: string) => void };

/**
 * `grove ui`: the live tree viewer on this machine; `grove ui export`: one run as a
 * self-contained HTML file.
 *
 * @example
 * await uiCommand(['export', 'agent-1a2b3c4d', '--out', 'tree.html'], { out: console.log });
 */
export async function uiCommand(args: string[], io: Io): Promise<void> {
  if (args[0] === 'export') return exportCommand(args.slice(1), io);
  const { values } = parseCommandArgs('ui', args, { port: { type: 'string' }, host: { type: 'string' }, 'poll-ms': { type: 'string' } });
  const port = portOption(values.port ?? process.env.GROVE_VIEWER_PORT);
  const pollMs = numberOption('ui', 'poll-ms', values['poll-ms']) ?? 1000;
  if (pollMs < 100) throw new UsageError(`ui: --poll-ms must be at least 100, got ${pollMs}`);
  const host = values.host ?? '127.0.0.1';
  const settings = temporalSettings();
  const client = await connectClient(settings);
  const store = openViewerStore();
  try {
    // Pages read a running call's answer as it streams: the run's events, from the same store.
    const grove = new GroveClient(client, undefined, settings);
    const events = (workflowId: string, signal: AbortSignal) => grove.events(workflowId, { store, signal });
    const server = await startUiServer({ source: new RunSource({ client, store, temporalUiUrl: settings.uiUrl }), host, port, pollMs, events }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') throw new UsageError(`ui: port ${port} is in use (choose another with --port or GROVE_VIEWER_PORT)`);
      throw err;
    });
    io.out(`grove ui: ${server.url} — runs of ${settings.address} (namespace ${settings.namespace}), messages from ${store.describe()}; Ctrl-C stops`);
    if (!['127.0.0.1', '::1', 'localhost'].includes(host)) {
      io.out(`grove ui: serving on ${host}: anyone who can reach this address can read these runs' conversations`);
    }
    await new Promise<void>((done) => {
      process.once('SIGINT', done);
      process.once('SIGTERM', done);
    });
    await server.close();
  } finally {
    await store.close();
    await client.connection.close();
  }
}

async function exportCommand(args: string[], io: Io): Promise<void> {
  const { values, positionals } = parseCommandArgs('ui export', args, { out: { type: 'string', short: 'o' } }, 1);
  const workflowId = positionals[0];
  if (!workflowId) throw new UsageError('ui export: WORKFLOW_ID is required');
  const js = pageScript();
  const settings = temporalSettings();
  const client = await connectClient(settings);
  const store = openViewerStore();
  try {
    const data = await new RunSource({ client, store, temporalUiUrl: settings.uiUrl }).exportData(workflowId);
    if (!data.view.tree) throw new Error(`run ${workflowId} has no tree to export${data.view.note ? `: ${data.view.note}` : ''}`);
    const html = exportedPage(data, js);
    if (values.out === '-') return io.out(html);
    const file = resolve(values.out ?? `${workflowId}.html`);
    writeFileSync(file, html);
    const missing = Object.values(data.parts).filter((p) => !p.delta).length;
    io.out(
      `wrote ${file} (${data.view.tree.nodes.length} nodes, ${(Buffer.byteLength(html) / 1024).toFixed(0)} KB)` +
        (data.view.live ? '; the run is still working: this is its tree now' : '') +
        (missing ? `; ${missing} node${missing === 1 ? ' has' : 's have'} no messages (see each node's note)` : ''),
    );
  } finally {
    await store.close();
    await client.connection.close();
  }
}

function portOption(value: string | undefined): number {
  if (value === undefined) return DEFAULT_VIEWER_PORT;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`ui: --port (or GROVE_VIEWER_PORT) must be a port number, got "${value}"`);
  return port;
}
