/**
 * Plans how to start a stdio MCP server: which file to execute, with which argv, environment
 * and `child_process.spawn` options. Pure: no I/O unless the caller passes a file-existence
 * check for Windows command lookup.
 */

import * as path from 'node:path';
import { InvalidArgumentError } from '../../errors/errors.js';

/** What the user configured: the command line and environment of the server. */
export interface SpawnConfig {
  /** Executable name (looked up on PATH) or path, e.g. `"npx"`, `"uvx"`, `"/usr/bin/node"`. */
  command: string;
  /** Arguments, passed to the server verbatim (each stays one argument on every platform). */
  args?: readonly string[] | undefined;
  /** Extra environment variables; they win over the inherited safe defaults. */
  env?: Readonly<Record<string, string>> | undefined;
  /** Working directory of the server; default: the host's. */
  cwd?: string | undefined;
}

/** Environment of the host process, as `process.env`. */
export type BaseEnv = Readonly<Record<string, string | undefined>>;

/** Options for {@link planSpawn}. */
export interface SpawnPlanOptions {
  /** Platform to plan for. Default `process.platform`. */
  platform?: NodeJS.Platform | undefined;
  /** Where the safe default variables are inherited from. Default `process.env`. */
  baseEnv?: BaseEnv | undefined;
  /** What the server's stderr is connected to. Default `'pipe'`. */
  stderr?: 'pipe' | 'ignore' | undefined;
  /**
   * Windows only: finds the file `command` names (PATH + PATHEXT lookup), e.g. `npx` →
   * `C:\Program Files\nodejs\npx.cmd`. Without it, or when it returns `undefined`, a command
   * without an extension is run through `cmd.exe`, which does the lookup itself.
   */
  resolveCommand?:
    | ((command: string, env: Readonly<Record<string, string>>, cwd: string | undefined) => string | undefined)
    | undefined;
}

/** The `child_process.spawn` options a plan sets. Assignable to `SpawnOptions`. */
export interface PlannedSpawnOptions {
  cwd?: string;
  /** The complete environment of the child (nothing else is inherited). */
  env: Record<string, string>;
  stdio: ['pipe', 'pipe', 'pipe' | 'ignore'];
  /**
   * POSIX: true, so the child leads a new process group (and session) and the transport can
   * signal the whole group on close. Windows: false (true would give it its own console).
   */
  detached: boolean;
  shell: false;
  windowsHide: true;
  /** True when `args` is a pre-quoted `cmd.exe` command line (Windows shims). */
  windowsVerbatimArguments: boolean;
}

/** Arguments for `child_process.spawn(file, args, options)`. */
export interface SpawnPlan {
  file: string;
  args: string[];
  options: PlannedSpawnOptions;
  /**
   * How the command is run: `direct` (executed as is, no shell) or `cmd` (Windows `.cmd`/`.bat`
   * shim or unresolved command, through `cmd.exe /d /s /v:off /c` with escaped arguments).
   */
  via: 'direct' | 'cmd';
}

/** Variables inherited from the host on POSIX (when set). */
export const POSIX_SAFE_ENV_VARS: readonly string[] = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/** Variables inherited from the host on Windows (when set; names compared case-insensitively). */
export const WINDOWS_SAFE_ENV_VARS: readonly string[] = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'COMSPEC',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'PROGRAMFILES',
];

/**
 * Builds the environment of the server: the safe default variables copied from `baseEnv`
 * (values that look like exported shell functions, `() {...`, are skipped) plus `userEnv`,
 * whose values win. On Windows names are compared case-insensitively and a user variable
 * replaces an inherited one spelled differently (`Path` vs `PATH`).
 */
export function buildChildEnv(
  platform: NodeJS.Platform,
  baseEnv: BaseEnv,
  userEnv: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  const windows = platform === 'win32';
  const env: Record<string, string> = {};
  const wanted = new Set(windows ? WINDOWS_SAFE_ENV_VARS : POSIX_SAFE_ENV_VARS);
  for (const [name, value] of Object.entries(baseEnv)) {
    if (value === undefined || value.startsWith('()')) {
      continue;
    }
    if (wanted.has(windows ? name.toUpperCase() : name)) {
      env[name] = value;
    }
  }
  if (userEnv !== undefined) {
    for (const [name, value] of Object.entries(userEnv)) {
      if (windows) {
        const upper = name.toUpperCase();
        for (const existing of Object.keys(env)) {
          if (existing !== name && existing.toUpperCase() === upper) {
            delete env[existing];
          }
        }
      }
      env[name] = value;
    }
  }
  return env;
}

function getEnv(env: Readonly<Record<string, string | undefined>>, name: string, windows: boolean): string | undefined {
  if (!windows) {
    return env[name];
  }
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) {
    if (key.toUpperCase() === upper && value !== undefined) {
      return value;
    }
  }
  return undefined;
}

/**
 * Plans `child_process.spawn` for a stdio server.
 *
 * - POSIX: `command` is executed directly (PATH lookup by the OS, no shell), `detached: true`.
 * - Windows: `.exe`/`.com` files are executed directly. `.cmd`/`.bat` shims (`npx`, `pnpm`...)
 *   cannot be, so they run through `%COMSPEC% /d /s /v:off /c "<line>"` with each argument
 *   quoted for the C runtime and every `cmd.exe` metacharacter escaped with `^` (twice for
 *   batch files, whose `%*` is parsed again), so `C:\Program Files\x` stays one argument and
 *   `a&b` cannot start a second command. A command without an extension that `resolveCommand`
 *   cannot resolve also goes through `cmd.exe` (escaped as for a batch file, the safe choice).
 *   `spawn("npx", ..., { shell: false })` is never planned: it fails with ENOENT on Windows.
 * - Environment: a safe default set of variables copied from the parent (values shaped like
 *   exported shell functions skipped) plus `env`, whose values win; on Windows names compare
 *   case-insensitively.
 *
 * @throws InvalidArgumentError (code -32602) when `command` is empty, when the command or an
 *   argument contains a NUL character, or (Windows, through `cmd.exe`) a line break or NUL,
 *   which `cmd.exe` cannot pass on safely.
 */
export function planSpawn(config: SpawnConfig, options: SpawnPlanOptions = {}): SpawnPlan {
  const platform = options.platform ?? process.platform;
  const baseEnv = options.baseEnv ?? process.env;
  const windows = platform === 'win32';
  const args = [...(config.args ?? [])];

  if (typeof config.command !== 'string' || config.command.length === 0) {
    throw new InvalidArgumentError('command', config.command, 'must be a non-empty string');
  }
  if (config.command.includes('\0')) {
    throw new InvalidArgumentError('command', config.command, 'must not contain NUL characters');
  }
  args.forEach((arg, index) => {
    if (typeof arg !== 'string') {
      throw new InvalidArgumentError(`args[${index}]`, arg, 'must be a string');
    }
    if (arg.includes('\0')) {
      throw new InvalidArgumentError(`args[${index}]`, arg, 'must not contain NUL characters');
    }
  });

  const env = buildChildEnv(platform, baseEnv, config.env);
  const spawnOptions: PlannedSpawnOptions = {
    env,
    stdio: ['pipe', 'pipe', options.stderr ?? 'pipe'],
    detached: !windows,
    shell: false,
    windowsHide: true,
    windowsVerbatimArguments: false,
  };
  if (config.cwd !== undefined) {
    spawnOptions.cwd = config.cwd;
  }

  if (!windows) {
    return { file: config.command, args, options: spawnOptions, via: 'direct' };
  }

  const resolved = options.resolveCommand?.(config.command, env, config.cwd);
  const target = resolved ?? config.command;
  const ext = path.win32.extname(target).toLowerCase();
  if (ext === '.exe' || ext === '.com') {
    return { file: target, args, options: spawnOptions, via: 'direct' };
  }

  // A batch file, an unresolved command (most likely a shim), or something only cmd.exe
  // knows how to start. Batch files re-parse their arguments (`%*`), hence the double escape.
  const batch = ext === '.cmd' || ext === '.bat' || resolved === undefined;
  const check = (value: string, name: string): void => {
    if (/[\r\n]/.test(value)) {
      throw new InvalidArgumentError(name, value, 'must not contain line breaks when run through cmd.exe');
    }
  };
  check(target, 'command');
  args.forEach((arg, index) => check(arg, `args[${index}]`));

  const line = [escapeCmdCommand(target), ...args.map((arg) => escapeCmdArgument(arg, batch))].join(' ');
  const comspec = getEnv(baseEnv, 'COMSPEC', true);
  const systemRoot = getEnv(baseEnv, 'SYSTEMROOT', true);
  const file = comspec ?? (systemRoot === undefined ? 'cmd.exe' : path.win32.join(systemRoot, 'System32', 'cmd.exe'));
  return {
    file,
    args: ['/d', '/s', '/v:off', '/c', `"${line}"`],
    options: { ...spawnOptions, windowsVerbatimArguments: true },
    via: 'cmd',
  };
}

// Characters cmd.exe treats specially while parsing a command line: operators, grouping,
// quotes, variable expansion, and token delimiters. A `^` before any character makes it
// literal (a `^` before an ordinary character just disappears), so escaping too much is safe.
const CMD_META = /[\s"^&|<>()%!,;=]/g;

/** Escapes the command (first token) for cmd.exe: caret-escape everything special, no quotes. */
export function escapeCmdCommand(command: string): string {
  return command.replace(CMD_META, '^$&');
}

/**
 * Quotes one argument for the Microsoft C runtime's argv parser (the rules
 * `CommandLineToArgvW` follows: backslashes are literal unless they precede a `"`, in which
 * case they pair up, and an odd one escapes the quote), then caret-escapes it for cmd.exe so
 * cmd sees no quotes or operators at all. With `batch`, the caret escaping is applied twice:
 * the first cmd.exe pass removes one level, a batch file's `%*` expansion the second.
 */
export function escapeCmdArgument(arg: string, batch: boolean): string {
  let quoted = '"';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes += 1;
      continue;
    }
    if (ch === '"') {
      // 2n+1 backslashes + quote → n backslashes + a literal quote.
      quoted += '\\'.repeat(backslashes * 2 + 1) + '"';
    } else {
      quoted += '\\'.repeat(backslashes) + ch;
    }
    backslashes = 0;
  }
  // Backslashes before the closing quote are doubled so they do not escape it.
  quoted += '\\'.repeat(backslashes * 2) + '"';
  const once = quoted.replace(CMD_META, '^$&');
  return batch ? once.replace(CMD_META, '^$&') : once;
}

/**
 * Windows PATH + PATHEXT lookup, the way `cmd.exe` finds a program: a command with a path
 * separator is checked relative to `cwd`; a bare name is looked for in each PATH directory.
 * Without an extension, each PATHEXT extension is tried (default `.COM;.EXE;.BAT;.CMD`).
 * Unlike cmd.exe the current directory is not searched for bare names. `exists` is called
 * with absolute or PATH-relative file paths and should return true for existing files.
 */
export function resolveWindowsCommand(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string | undefined,
  exists: (file: string) => boolean,
): string | undefined {
  const w = path.win32;
  const pathExt = (getEnv(env, 'PATHEXT', true) ?? '.COM;.EXE;.BAT;.CMD')
    .split(';')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  const hasExt = w.extname(command) !== '';
  const candidates = (base: string): string[] => (hasExt ? [base] : pathExt.map((e) => base + e.toLowerCase()));

  if (/[\\/]/.test(command) || w.isAbsolute(command)) {
    const base = w.isAbsolute(command) || cwd === undefined ? command : w.resolve(cwd, command);
    return candidates(base).find(exists);
  }
  const dirs = (getEnv(env, 'PATH', true) ?? '')
    .split(';')
    .map((d) => d.trim().replace(/^"(.*)"$/, '$1'))
    .filter((d) => d.length > 0);
  for (const dir of dirs) {
    const found = candidates(w.join(dir, command)).find(exists);
    if (found !== undefined) {
      return found;
    }
  }
  return undefined;
}
