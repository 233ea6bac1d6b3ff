import { GroveClient } from '../../grove-client';
import { ensureSearchAttributes } from '../../temporal-server/search-attributes';
import { parseCommandArgs } from '../usage-error';

export async function setupCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  parseCommandArgs('setup', args, {});
  const grove = await GroveClient.connect();
  try {
    await ensureSearchAttributes(grove.temporal);
    io.out(`grove setup: search attributes ready on namespace ${grove.temporal.options.namespace}`);
  } finally {
    await grove.close();
  }
}
