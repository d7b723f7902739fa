/**
 * A tool or prompt the catalog cannot expose: listed with the name `""` (the wire check takes
 * any string), it used to be kept, exposed as `srv__` and fail every call. The catalog leaves it
 * out with a reason and the host reports it once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/host/host.js';
import { buildCatalog } from '../../src/host/catalog/catalog.js';
import { ProtocolError } from '../../src/errors/errors.js';
import { DISCOVER_RESULT, type ScriptedServer } from '../fakes/scriptedServer.js';
import { RestartableFake } from '../fakes/restartable.js';

const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });

describe('the catalog leaves out what no call can name', () => {
  it('a tool and a prompt named "" are left out with a reason; the rest are exposed', () => {
    const catalog = buildCatalog([
      {
        server: 'srv',
        prefix: 'srv',
        tools: [tool('ok'), tool('')],
        prompts: [{ name: '' }, { name: 'hello' }],
        resources: [],
        resourceTemplates: [],
      },
    ]);
    expect(catalog.tools.map((t) => t.exposedName)).toEqual(['srv__ok']);
    expect(catalog.prompts.map((p) => p.exposedName)).toEqual(['srv__hello']);
    expect(catalog.leftOut).toEqual([
      { kind: 'tools', server: 'srv', name: '', reason: 'an empty name: no call can name it' },
      { kind: 'prompts', server: 'srv', name: '', reason: 'an empty name: no call can name it' },
    ]);
  });

  it('the host exposes the others and reports the left-out tool once, naming its server', async () => {
    const fake = new RestartableFake((server: ScriptedServer) => {
      server.on('server/discover', () => ({ result: { ...DISCOVER_RESULT, capabilities: { tools: {} } } }));
      server.on('tools/list', () => ({ result: { tools: [tool(''), tool('ok')] } }));
    });
    const reports: Array<[Error, string | undefined]> = [];
    const host = new McpHost({
      clientInfo: { name: 'left-out-tests', version: '0.0.0' },
      servers: { srv: { type: 'custom', transport: () => fake } },
      onError: (error, server) => reports.push([error, server]),
    });
    hosts.push(host);
    await host.connect();
    expect(host.tools().map((t) => t.exposedName)).toEqual(['srv__ok']);
    const leftOut = reports.filter(([error]) => error.message.includes('left out'));
    expect(leftOut).toHaveLength(1);
    expect(leftOut[0]![0]).toBeInstanceOf(ProtocolError);
    expect(leftOut[0]![0].message).toContain('empty name');
    expect(leftOut[0]![1]).toBe('srv');
  });
});
