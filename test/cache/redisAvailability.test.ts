/**
 * When a fleet store reports Redis away (src/cache/redis/availability.ts), on fake timers and a
 * scripted probe: one report per outage, a probe that saw a failure does not end the outage, and a
 * first connection still being opened is a slow start, not an outage.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Availability, START_GRACE_MS } from '../../src/cache/redis/availability.js';
import { systemTimers } from '../../src/util/clock.js';

const RETRY_MS = 100;

/** An Availability whose probe answers what the test scripts, recording reports and probes. */
function scripted(initiallyUp: boolean) {
  const reports: unknown[] = [];
  const client = { connecting: true };
  let answer: () => Promise<void> = () => Promise.reject(new Error("Stream isn't writeable"));
  const probes = { count: 0 };
  const availability = new Availability(
    initiallyUp,
    systemTimers,
    RETRY_MS,
    () => {
      probes.count++;
      return answer();
    },
    (error) => reports.push(error),
    () => {},
    () => client.connecting,
    () => Date.now(),
  );
  return {
    availability,
    reports,
    client,
    probes,
    answer(next: () => Promise<void>) {
      answer = next;
    },
  };
}

/** A promise the test settles. */
function pending() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('Availability', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a probe failing while the first connection is still opening is a slow start: not reported', async () => {
    const s = scripted(false);
    // The loop was late: the probe timer fires before the connection is ready.
    await vi.advanceTimersByTimeAsync(RETRY_MS * 3);
    expect(s.probes.count).toBe(3);
    expect(s.availability.state).toBe('starting');
    expect(s.reports).toEqual([]);

    s.client.connecting = false;
    s.answer(() => Promise.resolve());
    s.availability.ready();
    await s.availability.whenUp();
    expect(s.reports).toEqual([]);

    // The first real outage after it is reported, once.
    s.answer(() => Promise.reject(new Error('down')));
    s.availability.failed(new Error('GET failed'));
    s.availability.failed(new Error('GET failed again'));
    await vi.advanceTimersByTimeAsync(RETRY_MS * 5);
    expect(s.availability.state).toBe('down');
    expect(s.reports).toEqual([new Error('GET failed')]);
  });

  it('a start whose connection attempt failed is an outage: reported once', async () => {
    const s = scripted(false);
    s.client.connecting = false; // reconnecting: an attempt failed
    await vi.advanceTimersByTimeAsync(RETRY_MS * 5);
    expect(s.probes.count).toBe(5);
    expect(s.availability.state).toBe('down');
    expect(s.reports).toEqual([new Error("Stream isn't writeable")]);
  });

  it('a first connection still opening after the grace is an outage: reported once', async () => {
    const s = scripted(false);
    await vi.advanceTimersByTimeAsync(START_GRACE_MS - RETRY_MS);
    expect(s.reports).toEqual([]);
    await vi.advanceTimersByTimeAsync(RETRY_MS * 5);
    expect(s.availability.state).toBe('down');
    expect(s.reports).toHaveLength(1);
  });

  it('the grace is time since the start, not a count of probes: probes that take timeoutMs each do not stretch it', async () => {
    const s = scripted(false);
    // Each probe's PING waits as long as the pause between probes before it fails.
    s.answer(() => new Promise((_, reject) => setTimeout(() => reject(new Error('PING: no answer')), RETRY_MS)));
    await vi.advanceTimersByTimeAsync(START_GRACE_MS - 4 * RETRY_MS);
    expect(s.reports).toEqual([]);
    await vi.advanceTimersByTimeAsync(6 * RETRY_MS);
    expect(s.availability.state).toBe('down');
    expect(s.reports).toEqual([new Error('PING: no answer')]);
  });

  it('a failure seen while a probe runs keeps the store down: one report for the outage', async () => {
    const s = scripted(true);
    s.availability.failed(new Error('GET: no answer within 200 ms'));
    expect(s.availability.state).toBe('down');

    // The probe's PING is in flight when an operation sent before the outage times out.
    const ping = pending();
    s.answer(() => ping.promise);
    await vi.advanceTimersByTimeAsync(RETRY_MS);
    expect(s.availability.state).toBe('recovering');
    s.availability.failed(new Error('SET: no answer within 200 ms'));
    ping.resolve();
    await vi.advanceTimersByTimeAsync(0);
    expect(s.availability.state).toBe('down');

    // Only a probe that sees no failure ends the outage.
    s.answer(() => Promise.resolve());
    await vi.advanceTimersByTimeAsync(RETRY_MS);
    expect(s.availability.state).toBe('up');
    expect(s.reports).toEqual([new Error('GET: no answer within 200 ms')]);
  });

  it('a failure at start while the first probe runs is reported once, and that probe does not end it', async () => {
    const s = scripted(false);
    const ping = pending();
    s.answer(() => ping.promise);
    await vi.advanceTimersByTimeAsync(RETRY_MS);
    s.availability.failed(new Error('connect ECONNREFUSED'));
    ping.reject(new Error("Stream isn't writeable"));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.availability.state).toBe('down');
    expect(s.reports).toEqual([new Error('connect ECONNREFUSED')]);
  });

  it('a new outage after a clean recovery is reported again', async () => {
    const s = scripted(true);
    s.answer(() => Promise.resolve());
    s.availability.failed(new Error('first'));
    await vi.advanceTimersByTimeAsync(RETRY_MS);
    expect(s.availability.state).toBe('up');
    s.availability.failed(new Error('second'));
    expect(s.reports).toEqual([new Error('first'), new Error('second')]);
  });
});
