import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');

describe('model-server/main.ts (standalone)', () => {
  it('prints one line with the base URL and models, serves, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'model-server/main.ts', '--port', '0', '--api-key', 'k1'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const nl = out.indexOf('\n');
          if (nl >= 0) resolve(out.slice(0, nl));
        });
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        child.once('exit', (code) => reject(new Error(`exited early (${code}): ${err}`)));
      });
      const m = /^grove model server listening on (http:\/\/127\.0\.0\.1:\d+\/v1) \(models: (.+)\)$/.exec(line);
      expect(m).not.toBeNull();
      expect(m![2].split(', ')).toContain('color-guesser');
      const res = await fetch(`${m![1]}/models`, { headers: { authorization: 'Bearer k1' } });
      expect(res.status).toBe(200);
      const denied = await fetch(`${m![1]}/models`, { headers: { authorization: 'Bearer nope' } });
      expect(denied.status).toBe(401);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 30_000);
});
