import { COMMANDS } from '../../../client/cli/command-table';
import { RUN_KIND_NAMES } from '../../../core/runs/run-kind-names';

/** Help lists everything that works: every run kind `grove run` and `grove schema` accept is in their help. */
test.each(['run', 'schema'])('grove %s --help names every run kind', (command) => {
  const help = COMMANDS[command]!.help;
  expect(RUN_KIND_NAMES.filter((kind) => !new RegExp(`(^|[ |])${kind}([ |]|$)`, 'm').test(help))).toEqual([]);
});
