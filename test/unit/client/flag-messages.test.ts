import { runCommand } from '../../../client/cli/commands/run';
import { rewindCommand } from '../../../client/cli/commands/steer';
import { forkCommand } from '../../../client/cli/commands/fork';

/** A bad flag is named as the user typed it, with what it must be — before anything connects. */
const io = { out: () => {} };

test('--temperature is named, not the input field it fills', async () => {
  await expect(runCommand(['generate', '--prompt', 'hi', '--temperature', '-3'], io)).rejects.toThrow('run generate: --temperature must be between 0 and 2, got "-3"');
});

test('--node -1 is a value the command checks, for rewind and fork alike', async () => {
  await expect(rewindCommand(['agent-1', '--node', '-1'], io)).rejects.toThrow('rewind: --node must be a node id from `grove tree` (an integer 0 or more, e.g. --node 7), got "-1"');
  await expect(forkCommand(['agent-1', '--node', '-1'], io)).rejects.toThrow('fork: --node must be a node id from `grove tree agent-1` (an integer 0 or more, e.g. --node 7), got "-1"');
});
