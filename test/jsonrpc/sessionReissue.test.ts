import { afterEach, describe, expect, it } from 'vitest';
import { JsonRpcSession } from '../../src/jsonrpc/session.js';
import { StreamableHttpTransport } from '../../src/transport/http/streamableHttp.js';
import { StreamBrokenError } from '../../src/transport/transportErrors.js';
import { systemTimers } from '../../src/util/clock.js';
import { HttpFake, sseEvent, startSse } from '../fakes/httpFake.js';

let fake: HttpFake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function sessionFor(url: string) {
  const session = new JsonRpcSession({
    transport: new StreamableHttpTransport(url, { retry: false }),
    timers: systemTimers,
    onNotification: () => {},
    onError: () => {},
  });
  await session.start();
  return session;
}
const base = { timeoutMs: 5000, maxTotalTimeoutMs: 5000, resetTimeoutOnProgress: true };

describe('session: re-issue after a broken response stream', () => {
  it('re-issues an idempotent request under a new id (progress token too) and resolves', async () => {
    let n = 0;
    fake = await HttpFake.start((req, res) => {
      n++;
      startSse(res, [
        sseEvent({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: req.json.params._meta.progressToken, progress: n },
        }),
      ]);
      if (n === 1) res.end();
      else {
        res.write(sseEvent({ jsonrpc: '2.0', id: req.json.id, result: { ok: n } }));
        res.end();
      }
    });
    const session = await sessionFor(fake.url);
    const ids: unknown[] = [];
    const progress: number[] = [];
    const result = await session.request(
      'tools/call',
      { name: 'read', _meta: {} },
      { ...base, idempotent: true, onRequestId: (id) => ids.push(id), onProgress: (p) => progress.push(p.progress) },
    );
    expect(result).toEqual({ ok: 2 });
    expect(fake.requests.map((r) => r.json.id)).toEqual([0, 1]);
    expect(fake.requests.map((r) => r.json.params._meta.progressToken)).toEqual([0, 1]);
    expect(ids).toEqual([0, 1]);
    expect(progress).toEqual([1, 2]);
    await session.close();
  });

  it('a non-idempotent call fails with StreamBrokenError (outcome unknown) after one attempt', async () => {
    fake = await HttpFake.start((_req, res) => {
      startSse(res, [': hi\n\n']);
      res.end();
    });
    const session = await sessionFor(fake.url);
    const error = await session
      .request('tools/call', { name: 'write' }, { ...base, idempotent: false })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StreamBrokenError);
    expect((error as Error).message).toContain('outcome is unknown');
    expect(fake.requests).toHaveLength(1);
    await session.close();
  });

  it('re-issues at most reissueOnBrokenStream times', async () => {
    fake = await HttpFake.start((_req, res) => {
      startSse(res);
      res.end();
    });
    const session = await sessionFor(fake.url);
    await expect(
      session.request('resources/read', { uri: 'a' }, { ...base, idempotent: true, reissueOnBrokenStream: 3 }),
    ).rejects.toBeInstanceOf(StreamBrokenError);
    expect(fake.requests.map((r) => r.json.id)).toEqual([0, 1, 2, 3]);
    await session.close();
  });
});
