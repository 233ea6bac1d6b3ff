import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

/**
 * A database of its own on the test run's PostgreSQL server (started in globalSetup), so a test
 * that counts or deletes store entries sees only its own.
 *
 * @example
 * const url = await freshDatabase(); // postgres://grove:…@127.0.0.1:port/grove_test_1a2b3c4d5e6f
 */
export async function freshDatabase(): Promise<string> {
  const base = process.env.GROVE_TEST_STORE_URL;
  if (!base) throw new Error('tests on the networked store need the jest globalSetup (run them with `npm test`)');
  const name = `grove_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}
