import { startModelServer } from '../../../model-server';
import { startLocalModel } from '../../local/ensure-model';
import { numberOption, parseCommandArgs } from '../usage-error';

export async function modelServerCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { values } = parseCommandArgs('model-server', args, {
    port: { type: 'string' },
    seed: { type: 'string' },
    'api-key': { type: 'string' },
    local: { type: 'boolean' },
  });
  const port = numberOption('model-server', 'port', values.port) ?? 8787;
  const apiKeys = values['api-key'] ? [values['api-key']] : undefined;
  const server = values.local ? await startLocalModel({ port, apiKeys, log: io.out }) : await startModelServer({
    port,
    seed: numberOption('model-server', 'seed', values.seed) ?? 0,
    apiKeys,
  });
  io.out(`grove model server listening on ${server.baseURL}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
}
