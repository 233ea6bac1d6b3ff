import { rmSync } from 'node:fs';
import type { LocalPostgres } from '../../client/local/postgres-server';
import type { DevServer } from '../../client/temporal-server/dev-server';

export default async function globalTeardown(): Promise<void> {
  await Promise.all([
    (globalThis as { __groveServer?: DevServer }).__groveServer?.stop(),
    (globalThis as { __grovePostgres?: LocalPostgres }).__grovePostgres?.stop(),
  ]);
  if (process.env.GROVE_TEST_DIR) rmSync(process.env.GROVE_TEST_DIR, { recursive: true, force: true });
}
