import { DISCOVER_RESULT, scriptedPair } from './scriptedServer.js';

const CREATED_AT = '2026-08-01T10:00:00.000Z';

/**
 * Runs one task on real timers, so that the task machinery is loaded in this process before a
 * fake-timer test needs it: it loads on first use, on real I/O that fake time does not wait for
 * (a test that froze time and only advances it would wait for a poll timer that is set too late).
 */
export async function loadTaskMachinery(): Promise<void> {
  const task = { taskId: 'warm-up', createdAt: CREATED_AT, lastUpdatedAt: CREATED_AT, ttlMs: null, pollIntervalMs: 0 };
  const { client, server } = scriptedPair({ tasks: { push: false, poll: { minMs: 0 } } });
  server.on('server/discover', () => ({
    result: { ...DISCOVER_RESULT, capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } } },
  }));
  server.on('tools/call', () => ({ result: { resultType: 'task', status: 'working', ...task } }));
  server.on('tasks/get', () => ({
    result: { resultType: 'complete', status: 'completed', result: { content: [] }, ...task },
  }));
  try {
    await server.start();
    await client.connect();
    await client.callTool('warm-up', {});
  } finally {
    await client.close();
  }
}
