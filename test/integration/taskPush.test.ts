/**
 * Push for tasks against the example server over Streamable HTTP (a child process): the client
 * follows a task on `notifications/tasks` from a `subscriptions/listen` with `taskIds`, and
 * polls `tasks/get` once that stream is cut and cannot be opened again. The client's fetch is
 * wrapped to count the `tasks/get` requests and the notifications on the wire, and to cut the
 * listen streams as a network would.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import type { FetchLike } from '../../src/transport/http/stack.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import type { HttpServerProcess } from '../../examples/httpServerProcess.js';
import { startExampleHttpServer } from './exampleServer.js';
import { loadTaskMachinery } from '../fakes/taskMachinery.js';

/** A fetch that counts what the test needs and can cut the listen streams. */
function wire() {
  const seen = { gets: 0, pushes: 0, listens: 0 };
  let down = false;
  const open = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const fetchImpl: FetchLike = async (url, init) => {
    const message = typeof init.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined;
    if (message?.method === 'tasks/get') seen.gets++;
    const listen = message?.method === 'subscriptions/listen';
    if (listen && down) throw new TypeError('fetch failed: the network is down for listen streams');
    const response = await fetch(url, init);
    if (!listen || response.body === null) return response;
    seen.listens++;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let mine: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        mine = controller;
        open.add(controller);
      },
      async pull(controller) {
        const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (!open.has(controller)) return;
        if (chunk.done) {
          open.delete(controller);
          controller.close();
          return;
        }
        seen.pushes += decoder.decode(chunk.value).split('"method":"notifications/tasks"').length - 1;
        controller.enqueue(chunk.value);
      },
      cancel(reason) {
        if (mine !== undefined) open.delete(mine);
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return {
    seen,
    fetchImpl,
    /** Cuts every open listen stream (a connection reset), and refuses new ones from now on. */
    cut: () => {
      down = true;
      for (const controller of open) controller.error(new TypeError('terminated: connection reset'));
      open.clear();
    },
  };
}

describe('push for tasks against the example server (Streamable HTTP)', () => {
  let server: HttpServerProcess | undefined;
  beforeAll(async () => {
    server = await startExampleHttpServer();
    // Loaded before the first task, so that its first-use load (here a transform of the source)
    // does not eat into the 100 ms steps these tests count pushes and polls in.
    await loadTaskMachinery();
  });
  afterAll(() => server?.stop());

  function clientOn(
    fetchImpl: FetchLike,
    form = vi.fn(async () => ({ action: 'accept', content: { approve: true } })),
  ) {
    return new McpClient({
      transport: new StreamableHttpTransport(server!.url, { fetch: fetchImpl }),
      clientInfo: { name: 'mcp-live-tests', version: '0.0.0' },
      tasks: { poll: { minMs: 10 } },
      handlers: { elicitation: { form: form as never } },
    });
  }

  it('the task is followed on notifications/tasks: each state pushed, hardly a tasks/get', async () => {
    const { seen, fetchImpl } = wire();
    const client = clientOn(fetchImpl);
    await client.connect();
    try {
      const states: string[] = [];
      const result = await client.callTool(
        'generate_report',
        { topic: 'pushed', steps: 6, stepMs: 100 },
        { onTask: (task) => states.push(task.status) },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'Report on "pushed": 6 sections written and approved.' }]);
      expect(states.at(-1)).toBe('completed');
      expect(states).toContain('input_required');
      expect(seen.listens).toBe(1);
      // Every change after the listen was acknowledged came as a push: at least the five
      // working/input_required/completed changes of six steps.
      expect(seen.pushes).toBeGreaterThanOrEqual(5);
      // Polling (100 ms, the server's pollIntervalMs) would have sent one per step and more;
      // push leaves the look after the acknowledgement and at most one poll while it was awaited.
      expect(seen.gets).toBeLessThanOrEqual(2);
    } finally {
      await client.close();
    }
  });

  it('the listen stream cut mid-task and not coming back: polling takes over to the end', async () => {
    const { seen, fetchImpl, cut } = wire();
    const client = clientOn(fetchImpl);
    await client.connect();
    try {
      let atCut: { gets: number; pushes: number } | undefined;
      const states: string[] = [];
      const result = await client.callTool(
        'generate_report',
        { topic: 'cut', steps: 8, stepMs: 100 },
        {
          onTask: (task) => {
            states.push(task.status);
            if (task.status === 'input_required' && atCut === undefined) {
              atCut = { gets: seen.gets, pushes: seen.pushes };
              cut();
            }
          },
        },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'Report on "cut": 8 sections written and approved.' }]);
      expect(atCut).toBeDefined();
      // Pushed until the cut…
      expect(atCut!.pushes).toBeGreaterThanOrEqual(3);
      // …polled after it: four more steps at 100 ms, nothing pushed.
      expect(seen.pushes).toBe(atCut!.pushes);
      expect(seen.gets - atCut!.gets).toBeGreaterThanOrEqual(3);
      expect(states.at(-1)).toBe('completed');
    } finally {
      await client.close();
    }
  });
});
