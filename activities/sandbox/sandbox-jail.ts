import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The operating-system layer of grove's sandbox: each sandbox process starts in its own mount,
 * network, UTS and IPC namespaces, chrooted into an empty in-memory root that holds only Node,
 * the system libraries (`/usr`) and the engine packages — all read-only — and runs as the
 * unprivileged user `nobody` (65534). So even code that found a way out of its WebAssembly engine
 * and out of Node's permission model would find no network interface but a down loopback, no
 * Unix socket of the host (sockets live in folders the jail does not show), no host file to read,
 * no other process's files, and no privilege.
 *
 * It needs `unshare`, `mount` and `chroot` (util-linux and coreutils) and the right to create
 * namespaces: as root grove also switches to the unprivileged users; as another user it makes a
 * user namespace too (where the kernel allows unprivileged ones), so the jail stands but the
 * process keeps the worker's own user. grove probes once per process; where the jail cannot be
 * made, the sandbox runs without it and says so in every outcome's `layers` and in the worker's
 * start line. `GROVE_SANDBOX_JAIL=off` turns it off; `GROVE_SANDBOX_JAIL=required` makes a run
 * fail (kind `sandbox`) rather than run without it.
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
  /** The command that starts `node args…` inside the jail (only when available), as the role's user. */
  wrap(nodeArgs: string[], readable: string[], role?: SandboxRole): { file: string; args: string[] };
}

/** The users the sandbox runs as when grove runs as root: the code as `nobody`, its tests as another unprivileged user, so the code cannot signal or trace the process that judges it. */
export const SANDBOX_UIDS = { code: 65534, tests: 65533 } as const;
export type SandboxRole = keyof typeof SANDBOX_UIDS;

/**
 * Sets up the jail, then becomes the sandbox process. Arguments: the mount point of the new
 * root, the number N of host paths to show (read-only), those N paths, the paths of `mount`,
 * `chroot` and `hostname`, then the command. Symbolic links among the paths (`/lib -> usr/lib`
 * on merged-/usr systems) are recreated as links.
 */
const SETUP = String.raw`set -e
root=$1; n=$2; shift 2
i=0; paths=''
while [ $i -lt $n ]; do paths="$paths
$1"; shift; i=$((i+1)); done
mount=$1; chroot=$2; hostname=$3; user=$4; shift 4
"$mount" --make-rprivate /
"$mount" -t tmpfs -o size=1m,mode=755 grove-sandbox "$root"
echo "$paths" | while IFS= read -r p; do
  [ -n "$p" ] || continue
  if [ -L "$p" ]; then mkdir -p "$root$(dirname "$p")"; ln -s "$(readlink "$p")" "$root$p"
  elif [ -d "$p" ]; then mkdir -p "$root$p"; "$mount" --bind "$p" "$root$p"; "$mount" -o remount,bind,ro,nosuid,nodev "$root$p"
  fi
done
mkdir -p "$root/dev" "$root/tmp"; chmod 1777 "$root/tmp"
for f in null zero random urandom; do : > "$root/dev/$f"; "$mount" --bind "/dev/$f" "$root/dev/$f"; done
[ -z "$hostname" ] || "$hostname" grove-sandbox 2>/dev/null || true
if [ -n "$user" ]; then exec "$chroot" --userspec="$user:$user" --groups="$user" "$root" "$@"; fi
exec "$chroot" "$root" "$@"
`;

let cached: Jail | undefined;

/**
 * The jail of this process, probed once: a tiny Node program is started inside it and must
 * exit cleanly within 10 s.
 *
 * @example
 * const jail = sandboxJail();
 * if (jail.available) spawn(...Object.values(jail.wrap(['-e', '1'], enginePaths().readable)));
 */
export function sandboxJail(env: NodeJS.ProcessEnv = process.env): Jail {
  if (cached) return cached;
  const mode = (env.GROVE_SANDBOX_JAIL ?? 'auto').toLowerCase();
  const required = mode === 'required';
  const off = (reason: string): Jail => ({ available: false, reason, required, layers: [], wrap: () => { throw new Error(`the sandbox jail is not available: ${reason}`); } });
  if (mode === 'off') return (cached = off('turned off (GROVE_SANDBOX_JAIL=off)'));
  if (process.platform !== 'linux') return (cached = off(`namespaces are Linux-only (this is ${process.platform})`));
  const tools = { unshare: findTool('unshare'), mount: findTool('mount'), chroot: findTool('chroot'), sh: findTool('sh') };
  const missing = Object.entries(tools).filter(([, path]) => !path).map(([name]) => name);
  if (missing.length > 0) return (cached = off(`${missing.join(', ')} not found`));
  const root = join(tmpdir(), 'grove-sandbox-root');
  try {
    mkdirSync(root, { recursive: true, mode: 0o755 });
  } catch (err) {
    return (cached = off(`cannot create its mount point ${root} (${(err as Error).message})`));
  }
  const asRoot = process.getuid?.() === 0;
  const namespaces = [...(asRoot ? [] : ['--user', '--map-root-user']), '--mount', '--net', '--uts', '--ipc'];
  const wrap = (nodeArgs: string[], readable: string[], role: SandboxRole = 'code') => {
    const shown = [...new Set(['/usr', '/lib', '/lib64', '/lib32', '/libx32', '/bin', '/sbin', nodePrefix(), ...readable])].filter((p) => existsSync(p));
    const user = asRoot ? String(SANDBOX_UIDS[role]) : '';
    return {
      file: tools.unshare!,
      args: [...namespaces, '--', tools.sh!, '-c', SETUP, 'grove-sandbox', root, String(shown.length), ...shown, tools.mount!, tools.chroot!, findTool('hostname') ?? '', user, process.execPath, ...nodeArgs],
    };
  };
  const expected = asRoot ? SANDBOX_UIDS.code : 0;
  const probe = wrap(['-e', `process.exitCode = process.getuid() === ${expected} ? 0 : 3`], []);
  const result = spawnSync(probe.file, probe.args, { env: {}, timeout: 10_000, encoding: 'utf8' });
  if (result.status !== 0) {
    const why = (result.error?.message ?? result.stderr ?? '').trim().split('\n').filter(Boolean).slice(-1)[0] ?? `exit ${result.status}`;
    return (cached = off(`the namespaces could not be made here (${why.slice(0, 200) || `exit ${result.status}`})`));
  }
  const layers = ['network-namespace', 'filesystem-jail', ...(asRoot ? ['unprivileged-user'] : [])];
  return (cached = { available: true, required, layers, wrap });
}

/** Forgets the probe (tests that change `GROVE_SANDBOX_JAIL`). */
export function resetSandboxJail(): void {
  cached = undefined;
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
