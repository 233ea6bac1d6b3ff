import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * What a GrovePlugin adds to a worker, read in a fresh process (so the module registry shows
 * what was loaded): with no OTLP endpoint configured, importing grove's worker, activities and
 * client entry points loads no OpenTelemetry package at all,
 * and the worker gets no tracing interceptor, no sink and the bundle without tracing; with one,
 * the activity interceptor, the sinks and the tracing interceptors' workflow module.
 */
function plugin(env: Record<string, string>) {
  const script = `
    const { GrovePlugin } = require('./workers/index');
    const { MemoryMessageStore } = require('./activities/index');
    const { connectClient } = require('./client/index');
    const options = new GrovePlugin({ store: new MemoryMessageStore(), llm: { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'k' } })
      .configureWorker({ taskQueue: 'q', workflowsPath: require.resolve('./workflows/index.ts') });
    const loaded = Object.keys(require.cache).filter((k) => /@opentelemetry|interceptors-opentelemetry/.test(k));
    process.stdout.write(JSON.stringify({
      activityInterceptors: options.interceptors?.activity?.length ?? 0,
      workflowModules: options.interceptors?.workflowModules ?? [],
      sinks: Object.keys(options.sinks ?? {}),
      otelModules: loaded.length,
      connect: typeof connectClient,
    }));`;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
  return JSON.parse(execFileSync(process.execPath, ['-r', 'tsx/cjs', '-e', script], { cwd: ROOT, env: { ...clean, ...env }, encoding: 'utf8' }));
}

test('telemetry off: no OpenTelemetry package loaded, no interceptor, no sink, no tracing module', () => {
  const off = plugin({ OTEL_SERVICE_NAME: 'grove' });
  expect(off).toEqual({ activityInterceptors: 1, workflowModules: [], sinks: [], otelModules: 0, connect: 'function' });
});

test('telemetry on: the activity span interceptor, the exporter and run sinks, the tracing interceptors bundled', () => {
  const on = plugin({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
  expect(on.activityInterceptors).toBe(2);
  expect(on.workflowModules).toEqual([expect.stringMatching(/workflows[/\\]telemetry[/\\]tracing-interceptors\.ts$/)]);
  expect(on.sinks.sort()).toEqual(['exporter', 'groveTelemetry']);
  expect(on.otelModules).toBeGreaterThan(0);
});
