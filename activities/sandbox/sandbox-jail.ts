import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The operating-system layer of grove's sandbox: each sandbox process starts in its own mount,
 * network, PID, UTS and IPC namespaces, chrooted into an empty in-memory root that holds only
 * Node, the system libraries (`/usr`) and the engine packages — all read-only, no set-uid — as an
 * unprivileged user with no way to gain privileges (`no_new_privs`). So even code that found a
 * way out of its WebAssembly engine and out of Node's permission model would find no network
 * interface but a down loopback, no Unix socket of the host (sockets live in folders the jail
 * does not show), no host file to read, no other process to see or signal, and no privilege.
 *
 * Before any of that, every file descriptor the worker inherited from its own parent (a shell's
 * `exec 9>file`, a supervisor's socket) is closed: a descriptor crosses every namespace.
 *
 * It needs `unshare`, `mount`, `chroot` and `setpriv` (util-linux and coreutils), bash, and the
 * right to create namespaces: as root grove also switches to the unprivileged users; as another
 * user it makes a user namespace too (where the kernel allows unprivileged ones), so the jail
 * stands but the process keeps the worker's own user. grove probes once per process; where the
 * jail cannot be made, the sandbox runs without it and says so in every outcome's `layers` and in
 * the worker's start line. `GROVE_SANDBOX_JAIL=off` turns it off; `GROVE_SANDBOX_JAIL=required`
 * makes a run fail (kind `sandbox`) rather than run without it.
 */
export interface Jail {
  /** The jail can be made on this machine (and is not turned off). */
  available: boolean;
  /** Why not, when it is not. */
  reason?: string;
  /** A run must not start without it (`GROVE_SANDBOX_JAIL=required`). */
  required: boolean;
  /** The layers it adds to an outcome's `layers`: the namespaces and jail, and `unprivileged-user` when grove could switch users (it runs as root). */
  layers: string[];
  /** The command that starts `node args…` (inside the jail when available, as the role's user), with inherited descriptors closed. */
  wrap(nodeArgs: string[], readable: string[], role?: SandboxRole): { file: string; args: string[] };
}

/** The users the sandbox runs as when grove runs as root: the code as `nobody`, its tests as another unprivileged user, so the code cannot signal or trace the process that judges it. */
export const SANDBOX_UIDS = { code: 65534, tests: 65533 } as const;
export type SandboxRole = keyof typeof SANDBOX_UIDS;

/** Closes every descriptor above 3 (0–2 are the child's stdio, 3 its channel to grove). */
const CLOSE_INHERITED = String.raw`for fd in /proc/self/fd/*; do n=\${fd##*/}; if [ "$n" -gt 3 ] 2>/dev/null; then eval "exec $n>&-" 2>/dev/null || true; fi; done`;

/**
 * Sets up the jail, then becomes the sandbox process. Arguments: the mount point of the new
 * root, the number N of host paths to show (read-only), those N paths, the paths of `mount`,
 * `chroot`, `setpriv` and `hostname`, the user to run as (empty: stay), then the command.
 * Symbolic links among the paths (`/lib -> usr/lib` on merged-/usr systems) are recreated as links.
 */
const SETUP = String.raw`set -e
${CLOSE_INHERITED}
root=$1; n=$2; shift 2
paths=()
for ((i = 0; i < n; i++)); do paths+=("$1"); shift; done
mount=$1; chroot=$2; setpriv=$3; hostname=$4; user=$5; shift 5
"$mount" --make-rprivate /
"$mount" -t tmpfs -o size=1m,mode=755 grove-sandbox "$root"
for p in "\${paths[@]}"; do
  if [ -L "$p" ]; then mkdir -p "$root$(dirname "$p")"; ln -s "$(readlink "$p")" "$root$p"
  elif [ -d "$p" ]; then mkdir -p "$root$p"; "$mount" --bind "$p" "$root$p"; "$mount" -o remount,bind,ro,nosuid,nodev "$root$p"
  fi
done
mkdir -p "$root/dev" "$root/tmp"; chmod 1777 "$root/tmp"
for f in null zero random urandom; do : > "$root/dev/$f"; "$mount" --bind "/dev/$f" "$root/dev/$f"; done
[ -z "$hostname" ] || "$hostname" grove-sandbox 2>/dev/null || true
# The parent-death signal is set again after the change of user (which clears the one unshare set):
# a job whose worker dies is killed with it, even in the middle of a busy loop.
if [ -n "$user" ]; then exec "$chroot" --userspec="$user:$user" --groups="$user" "$root" "$setpriv" --no-new-privs --pdeathsig KILL -- "$@"; fi
exec "$chroot" "$root" "$setpriv" --no-new-privs --pdeathsig KILL -- "$@"
`;

let cached: Jail | undefined;

/**
 * The jail of this process, probed once: a tiny Node program is started inside it and must
 * exit cleanly within 10 s.
 *
 * @example
 * const jail = sandboxJail();
 * const { file, args } = jail.wrap(['-e', '1'], enginePaths('js').readable);
 */
export function sandboxJail(env: NodeJS.ProcessEnv = process.env): Jail {
  if (cached) return cached;
  const mode = (env.GROVE_SANDBOX_JAIL ?? 'auto').toLowerCase();
  const required = mode === 'required';
  const bash = findTool('bash');
  const setpriv = findTool('setpriv');
  // Without the jail, bash still closes inherited descriptors before Node starts, and setpriv
  // (when there is one) has the job killed when the process that started it dies.
  const dies = setpriv ? [setpriv, '--pdeathsig', 'KILL', '--'] : [];
  const bare = (nodeArgs: string[]) => (bash ? { file: bash, args: ['-c', `${CLOSE_INHERITED.replaceAll('\\$', '$')}\nexec "$@"`, 'grove-sandbox', ...dies, process.execPath, ...nodeArgs] } : { file: process.execPath, args: nodeArgs });
  const off = (reason: string): Jail => ({ available: false, reason, required, layers: bash ? ['no-inherited-fds', ...(setpriv ? ['dies-with-worker'] : [])] : [], wrap: bare });
  if (mode === 'off') return (cached = off('turned off (GROVE_SANDBOX_JAIL=off)'));
  if (process.platform !== 'linux') return (cached = off(`namespaces are Linux-only (this is ${process.platform})`));
  const tools = { unshare: findTool('unshare'), mount: findTool('mount'), chroot: findTool('chroot'), setpriv, bash };
  const missing = Object.entries(tools).filter(([, path]) => !path).map(([name]) => name);
  if (missing.length > 0) return (cached = off(`${missing.join(', ')} not found`));
  const root = join(tmpdir(), 'grove-sandbox-root');
  try {
    mkdirSync(root, { recursive: true, mode: 0o755 });
  } catch (err) {
    return (cached = off(`cannot create its mount point ${root} (${(err as Error).message})`));
  }
  const asRoot = process.getuid?.() === 0;
  const namespaces = [...(asRoot ? [] : ['--user', '--map-root-user']), '--mount', '--net', '--pid', '--fork', '--kill-child', '--uts', '--ipc'];
  const wrap = (nodeArgs: string[], readable: string[], role: SandboxRole = 'code') => {
    const shown = [...new Set(['/usr', '/lib', '/lib64', '/lib32', '/libx32', '/bin', '/sbin', nodePrefix(), ...readable])].filter((p) => existsSync(p));
    const user = asRoot ? String(SANDBOX_UIDS[role]) : '';
    // unshare itself dies with the worker (and with it, by --kill-child and the job's own
    // parent-death signal, the job): setpriv sets the signal and becomes unshare.
    return {
      file: tools.setpriv!,
      args: ['--pdeathsig', 'KILL', '--', tools.unshare!, ...namespaces, '--', tools.bash!, '-c', SETUP.replaceAll('\\$', '$'), 'grove-sandbox', root, String(shown.length), ...shown, tools.mount!, tools.chroot!, tools.setpriv!, findTool('hostname') ?? '', user, process.execPath, ...nodeArgs],
    };
  };
  const expected = asRoot ? SANDBOX_UIDS.code : 0;
  const probe = wrap(['-e', `process.exitCode = process.getuid() === ${expected} && process.pid === 1 ? 0 : 3`], []);
  const result = spawnSync(probe.file, probe.args, { env: {}, timeout: 10_000, encoding: 'utf8' });
  if (result.status !== 0) {
    const why = (result.error?.message ?? result.stderr ?? '').trim().split('\n').filter(Boolean).slice(-1)[0] ?? '';
    return (cached = off(`the namespaces could not be made here (${why.slice(0, 200) || `exit ${result.status}`})`));
  }
  const layers = ['no-inherited-fds', 'dies-with-worker', 'network-namespace', 'pid-namespace', 'filesystem-jail', 'no-new-privileges', ...(asRoot ? ['unprivileged-user'] : [])];
  return (cached = { available: true, required, layers, wrap });
}

/** Forgets the probe (tests that change `GROVE_SANDBOX_JAIL`). */
export function resetSandboxJail(): void {
  cached = undefined;
}

/**
 * The process that runs the job, given the one grove spawned: in a PID namespace `unshare` forks
 * and stays as its parent, so the job's process is unshare's only child.
 */
export function jobPid(spawned: number): number | undefined {
  if (!cached?.available) return spawned;
  try {
    const children = readFileSync(`/proc/${spawned}/task/${spawned}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return children.length ? Number(children[0]) : undefined;
  } catch {
    return undefined;
  }
}

/** Where Node is installed, when that is not under /usr (nvm, a tarball): shown read-only too. */
function nodePrefix(): string {
  const prefix = dirname(dirname(process.execPath));
  return prefix.startsWith('/usr') ? '/usr' : prefix;
}

function findTool(name: string): string | undefined {
  for (const dir of ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin', '/usr/local/sbin']) {
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  return undefined;
}
