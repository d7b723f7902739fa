/**
 * Pins the public surface of the client's connection state and reconnect (issue 18, and the
 * contract McpHost reads; checked by tsc, trivially true at run time).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  DEFAULT_RECONNECT_POLICY,
  type ClientEvent,
  type ClientOptions,
  type ClientState,
  type Era,
  type McpClient,
  type ReconnectCause,
  type ReconnectOptions,
} from '../../src/index.js';

/** Never called: tsc checks the types of what it would do. */
function clientPins(client: McpClient): void {
  expectTypeOf(client.state).toEqualTypeOf<ClientState>();
  expectTypeOf<ClientState>().toEqualTypeOf<'new' | 'connecting' | 'open' | 'reconnecting' | 'closed'>();
  expectTypeOf<typeof client.on>().toEqualTypeOf<(listener: (event: ClientEvent) => void) => () => void>();
  expectTypeOf<ClientOptions['reconnect']>().toEqualTypeOf<false | ReconnectOptions | undefined>();
  expectTypeOf<ReconnectOptions['retryFirstConnect']>().toEqualTypeOf<boolean | undefined>();
}

function eventPins(event: ClientEvent): void {
  expectTypeOf(event.type).toEqualTypeOf<'state' | 'reconnecting' | 'reconnected' | 'gaveUp'>();
  expectTypeOf<Extract<ClientEvent, { type: 'state' }>>().toEqualTypeOf<{
    type: 'state';
    state: ClientState;
    previous: ClientState;
  }>();
  expectTypeOf<Extract<ClientEvent, { type: 'reconnecting' }>>().toEqualTypeOf<{
    type: 'reconnecting';
    attempt: number;
    delayMs: number;
    retryAt: number;
    coolDown: boolean;
    cause: ReconnectCause;
  }>();
  expectTypeOf<Extract<ClientEvent, { type: 'reconnected' }>>().toEqualTypeOf<{
    type: 'reconnected';
    attempt: number;
    protocolVersion: string;
    era: Era;
  }>();
  expectTypeOf<Extract<ClientEvent, { type: 'gaveUp' }>>().toEqualTypeOf<{
    type: 'gaveUp';
    attempts: number;
    cause: ReconnectCause;
  }>();
  expectTypeOf<ReconnectCause['reason']>().toEqualTypeOf<
    'process-exit' | 'websocket-close' | 'connection-lost' | 'http-session-lost' | 'connect-failed'
  >();
  expectTypeOf<ReconnectCause['closeCode']>().toEqualTypeOf<number | undefined>();
  expectTypeOf<ReconnectCause['exitCode']>().toEqualTypeOf<number | null | undefined>();
}

describe('McpClient connection types', () => {
  it('are pinned (by tsc), and the documented defaults hold', () => {
    expectTypeOf(clientPins).toBeFunction();
    expectTypeOf(eventPins).toBeFunction();
    expect(DEFAULT_RECONNECT_POLICY).toMatchObject({
      minDelayMs: 500,
      maxDelayMs: 30_000,
      factor: 2,
      jitter: true,
      quickFailureMs: 10_000,
      maxQuickRetries: 5,
      maxReconnectsPerWindow: 10,
      windowMs: 3_600_000,
      coolDownMs: 300_000,
      maxCoolDowns: 3,
      retryFirstConnect: false,
    });
  });
});
