/**
 * The server's child process, as the stdio transport starts and stops it: the spawn (planned by
 * spawnPlan.ts), signals to its whole process group (Windows: its process tree), and a last
 * SIGTERM to the children still running when the host process exits. Node only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { planSpawn, resolveWindowsCommand, type SpawnConfig, type SpawnPlan } from './spawnPlan.js';

/**
 * How to spawn the server of `config` on this host, stderr piped or ignored.
 * @throws InvalidArgumentError (-32602) as {@link planSpawn} does.
 */
export function planServer(config: SpawnConfig, stderr: 'pipe' | 'ignore'): SpawnPlan {
  return planSpawn(config, {
    stderr,
    resolveCommand: (command, env, cwd) => resolveWindowsCommand(command, env, cwd, isFile),
  });
}

/** Starts the planned process; throws what `child_process.spawn` throws synchronously. */
export function spawnServer(plan: SpawnPlan): ChildProcess {
  return spawn(plan.file, plan.args, plan.options);
}

/**
 * Sends `signal` to `child`'s process group: the child leads its own group, so its own
 * children get it too. Windows: SIGTERM is `taskkill /T /F` on the process tree, SIGKILL is
 * `kill()` while the child runs. Best effort; never throws.
 */
export function signalProcessGroup(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL', exited: boolean): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    if (signal === 'SIGTERM') {
      try {
        const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
        killer.on('error', () => {});
        killer.unref();
      } catch {
        // Fall through to kill() at the SIGKILL step.
      }
    } else if (!exited) {
      child.kill(signal);
    }
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch (error) {
    // ESRCH: the group is gone. EPERM or anything else: at least signal the child itself.
    if (errorCode(error) !== 'ESRCH' && !exited) {
      try {
        child.kill(signal);
      } catch {
        // Nothing more to do.
      }
    }
  }
}

// Children still running, so that they are signalled if the host exits without closing them
// (they lead their own process group, so a Ctrl-C in the host's terminal does not reach them).
const onExit = new Set<() => void>();
const onHostExit = (): void => {
  for (const kill of onExit) kill();
};

/**
 * Calls `kill` (synchronously, best effort) if the host process exits before the returned
 * function is called. The `process` `exit` listener exists only while something is registered.
 */
export function killOnHostExit(kill: () => void): () => void {
  if (onExit.size === 0) process.on('exit', onHostExit);
  onExit.add(kill);
  return () => {
    if (onExit.delete(kill) && onExit.size === 0) process.off('exit', onHostExit);
  };
}

/** The `code` of a Node system error (`ENOENT`, `EPIPE`...), if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
