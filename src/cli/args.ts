/**
 * The `mcp-live` command line, parsed with Node's built-in `util.parseArgs`: which command,
 * its operands, the global options, and which server (a command line after `--`, or `--url`).
 * Pure: no I/O. Anything malformed throws {@link UsageError} (exit code 2).
 */
import { parseArgs } from 'node:util';
import jsonc, { type ParseError, type ParseErrorCode } from 'jsonc-parser';
import type { PromptReference, ResourceTemplateReference } from '../index.js';
import { cutEnd, cutStart } from '../util/text.js';

/** A malformed command line: the CLI prints it with the usage hint and exits with 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type ListKind = 'tools' | 'prompts' | 'resources' | 'templates';

/** Where the server is: a command to spawn (stdio), or a URL (Streamable HTTP or WebSocket). */
export type ServerSpec =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd: string | undefined }
  | { kind: 'http' | 'websocket'; url: string; headers: Record<string, string> }
  /** Every server of a host configuration file (`--config`), behind one `McpHost`. */
  | {
      kind: 'config';
      path: string;
      /** `--server <name>`: the server of the file that read, call, get-prompt or complete goes to. */
      server: string | undefined;
    };

export type Command =
  | { name: 'inspect' }
  | { name: 'list'; kind: ListKind }
  | { name: 'read'; uri: string }
  | { name: 'get-prompt'; prompt: string; args: Record<string, string> }
  | {
      name: 'call';
      tool: string;
      args: Record<string, unknown>;
      task: boolean;
      /** `call <tool> -`: the arguments are the JSON object on stdin (read by the runner, into `args`). */
      argsFromStdin?: boolean | undefined;
    }
  | {
      name: 'complete';
      ref: PromptReference | ResourceTemplateReference;
      argument: string;
      value: string;
      context: Record<string, string>;
      /** `--interactive`: the value is typed at the terminal, with suggestions as it changes. */
      interactive: boolean;
    }
  /** `complete -i` with `--config` and no ref: a line typed at the terminal, slash commands and @-mentions completed. */
  | { name: 'complete-line' }
  /** `run '<slash command line>'` with `--config`: the prompt's messages. */
  | { name: 'run'; line: string }
  /** `skills list|show|read` with `--config`: the host's skills (SEP-2640). */
  | { name: 'skills'; action: 'list' | 'show' | 'read'; skill: string | undefined; file: string | undefined }
  | { name: 'watch'; uris: string[] }
  /** A task (Tasks extension) by id: `tasks/get`, follow it to its result, or `tasks/cancel`. */
  | { name: 'task'; action: 'get' | 'result' | 'cancel'; taskId: string }
  /** Triggers & Events: `events list`, or `events watch <name> [json | key=value ...] [--cursor <c>]`. */
  | {
      name: 'events';
      action: 'list' | 'watch';
      event: string | undefined;
      args: Record<string, unknown>;
      cursor?: string | undefined;
    }
  /** `devtools [--port <n>]` with --config: the devtools page over the config's host, on 127.0.0.1, until Ctrl-C. */
  | { name: 'devtools'; port: number };

export interface GlobalOptions {
  json: boolean;
  /** Idle timeout per request, ms (progress restarts it). */
  timeoutMs: number | undefined;
  /** Copy the stdio server's stderr to ours. */
  verbose: boolean;
  /** Write the debug log (wire messages, cache outcomes, HTTP exchanges; credentials redacted) to stderr. */
  debug: boolean;
}

export type Invocation =
  | { kind: 'help'; command?: string | undefined }
  | { kind: 'version' }
  | { kind: 'run'; command: Command; server: ServerSpec; options: GlobalOptions };

export const USAGE = `usage: mcp-live <command> [options] (--url <url> | --config <file> | -- <server command> [args...])

commands:
  inspect                          identity, versions, capabilities, counts of everything listed
  list tools|prompts|resources|templates
                                   every page of one list
  read <uri>                       resources/read
  get-prompt <name> [key=value ...]
                                   prompts/get with string arguments
  call <tool> [json | - | key=value ...] [--task]
                                   tools/call; json is the arguments object (default {}), - reads it
                                   from stdin, key=value pairs give string arguments and key:=json
                                   pairs JSON ones (n:=2, on:=true); with --task the server may run
                                   it as a task (io.modelcontextprotocol/tasks): its states are
                                   shown, its questions asked, Ctrl-C cancels it
  complete <ref> <arg> <value> [key=value ...]
                                   completion/complete; ref is prompt:<name> or template:<uri template>
                                   (a bare name is a prompt; one with :// is a template); key=value
                                   pairs are already-chosen arguments (context)
  complete -i <ref> <arg> [key=value ...]
                                   type the value at the terminal: suggestions follow each keystroke
                                   (debounced; Tab takes the first, Enter prints the value)
  run '<slash command>'            with --config: a prompt as a slash command, e.g.
                                   run '/mcp__example__greet Ada pirate' (words in argument order,
                                   quotes for spaces, name=value); prints the prompt's messages
  complete -i                      with --config and no ref: type a line; slash commands, their
                                   arguments and @server:uri mentions are completed as you type
                                   (Tab takes the first, Enter prints the line)
  skills list|show|read [<skill> [<file>]]
                                   with --config: the servers' skills (SEP-2640): list them, show
                                   one's entry and files, read its SKILL.md or one of its files
  watch [uri ...]                  subscribe to list changes (and updates of each uri) and print
                                   events until Ctrl-C
  events list                      the event types (Triggers & Events extension) and their delivery modes
  events watch <name> [json | key=value ...] [--cursor <cursor>]
                                   subscribe (push, else poll) and print occurrences and gaps until
                                   Ctrl-C; --cursor starts after that cursor (default: now); the
                                   last cursor is printed to stderr on exit
  devtools [--port <n>]            with --config: the devtools page of the host over the config's
                                   servers (servers, catalog, requests, approvals), on 127.0.0.1
                                   behind a token; prints its URL, serves until Ctrl-C
  task get|result|cancel <id>      a task by id on a new connection (a server that outlives the run,
                                   --url): its state (tasks/get); its result, followed to the end
                                   (Ctrl-C stops following, the task goes on); or tasks/cancel

server:
  -- <command> [args...]           spawn a stdio server, e.g. -- node build/examples/server.js
  --url <url>                      http(s):// for Streamable HTTP, ws(s):// for WebSocket
  --config <file>                  every server of a config file (mcpServers: Claude Desktop, Cursor,
                                   .mcp.json; servers: VS Code mcp.json) at once: inspect shows one
                                   table, list shows exposed names (<server>__<tool>), call takes one,
                                   read and complete route by URI (not with watch)
  --server <name>                  with --config: the server that read, call, get-prompt or complete
                                   goes to, when a URI could be served by more than one (call and
                                   get-prompt then take the tool's or prompt's own name)

options:
  --json                           one JSON document on stdout (watch: one JSON line per event)
  -H, --header <name: value>       extra HTTP/WebSocket header (repeatable)
  -e, --env <KEY=VALUE>            extra environment variable for a stdio server (repeatable)
  --cwd <dir>                      working directory of a stdio server
  --timeout <ms>                   idle timeout per request (default 60000; progress restarts it)
  --cursor <cursor>                events watch: start after this cursor
  --port <n>                       devtools: the port on 127.0.0.1 (default: a free one)
  --task                           call: declare the Tasks extension and follow the task to its end
  -v, --verbose                    show the stdio server's stderr
  --debug                          log wire messages and decisions to stderr, credentials redacted
                                   (also when MCP_LIVE_DEBUG=1)
  -h, --help                       this help; <command> --help: that command's
  -V, --version                    the mcp-live version

exit codes: 0 ok, 1 error from the server or the transport, 2 usage error, 130 interrupted`;

const OPTIONS = {
  json: { type: 'boolean' },
  url: { type: 'string' },
  config: { type: 'string' },
  server: { type: 'string' },
  header: { type: 'string', short: 'H', multiple: true },
  env: { type: 'string', short: 'e', multiple: true },
  cwd: { type: 'string' },
  timeout: { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  debug: { type: 'boolean' },
  interactive: { type: 'boolean', short: 'i' },
  task: { type: 'boolean' },
  cursor: { type: 'string' },
  port: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

const LIST_KINDS: readonly string[] = ['tools', 'prompts', 'resources', 'templates'];
const COMMANDS: readonly string[] = [
  'inspect',
  'list',
  'read',
  'get-prompt',
  'call',
  'complete',
  'run',
  'skills',
  'watch',
  'task',
  'events',
  'devtools',
];

/**
 * The help of one command: its lines of {@link USAGE} (with their continuation lines), and where
 * the rest is.
 */
export function commandUsage(command: string): string {
  const lines = USAGE.split('\n');
  const out: string[] = [];
  let inside = false;
  for (const text of lines) {
    if (/^ {2}[a-z]/.test(text)) inside = text.slice(2).split(' ')[0] === command;
    else if (!/^ {3,}/.test(text)) inside = false;
    if (inside) out.push(text);
  }
  return `usage: mcp-live ${command} ... (--url <url> | --config <file> | -- <server command> [args...])\n\n${out.join('\n')}\n\nserver, options and exit codes: mcp-live --help`;
}

/** Parses `argv` (without the node and script paths). @throws UsageError */
export function parseCommandLine(argv: readonly string[]): Invocation {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, tokens } = parsed;
  if (values.help) {
    const first = parsed.positionals[0];
    return first !== undefined && COMMANDS.includes(first) ? { kind: 'help', command: first } : { kind: 'help' };
  }
  if (values.version) return { kind: 'version' };

  // Positionals before `--` are the command and its operands; after it, the server's command line.
  const terminator = tokens.find((t) => t.kind === 'option-terminator');
  const operands: string[] = [];
  const serverArgv: string[] = [];
  for (const token of tokens) {
    if (token.kind !== 'positional') continue;
    (terminator !== undefined && token.index > terminator.index ? serverArgv : operands).push(token.value);
  }

  const [name, ...rest] = operands;
  if (name === undefined) throw new UsageError('no command given');
  if (name === 'help')
    return rest[0] !== undefined && COMMANDS.includes(rest[0]) ? { kind: 'help', command: rest[0] } : { kind: 'help' };
  if (values.interactive && name !== 'complete') throw new UsageError('--interactive is for the complete command');
  if (terminator === undefined && values.url === undefined)
    misplacedServerCommand(name, rest, values.interactive ?? false);
  const command = parseCommand(name, rest, values.interactive ?? false);
  if (values.cursor !== undefined) {
    if (command.name !== 'events' || command.action !== 'watch')
      throw new UsageError('--cursor is an option of events watch');
    command.cursor = values.cursor;
  }
  if (values.port !== undefined) {
    if (command.name !== 'devtools') throw new UsageError('--port is an option of devtools');
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65_535)
      throw new UsageError(`--port wants a port number (0-65535), not ${JSON.stringify(values.port)}`);
    command.port = port;
  }
  if (values.task === true) {
    if (command.name !== 'call') throw new UsageError('--task is an option of call');
    command.task = true;
  }
  if (
    values.config === undefined &&
    (command.name === 'run' || command.name === 'skills' || command.name === 'complete-line')
  )
    throw new UsageError(
      `${command.name === 'complete-line' ? 'complete -i without a ref' : command.name} works on the servers of a --config file (slash command and skill names are the host's)`,
    );
  if (values.config === undefined && command.name === 'devtools')
    throw new UsageError('devtools shows a host: give its servers with --config <file>');
  if (values.server !== undefined && values.config === undefined)
    throw new UsageError('--server picks one server of a --config file; without --config there is only one');
  const server =
    values.config === undefined
      ? parseServer(values, serverArgv, terminator !== undefined)
      : configServer(values, command, terminator !== undefined);
  let timeoutMs: number | undefined;
  if (values.timeout !== undefined) {
    timeoutMs = Number(values.timeout);
    if (!/^\d+$/.test(values.timeout) || timeoutMs <= 0)
      throw new UsageError(`--timeout wants a positive number of milliseconds, not ${JSON.stringify(values.timeout)}`);
  }
  return {
    kind: 'run',
    command,
    server,
    options: { json: values.json ?? false, timeoutMs, verbose: values.verbose ?? false, debug: values.debug ?? false },
  };
}

function parseCommand(name: string, operands: string[], interactive: boolean): Command {
  const arity = (min: number, max: number, shape: string): void => {
    if (operands.length >= min && operands.length <= max) return;
    throw new UsageError(
      shape === '' ? `${name} takes no operands (got ${operands.join(' ')})` : `${name} wants ${shape}`,
    );
  };
  switch (name) {
    case 'inspect':
      arity(0, 0, '');
      return { name };
    case 'list': {
      arity(1, 1, 'tools|prompts|resources|templates');
      const kind = operands[0] as string;
      if (!LIST_KINDS.includes(kind))
        throw new UsageError(`list what? ${JSON.stringify(kind)} is not one of tools, prompts, resources, templates`);
      return { name, kind: kind as ListKind };
    }
    case 'read':
      arity(1, 1, '<uri>');
      return { name, uri: operands[0] as string };
    case 'get-prompt':
      arity(1, Infinity, '<name> [key=value ...]');
      return { name, prompt: operands[0] as string, args: keyValues(operands.slice(1), 'prompt argument') };
    case 'call': {
      arity(1, Infinity, '<tool> [json | - | key=value ...]');
      const [tool, ...given] = operands as [string, ...string[]];
      if (given.length === 1 && given[0] === '-') return { name, tool, args: {}, task: false, argsFromStdin: true };
      if (given.length === 1 && !isPair(given[0] as string))
        return { name, tool, args: jsonObject(given[0] as string), task: false };
      return { name, tool, args: toolPairs(given), task: false };
    }
    case 'complete': {
      if (interactive && operands.length === 0) return { name: 'complete-line' };
      if (interactive) arity(2, Infinity, '<prompt:name|template:uri> <argument> [key=value ...]');
      else arity(3, Infinity, '<prompt:name|template:uri> <argument> <value> [key=value ...]');
      const [ref, argument, value] = operands as [string, string, string];
      return {
        name,
        ref: completionRef(ref),
        argument,
        value: interactive ? '' : value,
        context: keyValues(operands.slice(interactive ? 2 : 3), 'context argument'),
        interactive,
      };
    }
    case 'run':
      arity(1, 1, "'<slash command line>' (one operand: quote the line)");
      return { name, line: operands[0] as string };
    case 'skills': {
      arity(1, 3, 'list | show <skill> | read <skill> [<file>]');
      const [action, skill, file] = operands as [string, string | undefined, string | undefined];
      if (action === 'list') arity(1, 1, 'list (no more operands)');
      else if (action === 'show') arity(2, 2, 'show <skill>');
      else if (action === 'read') arity(2, 3, 'read <skill> [<file>]');
      else throw new UsageError(`skills what? ${JSON.stringify(action)} is not one of list, show, read`);
      return { name, action, skill, file };
    }
    case 'watch':
      return { name, uris: operands };
    case 'devtools':
      arity(0, 0, '');
      return { name, port: 0 };
    case 'events': {
      arity(1, Infinity, 'list | watch <name> [json | key=value ...]');
      const [action, event, ...given] = operands as [string, string | undefined, ...string[]];
      if (action === 'list') {
        arity(1, 1, 'list (no more operands)');
        return { name, action, event: undefined, args: {} };
      }
      if (action !== 'watch') throw new UsageError(`events what? ${JSON.stringify(action)} is not one of list, watch`);
      arity(2, Infinity, 'watch <name> [json | key=value ...]');
      const args =
        given.length === 1 && !isPair(given[0] as string) ? jsonObject(given[0] as string) : toolPairs(given);
      return { name, action, event, args };
    }
    case 'task': {
      arity(2, 2, 'get|result|cancel <task id>');
      const [action, taskId] = operands as [string, string];
      if (action !== 'get' && action !== 'result' && action !== 'cancel')
        throw new UsageError(`task what? ${JSON.stringify(action)} is not one of get, result, cancel`);
      return { name, action, taskId };
    }
    default:
      throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  }
}

/**
 * Without `--` and `--url`, trailing operands the command does not take are most likely the
 * server's command line (`mcp-live list tools node server.js`): say so, with the fixed line.
 * Returns quietly when the operands read as the command's own.
 */
function misplacedServerCommand(name: string, operands: string[], interactive: boolean): void {
  const accepts = (taken: string[]): boolean => {
    // watch takes any number of uris; a uri has a scheme, a command line's first word has none.
    if (name === 'watch') return taken.every((operand) => /^[a-z][a-z0-9+.-]*:/i.test(operand));
    try {
      parseCommand(name, taken, interactive);
      return true;
    } catch {
      return false;
    }
  };
  if (operands.length === 0 || accepts(operands)) return;
  // call's second operand is its arguments when it reads as such (JSON, -, key=value): a JSON
  // mistake is reported where it is, never taken for a server's command line.
  if (
    name === 'call' &&
    operands.length >= 2 &&
    operands.slice(1).every((o) => /^\s*[{[]/.test(o) || o === '-' || isPair(o))
  )
    return;
  for (let kept = operands.length - 1; kept >= 0; kept--) {
    if (!accepts(operands.slice(0, kept))) continue;
    const server = operands.slice(kept).map(shellWord).join(' ');
    const own = [name, ...operands.slice(0, kept)].map(shellWord).join(' ');
    throw new UsageError(
      `${JSON.stringify(server)} looks like the server's command: put it after --, as in\n  mcp-live ${own} -- ${server}`,
    );
  }
}

/** `word` as a POSIX shell would need it typed: as is when plain, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** `prompt:<name>` / `template:<uri template>`; a bare value is a template if it has `://` or `{`, else a prompt. */
export function completionRef(text: string): PromptReference | ResourceTemplateReference {
  const prefixed = /^(prompt|template|ref\/prompt|ref\/resource):(.*)$/s.exec(text);
  if (prefixed !== null) {
    const [, kind, value] = prefixed as unknown as [string, string, string];
    if (value === '') throw new UsageError(`empty reference in ${JSON.stringify(text)}`);
    return kind === 'prompt' || kind === 'ref/prompt'
      ? { type: 'ref/prompt', name: value }
      : { type: 'ref/resource', uri: value };
  }
  return text.includes('://') || text.includes('{')
    ? { type: 'ref/resource', uri: text }
    : { type: 'ref/prompt', name: text };
}

function keyValues(pairs: string[], what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`${what} ${JSON.stringify(pair)} is not key=value`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

/** `key=value` or `key:=json`, with a key that is a plain word. */
function isPair(text: string): boolean {
  return /^[\w.-]+:?=/.test(text);
}

/** `call`'s pairs: `key=value` a string, `key:=json` a JSON value. @throws UsageError */
function toolPairs(pairs: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const match = /^([\w.-]+)(:?)=(.*)$/s.exec(pair);
    if (match === null)
      throw new UsageError(
        `tool argument ${JSON.stringify(pair)} is not key=value or key:=json (or give one JSON object)`,
      );
    const [, key, raw, value] = match as unknown as [string, string, string, string];
    out[key] = raw === ':' ? jsonValue(value, `the value of ${key} is`) : value;
  }
  return out;
}

/**
 * Parses `text` as JSON. @throws UsageError saying where it is wrong (`subject`: what the text
 * is, with its verb): the character, what was wrong there, and the text with a caret under it.
 */
function jsonValue(text: string, subject: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // JSON.parse names no position on every Node; jsonc-parser (strict here) finds the first error.
    const errors: ParseError[] = [];
    jsonc.parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (first === undefined)
      throw new UsageError(`${subject} not JSON (${error instanceof Error ? error.message : String(error)})`);
    const at = Math.min(first.offset, text.length);
    const start = cutStart(text, Math.max(0, at - 60));
    const shown = text.slice(start, cutEnd(text, start + 100)).replace(/\s/g, ' ');
    throw new UsageError(
      `${subject} not JSON, ${at === text.length ? `at its end (character ${at + 1})` : `at character ${at + 1} of ${text.length}`} (${describeParseError(first.error)}):\n  ${shown}\n  ${' '.repeat(at - start)}^`,
    );
  }
}

/** jsonc-parser's error code in words: `PropertyNameExpected` → `property name expected`. */
function describeParseError(code: ParseErrorCode): string {
  return jsonc
    .printParseErrorCode(code)
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

/** The arguments object of `call`, from the command line or stdin. @throws UsageError */
export function jsonObject(text: string): Record<string, unknown> {
  const value = jsonValue(text, 'the tool arguments are');
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`tool arguments must be a JSON object, not ${text}`);
  return value as Record<string, unknown>;
}

/** `--config <file>`: alone (no --url, no command after --, no per-server flags), and not for watch. */
function configServer(
  values: {
    config?: string | undefined;
    server?: string | undefined;
    url?: string | undefined;
    header?: string[] | undefined;
    env?: string[] | undefined;
    cwd?: string | undefined;
  },
  command: Command,
  sawTerminator: boolean,
): ServerSpec {
  if (values.url !== undefined || sawTerminator)
    throw new UsageError('give the servers either as --config <file>, or one as --url or after --, not both');
  if (values.header !== undefined || values.env !== undefined || values.cwd !== undefined)
    throw new UsageError('--header, --env and --cwd are for one server; put them in the config file');
  if (command.name === 'watch')
    throw new UsageError('watch follows one server: give it with --url or after --, not --config');
  if ((command.name === 'call' && command.task === true) || (command.name === 'complete' && command.interactive))
    throw new UsageError(
      `${command.name === 'call' ? '--task' : '--interactive'} works on one server, not with --config`,
    );
  if (command.name === 'task') throw new UsageError('task works on one server: give it with --url, not --config');
  if (command.name === 'events') throw new UsageError('events works on one server: give it with --url or after --');
  if (values.config === '') throw new UsageError('--config wants a file');
  if (values.server !== undefined && !['read', 'call', 'get-prompt', 'complete'].includes(command.name))
    throw new UsageError(`--server is for read, call, get-prompt and complete, not ${command.name}`);
  if (values.server === '') throw new UsageError('--server wants a server name');
  return { kind: 'config', path: values.config as string, server: values.server };
}

function parseServer(
  values: {
    url?: string | undefined;
    header?: string[] | undefined;
    env?: string[] | undefined;
    cwd?: string | undefined;
  },
  serverArgv: string[],
  sawTerminator: boolean,
): ServerSpec {
  if (values.url !== undefined && sawTerminator)
    throw new UsageError('give the server either as --url <url> or after --, not both');
  if (values.url !== undefined) {
    if (values.env !== undefined || values.cwd !== undefined)
      throw new UsageError('--env and --cwd are for a stdio server (after --), not --url');
    let url: URL;
    try {
      url = new URL(values.url);
    } catch {
      throw new UsageError(`--url ${JSON.stringify(values.url)} is not a URL`);
    }
    const kind =
      url.protocol === 'http:' || url.protocol === 'https:'
        ? 'http'
        : url.protocol === 'ws:' || url.protocol === 'wss:'
          ? 'websocket'
          : undefined;
    if (kind === undefined)
      throw new UsageError(`--url must be http(s):// (Streamable HTTP) or ws(s):// (WebSocket), not ${url.protocol}//`);
    const headers: Record<string, string> = {};
    for (const header of values.header ?? []) {
      const at = header.indexOf(':');
      if (at <= 0) throw new UsageError(`--header ${JSON.stringify(header)} is not "name: value"`);
      headers[header.slice(0, at).trim()] = header.slice(at + 1).trim();
    }
    return { kind, url: values.url, headers };
  }
  if (values.header !== undefined) throw new UsageError('--header is for a server given with --url');
  const [command, ...args] = serverArgv;
  if (command === undefined) {
    throw new UsageError(
      sawTerminator ? 'no server command after --' : 'which server? give --url <url>, or put its command after --',
    );
  }
  return { kind: 'stdio', command, args, env: keyValues(values.env ?? [], '--env'), cwd: values.cwd };
}
