/**
 * A short outage never costs a cool-down: an McpClient on the default reconnect policy (jitter
 * on, drawn from a seeded random) whose server is down for up to 10 s after a drop is back
 * within one backoff wait of the server's return, never after `coolDownMs`, over 200 runs with
 * varied jitter and outage lengths. Fake timers; the server is a restartable wire fake whose
 * starts are refused while it is down.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import { ConnectionClosedError } from '../../src/errors/errors.js';
import type { TransportHandlers } from '../../src/transport/transport.js';
import type { ClientEvent } from '../../src/reconnect/types.js';
import { DEFAULT_RECONNECT_POLICY, ReconnectBudget } from '../../src/reconnect/policy.js';
import { DISCOVER_RESULT } from '../fakes/scriptedServer.js';
import { RestartableFake } from '../fakes/restartable.js';
import { seededRandom as seeded } from '../fakes/seededRandom.js';

/** A server that refuses every start until `upAt` (epoch ms, on the fake clock). */
class OutageFake extends RestartableFake {
  upAt = 0;
  override async start(handlers: TransportHandlers): Promise<void> {
    if (Date.now() < this.upAt) {
      this.starts++;
      throw new ConnectionClosedError('connect ECONNREFUSED 127.0.0.1:9', { reason: 'refused' });
    }
    return super.start(handlers);
  }
}

/** The longest backoff wait the default policy can reach with the waits before it summing to at most `spanMs`. */
function longestWaitWithin(spanMs: number): number {
  const p = DEFAULT_RECONNECT_POLICY;
  let least = 0;
  let step = 1;
  // The least the waits before step n can sum to is with the lowest jitter (0.5).
  while (least + 0.5 * p.minDelayMs * p.factor ** (step - 1) <= spanMs) {
    least += 0.5 * p.minDelayMs * p.factor ** (step - 1);
    step++;
  }
  return Math.min(p.maxDelayMs, p.minDelayMs * p.factor ** (step - 1));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a short outage (reconnect.quickPhaseMs)', () => {
  it('200 runs, outages of 1 to 10 s, jitter from a seeded random: never a cool-down, back within one backoff wait', async () => {
    vi.useFakeTimers();
    const bound = longestWaitWithin(10_000);
    expect(bound).toBe(16_000);
    let latest = 0;
    for (let run = 0; run < 200; run++) {
      const random = seeded(run + 1);
      const outageMs = 1000 + Math.floor(random() * 9001);
      // Half the runs drop a connection that lived 2 s (a server that had just restarted: the
      // drop is a quick failure too), half one that lived a minute.
      const livedMs = random() < 0.5 ? 2000 : 60_000;
      const transport = new OutageFake((server) => {
        server.on('server/discover', () => ({ result: DISCOVER_RESULT }));
      });
      const client = new McpClient({
        transport,
        clientInfo: { name: 'outage-tests', version: '0.0.0' },
        reconnect: { random },
      });
      const events: ClientEvent[] = [];
      client.on((event) => events.push(event));
      await client.connect();
      await vi.advanceTimersByTimeAsync(livedMs);
      const droppedAt = Date.now();
      transport.upAt = droppedAt + outageMs;
      transport.drop();
      let elapsed = 0;
      while (client.state !== 'open' && elapsed < 400_000) {
        await vi.advanceTimersByTimeAsync(250);
        elapsed += 250;
      }
      const context = `run ${run}, seed ${run + 1}, outage ${outageMs} ms, lived ${livedMs} ms`;
      expect(client.state, context).toBe('open');
      const coolDowns = events.filter((event) => event.type === 'reconnecting' && event.coolDown);
      expect(coolDowns, context).toEqual([]);
      const reconnectedAfterReturn = droppedAt + elapsed - transport.upAt;
      latest = Math.max(latest, reconnectedAfterReturn);
      expect(reconnectedAfterReturn, context).toBeLessThanOrEqual(bound + 250);
      await client.close();
    }
    // The runs spread over the range: some come back at once, some wait most of a step.
    expect(latest).toBeGreaterThan(2000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the same outages on a count-only budget (quickPhaseMs 0) do reach the cool-down: the test can fail', () => {
    let coolDowns = 0;
    for (let run = 0; run < 200; run++) {
      const random = seeded(run + 1);
      const outageMs = 1000 + Math.floor(random() * 9001);
      const livedMs = random() < 0.5 ? 2000 : 60_000;
      const budget = new ReconnectBudget({ ...DEFAULT_RECONNECT_POLICY, quickPhaseMs: 0, random });
      let t = 100_000;
      let decision = budget.dropped(t - livedMs, t);
      const upAt = t + outageMs;
      while (decision !== undefined && !decision.coolDown) {
        t += decision.delayMs;
        budget.attemptStarted(t);
        if (t >= upAt) break;
        decision = budget.attemptFailed(t);
      }
      if (decision?.coolDown === true) coolDowns++;
    }
    expect(coolDowns).toBeGreaterThan(0);
  });
});
