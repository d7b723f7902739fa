/**
 * Two users in one host process, on two real HTTP servers: `mail` needs each user's own token
 * (a client and connection per user), `notes` needs none (the host's one client, shared). No
 * private result, artifact, approval or token may cross users; each assertion below fails if a
 * scope's call went through the other user's client or cache partition.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpHost, type HostScope } from '../../../src/host/host.js';
import type { ApproveHook, ToolCallApproval } from '../../../src/host/policy/approval.js';
import { ToolApprovalDeniedError } from '../../../src/host/policy/errors.js';
import { HostRoutingError } from '../../../src/host/catalog/errors.js';
import { ConnectionClosedError, InvalidArgumentError } from '../../../src/errors/errors.js';
import { startFleetServers, type FleetServers } from './fleetServers.js';

const TOKENS = { 'tok-alice': 'alice', 'tok-bob': 'bob' };

function textOf(result: { content?: unknown } | { contents?: unknown }): string {
  const items = ('content' in result ? result.content : (result as { contents: unknown }).contents) as Array<{
    text: string;
  }>;
  return items.map((item) => item.text).join('');
}

describe('per-user scopes in one host', () => {
  let servers: FleetServers;
  let host: McpHost;
  let alice: HostScope;
  let bob: HostScope;
  const asked: Array<{ by: string; call: ToolCallApproval }> = [];
  const hostApprove: ApproveHook = (call) => {
    asked.push({ by: 'host', call });
    return 'deny';
  };

  beforeEach(async () => {
    asked.length = 0;
    servers = await startFleetServers(TOKENS);
    host = new McpHost({
      clientInfo: { name: 'fleet-test', version: '0.0.0' },
      servers: {
        mail: { type: 'http', url: servers.mail.url, perUser: true, client: { reconnect: false } },
        notes: { type: 'http', url: servers.notes.url, client: { reconnect: false } },
      },
      approve: hostApprove,
      contextBudget: { maxResultTokens: 200 },
    });
    await host.connect();
    alice = host.forUser('alice', {
      credentials: { mail: { headers: { Authorization: 'Bearer tok-alice' } } },
      approve: (call) => {
        asked.push({ by: 'alice', call });
        return 'allow';
      },
    });
    bob = host.forUser('bob', {
      credentials: { mail: { authProvider: () => 'Bearer tok-bob' } },
      approve: (call) => {
        asked.push({ by: 'bob', call });
        return call.name === 'delete_note' ? { deny: 'bob may not delete', by: 'user' } : 'allow';
      },
    });
    await Promise.all([alice.connect(), bob.connect()]);
  });

  afterEach(async () => {
    await host.close();
    await servers.close();
  });

  it("connects a per-user server once per user, with that user's token only; the host never connects it", async () => {
    expect(host.server('mail')?.state).toBe('new');
    expect(alice.server('mail')?.state).toBe('open');
    expect(bob.server('mail')?.state).toBe('open');
    // Every request mail received carried a known user's token: none went out without one.
    expect(servers.mailRequests.every((r) => r.user !== undefined)).toBe(true);
    expect(alice.tools().map((t) => t.exposedName)).toEqual(['mail__whoami', 'notes__big', 'notes__delete_note']);
    expect(host.tools().map((t) => t.exposedName)).toEqual(['notes__big', 'notes__delete_note']);

    const a = await alice.callTool('mail__whoami', {});
    const b = await bob.callTool('mail__whoami', {});
    expect(textOf(a)).toBe('you are alice; secret-of-alice');
    expect(textOf(b)).toBe('you are bob; secret-of-bob');
    const calls = servers.mailRequests.filter((r) => r.method === 'tools/call');
    expect(calls.map((r) => r.user)).toEqual(['alice', 'bob']);

    // Each user's own client; the shared server's client is the host's, not handed out.
    expect(alice.client('mail')).toBeDefined();
    expect(alice.client('mail')).not.toBe(bob.client('mail'));
    expect(alice.client('notes')).toBeUndefined();
    expect(host.client('notes')).toBeDefined();
    // The host cannot reach a per-user server: it has no credentials for it.
    await expect(host.callTool({ server: 'mail', name: 'whoami' }, {})).rejects.toBeInstanceOf(HostRoutingError);
  });

  it("keeps each user's private results apart on the shared server; public ones are shared", async () => {
    expect(textOf(await alice.readResource('notes://private'))).toBe('notes://private read #1');
    // Bob's read is not served from alice's private entry: notes serves it again.
    expect(textOf(await bob.readResource('notes://private'))).toBe('notes://private read #2');
    // Each user's next read is their own cached entry (the server is not asked again).
    expect(textOf(await alice.readResource('notes://private'))).toBe('notes://private read #1');
    expect(textOf(await bob.readResource('notes://private'))).toBe('notes://private read #2');
    // The host's own reads are a partition of their own.
    expect(textOf(await host.readResource('notes://private'))).toBe('notes://private read #3');
    expect(servers.notesServed.get('notes://private')).toBe(3);

    // Public: one entry for everyone, on the one connection.
    expect(textOf(await alice.readResource('notes://public'))).toBe('notes://public read #1');
    expect(textOf(await bob.readResource('notes://public'))).toBe('notes://public read #1');
    expect(textOf(await host.readResource('notes://public'))).toBe('notes://public read #1');
    expect(servers.notesServed.get('notes://public')).toBe(1);

    // The per-user server's private read, through each user's own client.
    expect(textOf(await alice.readResource('mail://inbox'))).toBe('inbox of alice');
    expect(textOf(await bob.readResource('mail://inbox'))).toBe('inbox of bob');
  });

  it('keeps partitions apart when both users read at once, interleaved', async () => {
    const reads = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? alice : bob).readResource('notes://private'));
    const texts = (await Promise.all(reads)).map(textOf);
    const aliceTexts = new Set(texts.filter((_, i) => i % 2 === 0));
    const bobTexts = new Set(texts.filter((_, i) => i % 2 === 1));
    expect(aliceTexts.size).toBe(1);
    expect(bobTexts.size).toBe(1);
    expect([...aliceTexts][0]).not.toBe([...bobTexts][0]);
    // One load per user: in-flight reads are shared within a partition, never across.
    expect(servers.notesServed.get('notes://private')).toBe(2);
  });

  it("asks each user's own approval, on the shared server too; the host's is not asked", async () => {
    expect(textOf(await alice.callTool('notes__delete_note', { id: 'n1' }))).toBe('deleted n1 (#1)');
    const denied = await bob.callTool('notes__delete_note', { id: 'n2' }).catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(ToolApprovalDeniedError);
    expect((denied as ToolApprovalDeniedError).data).toMatchObject({ reason: 'denied', deniedBy: 'user' });
    // Bob's call never reached the server; each hook saw only its user's call.
    expect(servers.notesServed.get('tool:delete_note')).toBe(1);
    expect(asked.map((a) => [a.by, a.call.name, a.call.arguments])).toEqual([
      ['alice', 'delete_note', { id: 'n1' }],
      ['bob', 'delete_note', { id: 'n2' }],
    ]);
    // Through a tool session and a view as well: the same user's gate.
    await bob
      .toolSession()
      .callTool('notes__delete_note', { id: 'n3' })
      .catch(() => undefined);
    await alice.view('all', { servers: ['notes'] }).callTool('notes__delete_note', { id: 'n4' });
    expect(asked.slice(2).map((a) => [a.by, a.call.arguments])).toEqual([
      ['bob', { id: 'n3' }],
      ['alice', { id: 'n4' }],
    ]);
    // The host's own call still asks the host's hook.
    await expect(host.callTool('notes__delete_note', { id: 'n5' })).rejects.toBeInstanceOf(ToolApprovalDeniedError);
    expect(asked.at(-1)?.by).toBe('host');
  });

  it("keeps artifacts per user: one user's artifact cannot be read by the other", async () => {
    const cut = await alice.toolSession().callTool('notes__big', { tag: 'alice-private' });
    expect(cut.truncated).toBe(true);
    const id = cut.artifact!.id;
    expect(alice.artifacts.get(id)?.text.startsWith('alice-private:')).toBe(true);
    expect(bob.artifacts.get(id)).toBeUndefined();
    expect(host.artifacts.size).toBe(0);
    const page = await bob.toolSession().callTool('read_artifact', { id, offset: 0 });
    expect(JSON.stringify(page.result)).not.toContain('alice-private');
    expect(page.result.isError).toBe(true);
    const own = await alice.toolSession().callTool('read_artifact', { id, offset: 0 });
    expect(JSON.stringify(own.result)).toContain('alice-private');
  });

  it("closing a scope closes that user's own connection only; a closed scope answers nothing", async () => {
    const aliceMail = alice.client('mail')!;
    await alice.close();
    expect(aliceMail.state).toBe('closed');
    expect(host.server('notes')?.state).toBe('open');
    expect(textOf(await bob.callTool('mail__whoami', {}))).toBe('you are bob; secret-of-bob');
    expect(textOf(await bob.readResource('notes://public'))).toBe('notes://public read #1');
    await expect(alice.callTool('notes__big', { tag: 'x' })).rejects.toBeInstanceOf(ConnectionClosedError);
    const bobMail = bob.client('mail')!;
    await host.close();
    expect(bobMail.state).toBe('closed');
  });

  it("keeps a user's private entries apart per credential: the user's own token and a service token on one URL", async () => {
    // `org` reaches mail with the app's service account (here bob's token); `mine` with alice's own.
    const twoCredentials = new McpHost({
      clientInfo: { name: 'fleet-test', version: '0.0.0' },
      servers: {
        mine: { type: 'http', url: servers.mail.url, perUser: true, client: { reconnect: false } },
        org: {
          type: 'http',
          url: servers.mail.url,
          headers: { Authorization: 'Bearer tok-bob' },
          client: { reconnect: false },
        },
      },
    });
    try {
      await twoCredentials.connect();
      const user = twoCredentials.forUser('alice', {
        credentials: { mine: { headers: { Authorization: 'Bearer tok-alice' } } },
      });
      await user.connect();
      expect(textOf(await user.readResource('mail://inbox', { server: 'org' }))).toBe('inbox of bob');
      expect(textOf(await user.readResource('mail://inbox', { server: 'mine' }))).toBe('inbox of alice');
      // Both were asked of the server, each with its own token: no entry was served across credentials.
      const reads = servers.mailRequests.filter((r) => r.method === 'resources/read').map((r) => r.user);
      expect(reads).toEqual(['bob', 'alice']);
    } finally {
      await twoCredentials.close();
    }
  });

  it('a call waiting for approval ends when its scope closes, and when the host closes: nothing is sent', async () => {
    const waiting: AbortSignal[] = [];
    const pending: ApproveHook = (_call, { signal }) => {
      waiting.push(signal);
      return new Promise(() => {}); // a person who never answers
    };
    const carol = host.forUser('carol', { approve: pending });
    const dave = host.forUser('dave', { approve: pending });
    await Promise.all([carol.connect(), dave.connect()]);
    const carolCall = carol.callTool('notes__delete_note', { id: 'c1' }).catch((error: unknown) => error);
    const daveCall = dave.callTool('notes__delete_note', { id: 'd1' }).catch((error: unknown) => error);
    await expect.poll(() => waiting.length).toBe(2);

    await carol.close();
    const carolError = await carolCall;
    expect(carolError).toBeInstanceOf(ConnectionClosedError);
    expect((carolError as ConnectionClosedError).data.reason).toBe('host closed');
    expect(waiting.map((signal) => signal.aborted)).toEqual([true, false]); // dave still waits

    await host.close();
    const daveError = await daveCall;
    expect(daveError).toBeInstanceOf(ConnectionClosedError);
    expect((daveError as ConnectionClosedError).data.reason).toBe('host closed');
    expect(waiting[1]!.aborted).toBe(true);
    expect(servers.notesServed.get('tool:delete_note')).toBeUndefined();
  });

  it('refuses a bad principal, unknown credentials, and scopes of scopes', () => {
    expect(() => host.forUser('')).toThrow(InvalidArgumentError);
    expect(() => host.forUser('carol', { credentials: { nope: { headers: {} } } })).toThrow(InvalidArgumentError);
    expect(() => host.forUser('carol', { credentials: { notes: { env: { A: 'b' } } } })).toThrow(InvalidArgumentError);
    expect(() => (alice as McpHost).forUser('carol')).toThrow(InvalidArgumentError);
    expect(() => (alice as McpHost).use((_ctx, next) => next())).toThrow(InvalidArgumentError);
  });
});
