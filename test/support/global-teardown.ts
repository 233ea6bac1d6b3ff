import { rmSync } from 'node:fs';
import type { DevServer } from '../../client/temporal-server/dev-server';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __groveServer?: DevServer }).__groveServer?.stop();
  if (process.env.GROVE_TEST_DIR) rmSync(process.env.GROVE_TEST_DIR, { recursive: true, force: true });
}
