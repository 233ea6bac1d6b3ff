import { RUN_KINDS, type RunKindName } from '../../run-kinds';
import { runInputJsonSchema, runResultJsonSchema } from '../../run-schemas';
import { parseCommandArgs, UsageError } from '../usage-error';

export async function schemaCommand(args: string[], io: { out: (line: string) => void }): Promise<void> {
  const { values, positionals } = parseCommandArgs('schema', args, { result: { type: 'boolean' } }, 1);
  const kind = positionals[0];
  if (!kind || !(kind in RUN_KINDS)) throw new UsageError(`schema: give a run kind (${Object.keys(RUN_KINDS).join(', ')})`);
  const schema = values.result ? runResultJsonSchema(kind as RunKindName) : runInputJsonSchema(kind as RunKindName);
  io.out(JSON.stringify(schema, null, 2));
}
