import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimDevDatabase, devDatabaseFile } from '../../../client/local/dev-database';

const dir = mkdtempSync(join(tmpdir(), 'grove-db-claim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the database follows the port; the default port keeps temporal.db', () => {
  expect(devDatabaseFile('/h', 7233)).toBe('/h/temporal.db');
  expect(devDatabaseFile('/h', 7300)).toBe('/h/temporal-7300.db');
});

test('a claim is exclusive to a live process, taken over from a dead one, and released', () => {
  const file = join(dir, 'a.db');
  const claim = claimDevDatabase(file, 7300);
  expect(JSON.parse(readFileSync(`${file}.owner`, 'utf8'))).toEqual({ pid: process.pid, port: 7300 });
  claimDevDatabase(file, 7300); // the same process again (a supervised restart): fine
  claim.release();
  expect(existsSync(`${file}.owner`)).toBe(false);

  const live = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    writeFileSync(`${file}.owner`, JSON.stringify({ pid: live.pid, port: 7301 }));
    expect(() => claimDevDatabase(file, 7300)).toThrow(`is held by grove process ${live.pid} (its server is on port 7301)`);
  } finally {
    live.kill('SIGKILL');
  }

  const dead = spawnSync('true').pid!;
  writeFileSync(`${file}.owner`, JSON.stringify({ pid: dead, port: 7302 }));
  claimDevDatabase(file, 7300).release();
  expect(existsSync(`${file}.owner`)).toBe(false);
});
