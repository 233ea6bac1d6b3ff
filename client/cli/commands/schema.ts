import { RUN_KINDS, type RunKindName } from '../../run-kinds';
import { runInputJsonSchema } from '../../run-schemas';
import { parseCommandArgs, UsageError } from '../usage-error';

export async function schemaCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { positionals } = parseCommandArgs('schema', args, {}, 1);
  const kind = positionals[0];
  if (!kind || !(kind in RUN_KINDS)) throw new UsageError(`schema: give a run kind (${Object.keys(RUN_KINDS).join(', ')})`);
  io.out(JSON.stringify(runInputJsonSchema(kind as RunKindName), null, 2));
}
