/**
 * What the framework tests share: hosts on the example server's process (closed after each
 * test), the entry that trusts it with `update_note` marked destructive, and a restartable stdio
 * entry whose process a test can kill (`kill()` resolves once the host saw the drop).
 */
import { afterEach, expect } from 'vitest';
import { McpHost } from '../../src/host/nodeHost.js';
import type { McpHostOptions } from '../../src/host/servers/hostOptions.js';
import type { HostServerEntry } from '../../src/host/servers/config.js';
import { StdioTransport } from '../../src/transport/stdio/stdio.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';

export const example: HostServerEntry = { type: 'stdio', command: process.execPath, args: [EXAMPLE_SERVER] };

/** The example server, trusted, with the host's word that `update_note` is destructive (so a preset asks). */
export const guardedExample: HostServerEntry = {
  ...example,
  trusted: true,
  overrides: { update_note: { annotations: { destructiveHint: true } } },
};

const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** A connected host (every server open), closed after the test; `{ example }` unless `options.servers` says otherwise. */
export async function openHost(options: Partial<McpHostOptions> = {}): Promise<McpHost> {
  const host = new McpHost({
    clientInfo: { name: 'framework-tests', version: '0.0.0' },
    servers: { example },
    ...options,
  });
  hosts.push(host);
  const statuses = await host.connect();
  expect(statuses.map((s) => s.state)).toEqual(statuses.map(() => 'open'));
  return host;
}

/** A host on one example-server process that reconnects fast; `kill()` SIGKILLs the current process. */
export async function killableHost(): Promise<{ host: McpHost; kill: () => Promise<number> }> {
  let transport: StdioTransport | undefined;
  const host = await openHost({
    servers: {
      example: {
        type: 'custom',
        transport: () => (transport = new StdioTransport({ command: process.execPath, args: [EXAMPLE_SERVER] })),
        client: { reconnect: { jitter: false, minDelayMs: 20, maxDelayMs: 40 } },
      },
    },
  });
  const kill = async (): Promise<number> => {
    const pid = transport?.pid;
    if (pid === undefined) throw new Error('no server process to kill');
    const dropped = new Promise<void>((resolve) => {
      const off = host.on((event) => {
        if (event.type === 'state' && event.state === 'reconnecting') resolve(off());
      });
    });
    process.kill(pid, 'SIGKILL');
    await dropped; // the host noticed: the next call waits for the server to be back
    return pid;
  };
  return { host, kill };
}
