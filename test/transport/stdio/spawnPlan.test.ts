import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/errors/errors.js';
import {
  buildChildEnv,
  escapeCmdArgument,
  planSpawn,
  resolveWindowsCommand,
  type SpawnConfig,
} from '../../../src/transport/stdio/spawnPlan.js';

// ---------------------------------------------------------------------------------------------
// A small model of how Windows reads the command line we build, to check the escaping without
// Windows: cmd.exe's percent expansion and special-character pass, a batch file's second pass
// over `%*`, and the C runtime's argv splitting (the rules CommandLineToArgvW documents).
// ---------------------------------------------------------------------------------------------

const CMD_VARS: Record<string, string> = { PATH: 'C:\\Windows', FOO: 'expanded', USERPROFILE: 'C:\\Users\\me' };

/** cmd.exe /c phase 1 (command-line context): `%NAME%` expands when NAME is defined. */
function cmdPercent(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === '%') {
      const close = line.indexOf('%', i + 1);
      if (close > i + 1) {
        const name = line.slice(i + 1, close).toUpperCase();
        if (name in CMD_VARS) {
          out += CMD_VARS[name];
          i = close + 1;
          continue;
        }
      }
    }
    out += ch;
    i += 1;
  }
  return out;
}

/**
 * cmd.exe phase 2: `"` toggles quoting, `^` outside quotes makes the next character literal,
 * and an unescaped `& | < >` outside quotes would start another command or a redirection.
 * Returns the text after caret removal and where the command token ends.
 */
function cmdSpecial(line: string): { text: string; commandEnd: number } {
  let out = '';
  let quoted = false;
  let commandEnd = -1;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (!quoted && ch === '^') {
      i += 1;
      out += line[i] ?? '';
      continue;
    }
    if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && '&|<>'.includes(ch)) {
      throw new Error(`cmd.exe would treat ${JSON.stringify(ch)} as an operator at ${i} in ${line}`);
    } else if (!quoted && commandEnd === -1 && ' \t,;='.includes(ch)) {
      commandEnd = out.length;
    }
    out += ch;
  }
  return { text: out, commandEnd: commandEnd === -1 ? out.length : commandEnd };
}

/** The Microsoft C runtime's argv parser (2008+ rules), for the arguments after argv[0]. */
function crtSplit(s: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < s.length) {
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (i >= s.length) break;
    let arg = '';
    let quoted = false;
    while (i < s.length) {
      const ch = s[i]!;
      if (ch === '\\') {
        let n = 0;
        while (s[i] === '\\') {
          n++;
          i++;
        }
        if (s[i] === '"') {
          arg += '\\'.repeat(Math.floor(n / 2));
          if (n % 2 === 1) {
            arg += '"';
            i++;
          }
        } else {
          arg += '\\'.repeat(n);
        }
        continue;
      }
      if (ch === '"') {
        if (quoted && s[i + 1] === '"') {
          arg += '"';
          i += 2;
          continue;
        }
        quoted = !quoted;
        i++;
        continue;
      }
      if (!quoted && (ch === ' ' || ch === '\t')) break;
      arg += ch;
      i++;
    }
    args.push(arg);
  }
  return args;
}

/**
 * What the program finally receives from `cmd.exe /d /s /v:off /c "<line>"`: the command cmd
 * runs, and argv after it. With `batch`, models a .cmd shim that runs `node script %*`.
 */
function simulateCmd(cmdArgs: string[], batch: boolean): { command: string; argv: string[] } {
  expect(cmdArgs.slice(0, 4)).toEqual(['/d', '/s', '/v:off', '/c']);
  const quotedLine = cmdArgs[4]!;
  expect(cmdArgs.length).toBe(5);
  // /s: strip the first and the last quote and run the rest as is.
  expect(quotedLine.startsWith('"') && quotedLine.endsWith('"')).toBe(true);
  const line = quotedLine.slice(1, -1);
  const pass1 = cmdSpecial(cmdPercent(line));
  const command = pass1.text.slice(0, pass1.commandEnd);
  let rest = pass1.text.slice(pass1.commandEnd).replace(/^[ \t]+/, '');
  if (batch) {
    // `%*` is substituted (no second percent expansion), then special characters are parsed again.
    rest = cmdSpecial(rest).text;
  }
  return { command, argv: crtSplit(rest) };
}

// ---------------------------------------------------------------------------------------------

const WIN_ENV = {
  Path: 'C:\\Windows\\system32;C:\\Program Files\\nodejs',
  PATHEXT: '.COM;.EXE;.BAT;.CMD',
  SystemRoot: 'C:\\Windows',
  ComSpec: 'C:\\Windows\\system32\\cmd.exe',
  TEMP: 'C:\\Users\\me\\AppData\\Local\\Temp',
  TMP: 'C:\\Users\\me\\AppData\\Local\\Temp',
  USERPROFILE: 'C:\\Users\\me',
  APPDATA: 'C:\\Users\\me\\AppData\\Roaming',
  LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local',
  HOMEDRIVE: 'C:',
  HOMEPATH: '\\Users\\me',
  PROCESSOR_ARCHITECTURE: 'AMD64',
  SystemDrive: 'C:',
  USERNAME: 'me',
  ProgramFiles: 'C:\\Program Files',
  API_KEY: 'from-host',
  AWS_SECRET_ACCESS_KEY: 'do-not-leak',
  NODE_OPTIONS: '--inspect',
};

const B22: SpawnConfig = {
  command: 'npx',
  args: ['-y', '@scope/server', '--root', 'C:\\Program Files\\data', 'a&b'],
  env: { API_KEY: 'k' },
};

const TRICKY_ARGS = [
  'C:\\Program Files\\data',
  'a&b',
  'a&&calc.exe',
  'x|y',
  '<in >out',
  'a"&calc',
  'he said "hi" & left',
  'trailing\\',
  'trailing two\\\\',
  'back\\"quote',
  '\\\\server\\share\\',
  '',
  ' ',
  '%PATH%',
  '%FOO',
  '100%',
  '^',
  '^^&',
  '(a)',
  '!x!',
  'a,b;c=d',
  'tab\there',
  '"',
  '""',
  '\u00e9\u{1F680}',
];

describe('planSpawn (B22: Windows shims)', () => {
  it('B22: npx on win32 runs through cmd.exe /d /s /c, never spawn("npx", …, { shell: false })', () => {
    const plan = planSpawn(B22, { platform: 'win32', baseEnv: WIN_ENV });
    expect(plan.via).toBe('cmd');
    expect(plan.file).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(plan.file).not.toBe('npx');
    expect(plan.args.slice(0, 4)).toEqual(['/d', '/s', '/v:off', '/c']);
    expect(plan.options.shell).toBe(false);
    expect(plan.options.windowsVerbatimArguments).toBe(true);
    expect(plan.options.windowsHide).toBe(true);
    expect(plan.options.detached).toBe(false);
  });

  it('B22: "C:\\Program Files\\data" stays one argument and "a&b" cannot start a second command', () => {
    const plan = planSpawn(B22, { platform: 'win32', baseEnv: WIN_ENV });
    // The model throws if any & | < > reaches cmd.exe unescaped, in either pass.
    const seen = simulateCmd(plan.args, true);
    expect(seen.command).toBe('npx');
    expect(seen.argv).toEqual(['-y', '@scope/server', '--root', 'C:\\Program Files\\data', 'a&b']);
    // And the raw line has no bare & at all: every one is caret-escaped.
    expect(/(^|[^^])&/.test(plan.args[4]!)).toBe(false);
  });

  it('B22: the env has the safe Windows defaults plus the user env, user values winning', () => {
    const plan = planSpawn(B22, { platform: 'win32', baseEnv: WIN_ENV });
    const env = plan.options.env;
    expect(env).toMatchObject({
      Path: WIN_ENV.Path,
      PATHEXT: WIN_ENV.PATHEXT,
      SystemRoot: WIN_ENV.SystemRoot,
      ComSpec: WIN_ENV.ComSpec,
      TEMP: WIN_ENV.TEMP,
      TMP: WIN_ENV.TMP,
      USERPROFILE: WIN_ENV.USERPROFILE,
      APPDATA: WIN_ENV.APPDATA,
      LOCALAPPDATA: WIN_ENV.LOCALAPPDATA,
      HOMEDRIVE: 'C:',
      HOMEPATH: '\\Users\\me',
      PROCESSOR_ARCHITECTURE: 'AMD64',
      SystemDrive: 'C:',
      USERNAME: 'me',
      ProgramFiles: 'C:\\Program Files',
      API_KEY: 'k',
    });
    expect(env['AWS_SECRET_ACCESS_KEY']).toBeUndefined();
    expect(env['NODE_OPTIONS']).toBeUndefined();
  });

  it('B22: on POSIX the same config spawns npx directly, without a shell, in its own process group', () => {
    const posixEnv = {
      HOME: '/home/me',
      PATH: '/usr/bin:/bin',
      USER: 'me',
      LOGNAME: 'me',
      SHELL: '/bin/zsh',
      TERM: 'xterm',
      API_KEY: 'host',
      SECRET: 's',
    };
    for (const platform of ['linux', 'darwin'] as const) {
      const plan = planSpawn(B22, { platform, baseEnv: posixEnv });
      expect(plan.via).toBe('direct');
      expect(plan.file).toBe('npx');
      expect(plan.args).toEqual(B22.args);
      expect(plan.options.shell).toBe(false);
      expect(plan.options.detached).toBe(true);
      expect(plan.options.windowsVerbatimArguments).toBe(false);
      expect(plan.options.stdio).toEqual(['pipe', 'pipe', 'pipe']);
      expect(plan.options.env).toEqual({
        HOME: '/home/me',
        PATH: '/usr/bin:/bin',
        USER: 'me',
        LOGNAME: 'me',
        SHELL: '/bin/zsh',
        TERM: 'xterm',
        API_KEY: 'k',
      });
    }
  });

  it('a resolved .cmd shim in a path with spaces: the command token stays whole', () => {
    const plan = planSpawn(B22, {
      platform: 'win32',
      baseEnv: WIN_ENV,
      resolveCommand: () => 'C:\\Program Files\\nodejs\\npx.cmd',
    });
    expect(plan.via).toBe('cmd');
    const seen = simulateCmd(plan.args, true);
    expect(seen.command).toBe('C:\\Program Files\\nodejs\\npx.cmd');
    expect(seen.argv).toEqual(B22.args);
  });

  it('a resolved .exe is spawned directly with its arguments untouched (Node quotes them)', () => {
    const plan = planSpawn(
      { command: 'uvx', args: ['mcp-server-fetch', 'a&b', 'C:\\Program Files\\x'] },
      { platform: 'win32', baseEnv: WIN_ENV, resolveCommand: () => 'C:\\Users\\me\\.local\\bin\\uvx.exe' },
    );
    expect(plan).toMatchObject({
      via: 'direct',
      file: 'C:\\Users\\me\\.local\\bin\\uvx.exe',
      args: ['mcp-server-fetch', 'a&b', 'C:\\Program Files\\x'],
      options: { shell: false, windowsVerbatimArguments: false },
    });
    const explicit = planSpawn(
      { command: 'C:\\tools\\server.EXE', args: ['x'] },
      { platform: 'win32', baseEnv: WIN_ENV },
    );
    expect(explicit.via).toBe('direct');
  });

  it('every tricky argument survives cmd.exe + a batch shim, and cmd.exe + an exe', () => {
    for (const [resolved, batch] of [
      [undefined, true],
      ['C:\\Program Files\\nodejs\\npx.cmd', true],
      ['D:\\tools (x86)\\run.bat', true],
      ['C:\\tools\\script.vbs', false],
    ] as const) {
      const plan = planSpawn(
        { command: 'tool', args: TRICKY_ARGS },
        { platform: 'win32', baseEnv: WIN_ENV, resolveCommand: () => resolved },
      );
      expect(plan.via).toBe('cmd');
      const seen = simulateCmd(plan.args, batch);
      expect(seen.command).toBe(resolved ?? 'tool');
      expect(seen.argv).toEqual(TRICKY_ARGS);
    }
    // Each argument on its own as well, so one cannot hide another's mistake.
    for (const arg of TRICKY_ARGS) {
      for (const batch of [true, false]) {
        const line = `"tool ${escapeCmdArgument(arg, batch)}"`;
        expect(simulateCmd(['/d', '/s', '/v:off', '/c', line], batch).argv, JSON.stringify(arg)).toEqual([arg]);
      }
    }
  });

  it('the cmd.exe model is not vacuous: it catches escaping that is known to be wrong', () => {
    // Plain quoting leaves the & of `a"&calc` outside quotes once cmd.exe sees the inner quote.
    expect(() => simulateCmd(['/d', '/s', '/v:off', '/c', '"tool "a\\"&calc""'], false)).toThrow(/operator/);
    // Escaping once is enough for an exe but not for a batch file, which parses %* again.
    const once = `"tool ${escapeCmdArgument('a"&calc', false)}"`;
    expect(simulateCmd(['/d', '/s', '/v:off', '/c', once], false).argv).toEqual(['a"&calc']);
    expect(() => simulateCmd(['/d', '/s', '/v:off', '/c', once], true)).toThrow(/operator/);
    // Without carets, %PATH% would be expanded by cmd.exe.
    expect(simulateCmd(['/d', '/s', '/v:off', '/c', '"tool "%PATH%""'], false).argv).toEqual(['C:\\Windows']);
  });

  it('uses COMSPEC from the host env, else %SystemRoot%\\System32\\cmd.exe, else cmd.exe', () => {
    const { ComSpec: _c, ...noComspec } = WIN_ENV;
    expect(planSpawn(B22, { platform: 'win32', baseEnv: noComspec }).file).toBe('C:\\Windows\\System32\\cmd.exe');
    expect(planSpawn(B22, { platform: 'win32', baseEnv: {} }).file).toBe('cmd.exe');
    // A COMSPEC in the user's env does not change what we run.
    expect(planSpawn({ ...B22, env: { COMSPEC: 'C:\\evil.exe' } }, { platform: 'win32', baseEnv: WIN_ENV }).file).toBe(
      WIN_ENV.ComSpec,
    );
  });

  it('rejects NUL anywhere, and line breaks in what goes through cmd.exe (InvalidArgumentError)', () => {
    expect(() => planSpawn({ command: 'npx', args: ['a\0b'] }, { platform: 'linux', baseEnv: {} })).toThrow(
      InvalidArgumentError,
    );
    expect(() => planSpawn({ command: '' }, { platform: 'linux', baseEnv: {} })).toThrow(InvalidArgumentError);
    expect(() => planSpawn({ command: 'npx', args: ['a\nb'] }, { platform: 'win32', baseEnv: WIN_ENV })).toThrow(
      /line breaks/,
    );
    expect(() => planSpawn({ command: 'npx', args: ['a\rb'] }, { platform: 'win32', baseEnv: WIN_ENV })).toThrow(
      InvalidArgumentError,
    );
    // POSIX passes argv as is: a newline is just a character.
    expect(planSpawn({ command: 'npx', args: ['a\nb'] }, { platform: 'linux', baseEnv: {} }).args).toEqual(['a\nb']);
  });

  it('passes cwd through and connects stderr as asked', () => {
    const plan = planSpawn({ command: 'node', cwd: '/srv' }, { platform: 'linux', baseEnv: {}, stderr: 'ignore' });
    expect(plan.options.cwd).toBe('/srv');
    expect(plan.options.stdio).toEqual(['pipe', 'pipe', 'ignore']);
    expect('cwd' in planSpawn({ command: 'node' }, { platform: 'linux', baseEnv: {} }).options).toBe(false);
  });
});

describe('buildChildEnv', () => {
  it('POSIX: only the safe variables are inherited; user values win; shell functions are skipped', () => {
    const env = buildChildEnv(
      'linux',
      { PATH: '/bin', HOME: '/h', SECRET: 'x', TERM: '() { :; }; echo pwned', LANG: 'C.UTF-8', USER: undefined },
      { PATH: '/custom', EXTRA: '1' },
    );
    expect(env).toEqual({ PATH: '/custom', HOME: '/h', EXTRA: '1' });
  });

  it('POSIX: names are case-sensitive (Path is not PATH)', () => {
    expect(buildChildEnv('linux', { Path: '/x', PATH: '/bin' }, undefined)).toEqual({ PATH: '/bin' });
  });

  it('Windows: names match case-insensitively and a user PATH replaces the inherited Path', () => {
    const env = buildChildEnv(
      'win32',
      { Path: 'C:\\a', comspec: 'C:\\cmd.exe', Secret: 'x' },
      { PATH: 'C:\\mine', temp: 'T' },
    );
    expect(env).toEqual({ comspec: 'C:\\cmd.exe', PATH: 'C:\\mine', temp: 'T' });
  });
});

describe('resolveWindowsCommand', () => {
  const files = new Set([
    'C:\\Program Files\\nodejs\\npx.cmd',
    'C:\\Program Files\\nodejs\\node.exe',
    'C:\\Users\\me\\.local\\bin\\uvx.exe',
    'C:\\proj\\bin\\server.bat',
  ]);
  const exists = (f: string): boolean => files.has(f);
  const env = {
    PATH: 'C:\\Windows;"C:\\Program Files\\nodejs";C:\\Users\\me\\.local\\bin',
    PATHEXT: '.COM;.EXE;.BAT;.CMD',
  };

  it('finds shims and executables on PATH with PATHEXT', () => {
    expect(resolveWindowsCommand('npx', env, undefined, exists)).toBe('C:\\Program Files\\nodejs\\npx.cmd');
    expect(resolveWindowsCommand('node', env, undefined, exists)).toBe('C:\\Program Files\\nodejs\\node.exe');
    expect(resolveWindowsCommand('uvx', env, undefined, exists)).toBe('C:\\Users\\me\\.local\\bin\\uvx.exe');
    expect(resolveWindowsCommand('nope', env, undefined, exists)).toBeUndefined();
  });

  it('resolves relative paths against cwd and keeps explicit extensions', () => {
    expect(resolveWindowsCommand('bin\\server', env, 'C:\\proj', exists)).toBe('C:\\proj\\bin\\server.bat');
    expect(resolveWindowsCommand('C:\\Program Files\\nodejs\\node.exe', env, undefined, exists)).toBe(
      'C:\\Program Files\\nodejs\\node.exe',
    );
  });
});
