/** Small helpers shared by the HTTP and WebSocket transport tests. */
import type { MessageContext, Transport, TransportCloseInfo } from '../../src/transport/transport.js';
import type { TimerHandle, Timers } from '../../src/util/clock.js';

/** What a transport handed up, in order. */
export interface Recorded {
  messages: Array<{ message: any; context: MessageContext | undefined }>;
  errors: Error[];
  closes: TransportCloseInfo[];
}

/** Starts `transport` with handlers that record everything. */
export async function startRecording(transport: Transport): Promise<Recorded> {
  const recorded: Recorded = { messages: [], errors: [], closes: [] };
  await transport.start({
    onMessage: (message, context) => recorded.messages.push({ message, context }),
    onError: (error) => recorded.errors.push(error),
    onClose: (info) => recorded.closes.push(info),
  });
  return recorded;
}

/**
 * Timers that record each requested delay (ms) and fire on the next turn of the event loop,
 * so the waits a transport runs on its `timers` (the legacy wire's SSE `retry`) can be asserted
 * without waiting for them. The waits between retries run on the global timers instead: see
 * `retryTimers.ts`.
 */
export function instantTimers(): Timers & { delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    setTimeout(callback: () => void, ms: number): TimerHandle {
      delays.push(ms);
      return setImmediate(callback);
    },
    clearTimeout(handle: TimerHandle): void {
      clearImmediate(handle as ReturnType<typeof setImmediate>);
    },
  };
}

/** A JSON-RPC request as the client sends it on the 2026-07-28 wire. */
export function request(id: number, method: string, params: Record<string, unknown> = {}): any {
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'test', version: '0.0.0' },
      },
    },
  };
}
