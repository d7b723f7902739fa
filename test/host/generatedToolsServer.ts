/**
 * A server with many generated tools (the context budget tests): `count` tools named
 * `<topic>_<verb>_<n>`, each with a description and two described parameters, plus `dump`,
 * which answers with `bytes` characters of numbered lines (a result far over any budget).
 * Served in this process by the official server SDK over a linked in-memory pair.
 */
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage, Transport as SdkTransport } from '@modelcontextprotocol/server';
import * as z from 'zod';
import type { JsonRpcMessage } from '../../src/wire/messages.js';
import { InMemoryTransport } from '../../src/transport/memory.js';
import type { CustomServerLocation } from '../../src/host/servers/config.js';

const VERBS = ['create', 'list', 'update', 'delete', 'archive', 'export', 'import', 'search', 'merge', 'sync'];

/** The numbered-lines text `dump` answers with: exactly `bytes` ASCII characters. */
export function dumpText(bytes: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const line = `line ${String(i).padStart(7, '0')}: ${'x'.repeat(40)}\n`;
    lines.push(line);
    length += line.length;
  }
  return lines.join('').slice(0, bytes);
}

/** A location serving `count` generated tools about `topic`. */
export function generatedToolsServer(
  topic: string,
  count: number,
  options: { bytes?: number; instructions?: string } = {},
): { location: CustomServerLocation; calls: string[] } {
  const calls: string[] = [];
  const factory = (): McpServer => {
    const server = new McpServer(
      { name: `gen-${topic}`, version: '1.0.0' },
      {
        capabilities: { tools: { listChanged: true } },
        ...(options.instructions && { instructions: options.instructions }),
      },
    );
    for (let i = 0; i < count; i++) {
      const verb = VERBS[i % VERBS.length] as string;
      const name = `${topic}_${verb}_${i}`;
      server.registerTool(
        name,
        {
          description: `${verb[0]?.toUpperCase()}${verb.slice(1)}s ${topic} record number ${i} in the ${topic} system.`,
          inputSchema: z.object({
            id: z.string().describe(`The ${topic} record id`),
            note: z.string().optional().describe('A free-text note kept with the change'),
          }),
        },
        async ({ id }) => {
          calls.push(name);
          return { content: [{ type: 'text', text: `${name} done for ${id}` }] };
        },
      );
    }
    server.registerTool(
      `${topic}_dump`,
      { description: `Dumps the whole ${topic} database as text lines.`, inputSchema: z.object({}) },
      async () => {
        calls.push(`${topic}_dump`);
        return { content: [{ type: 'text', text: dumpText(options.bytes ?? 2_000_000) }] };
      },
    );
    return server;
  };
  const transport = (): InMemoryTransport => {
    const [clientEnd, end] = InMemoryTransport.createLinkedPair(`memory:gen-${topic}-${crypto.randomUUID()}`);
    const adapter: SdkTransport = {
      async start() {
        await end.start({
          onMessage: (message) => adapter.onmessage?.(message as JSONRPCMessage),
          onError: (error) => adapter.onerror?.(error),
          onClose: () => adapter.onclose?.(),
        });
      },
      send: (message) => end.send(message as JsonRpcMessage),
      close: () => end.close(),
    };
    serveStdio(() => factory(), { transport: adapter });
    return clientEnd;
  };
  return { location: { type: 'custom', transport }, calls };
}

/** A `lazy: true` entry for {@link generatedToolsServer}, counting the connections made to it. */
export function lazyGeneratedServer(
  topic: string,
  count: number,
): { entry: CustomServerLocation & { lazy: true }; readonly connections: number } {
  const server = generatedToolsServer(topic, count);
  let connections = 0;
  return {
    entry: {
      type: 'custom',
      transport: () => {
        connections++;
        return server.location.transport();
      },
      lazy: true,
    },
    get connections() {
      return connections;
    },
  };
}
