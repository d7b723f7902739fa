/**
 * No path around the gate: every public member of `McpHost`, `HostView` and `ToolSession` is
 * classified here, as reaching a server's tool or not, and every one that reaches a tool is
 * shown to pass the host's approval (over a real stdio server, with an approver that refuses:
 * the call is asked about and comes back refused). A member added without a classification
 * fails this test: classify it, and if it reaches a tool, add its path below.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../../src/hostNode.js';
import { McpHost as BaseHost } from '../../../src/host/host.js';
import { HostView } from '../../../src/host/views.js';
import { ToolSession } from '../../../src/host/contextBudget/toolSession.js';
import { hostAppLink, isToolApprovalDeniedError } from '../../../src/host.js';

const SERVER = fileURLToPath(new URL('./children/echo-arguments.mjs', import.meta.url));

/** `tool`: the member can make a `tools/call` (each has a path below); `none`: it cannot. */
type Reach = 'tool' | 'none';

const HOST: Record<string, Reach> = {
  servers: 'none',
  server: 'none',
  client: 'tool', // the server's client: its tools/call passes the host's link, gate included
  configErrors: 'none',
  catalog: 'none',
  tools: 'none',
  prompts: 'none',
  resources: 'none',
  resourceTemplates: 'none',
  searchTools: 'none',
  toolSession: 'tool',
  artifacts: 'none',
  boundToolResult: 'none',
  instructions: 'none',
  on: 'none',
  use: 'none', // adds a link before the gate
  view: 'tool',
  views: 'tool',
  connect: 'none',
  add: 'none',
  remove: 'none',
  close: 'none',
  callTool: 'tool',
  getPrompt: 'none',
  readResource: 'none',
  readAppResource: 'none',
  offersApps: 'none',
  complete: 'none',
  slashCommands: 'none',
  parseSlashCommand: 'none',
  runSlashCommand: 'none', // prompts/get only
  completeSlashCommand: 'none',
  resolveMentions: 'none', // resources/read only
  completeMention: 'none',
  skills: 'none',
  readSkill: 'none',
  callSkillTool: 'none', // skill files are resources
  principal: 'none',
  statePartition: 'none',
  events: 'none', // events/* requests only: what an event-started turn calls goes through callTool
  forUser: 'tool', // a user's scope: its calls pass the same gate, with the scope's approve (else the host's)
};
const VIEW: Record<string, Reach> = {
  catalog: 'none',
  tools: 'none',
  prompts: 'none',
  resources: 'none',
  resourceTemplates: 'none',
  on: 'none',
  callTool: 'tool',
  getPrompt: 'none',
  readResource: 'none',
  close: 'none',
};
const SESSION: Record<string, Reach> = {
  tools: 'none',
  found: 'none',
  load: 'none',
  callTool: 'tool',
};

/** Public members of a class and its ancestors below `Object` (symbols and `#private` left out; TS `private` ones skipped by name). */
function members(prototype: object, privates: readonly string[]): string[] {
  const names = new Set<string>();
  for (let p: object | null = prototype; p !== null && p !== Object.prototype; p = Object.getPrototypeOf(p) as object)
    for (const name of Object.getOwnPropertyNames(p))
      if (name !== 'constructor' && !privates.includes(name)) names.add(name);
  return [...names];
}

describe('no path around the gate', () => {
  const hosts: McpHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.close()));
  });

  it('every public member of McpHost, HostView and ToolSession is classified', () => {
    const unclassified = [
      ...members(McpHost.prototype, []).filter((n) => !(n in HOST)),
      ...members(BaseHost.prototype, []).filter((n) => !(n in HOST)),
      ...members(HostView.prototype, ['onHostEvent', 'select']).filter((n) => !(n in VIEW)),
      ...members(ToolSession.prototype, ['search', 'readArtifact', 'skillTool']).filter((n) => !(n in SESSION)),
    ];
    expect(unclassified, 'classify these members in noPathAround.test.ts').toEqual([]);
  });

  it('every path that reaches a tool is asked about and refused: nothing is sent', async () => {
    const asked: string[] = [];
    const h = new McpHost({
      clientInfo: { name: 'trust-faults', version: '0.0.0' },
      approve: (call) => {
        asked.push(call.exposedName);
        return { deny: 'refused in the test' };
      },
      servers: { echo: { type: 'stdio', command: process.execPath, args: [SERVER] } },
      views: { all: { servers: ['echo'] } },
    });
    hosts.push(h);
    await h.connect();
    const refused = async (run: () => Promise<unknown>): Promise<void> => {
      const before = asked.length;
      const outcome = await run().then(
        (value) => value,
        (error: unknown) => error,
      );
      const denied =
        isToolApprovalDeniedError(outcome) || JSON.stringify(outcome).includes('"mcp-live/approval":{"denied":true');
      expect(denied, JSON.stringify(outcome)).toBe(true);
      expect(asked.length).toBe(before + 1);
    };
    const paths: Record<string, () => Promise<unknown>> = {
      'host.callTool(exposed name)': () => h.callTool('echo__record', { note: 'a' }),
      'host.callTool({ server, name })': () => h.callTool({ server: 'echo', name: 'record' }, { note: 'a' }),
      'host.client(name).callTool': () => h.client('echo')!.callTool('record', { note: 'a' }),
      'host.client(name).request': () => h.client('echo')!.request('tools/call', { name: 'record', arguments: {} }),
      'host.view(name).callTool': () => h.view('all').callTool('echo__record', { note: 'a' }),
      'host.views[i].callTool': () => h.views[0]!.callTool('echo__record', { note: 'a' }),
      'host.toolSession().callTool': () => h.toolSession().callTool('echo__record', { note: 'a' }),
      'host.forUser(p).callTool': () => h.forUser('p').callTool('echo__record', { note: 'a' }),
      'host.forUser(p).toolSession().callTool': () =>
        h.forUser('p').toolSession().callTool('echo__record', { note: 'a' }),
      'host.forUser(p).view(name).callTool': () =>
        h
          .forUser('p', { views: { mine: { servers: ['echo'] } } })
          .view('mine')
          .callTool('echo__record', { note: 'a' }),
      'hostAppLink (app frames)': () =>
        Promise.resolve(
          hostAppLink(h, 'echo').callTool('record', { note: 'a' }, { signal: new AbortController().signal }),
        ),
    };
    for (const [path, run] of Object.entries(paths)) await expect(refused(run), path).resolves.toBeUndefined();
    // Each member classified `tool` has a path above.
    const covered = new Set(['callTool', 'client', 'view', 'views', 'toolSession', 'forUser']);
    const reaching = Object.entries(HOST)
      .filter(([, reach]) => reach === 'tool')
      .map(([name]) => name);
    expect(reaching.filter((name) => !covered.has(name))).toEqual([]);
  });
});
