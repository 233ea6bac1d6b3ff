import { DefaultLogger, Runtime } from '@temporalio/worker';

let installed = false;

/**
 * Installs a quiet Temporal runtime before a test file's first worker: tests that exercise
 * failures on purpose (a nondeterministic replay, provider errors) would otherwise print the
 * SDK's expected WARN lines as if something had gone wrong. Real errors still print.
 */
export function quietRuntime(): void {
  if (installed) return;
  Runtime.install({
    logger: new DefaultLogger('ERROR'),
    telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } },
  });
  installed = true;
}
