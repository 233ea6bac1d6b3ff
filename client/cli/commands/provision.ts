import { cliVersion, resolveTemporalCli } from '../../temporal-server/cli-binary';
import { parseCommandArgs } from '../usage-error';

export async function provisionCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  parseCommandArgs('provision', args, {});
  const cli = await resolveTemporalCli({ log: io.out });
  io.out(`${cli.path}: ${cliVersion(cli.path)}`);
}
