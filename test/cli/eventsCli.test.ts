/**
 * `mcp-live events list|watch` in-process against the built example server over stdio (its
 * `demo.tick` type, ticking every 100 ms here): the list, a watch that prints ticks until Ctrl-C
 * and leaves its last cursor on stderr, a second watch started after that cursor, usage errors.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { EXAMPLE_SERVER } from '../integration/exampleServer.js';
import { collector, runCli, until } from './harness.js';

const STDIO = ['-e', 'EXAMPLE_EVENT_TICK_MS=100', '--', process.execPath, EXAMPLE_SERVER];

/** Runs `events watch` until `ticks` lines were printed, then interrupts it. */
async function watch(extra: string[], ticks: number): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = collector();
  const stderr = collector();
  const abort = new AbortController();
  const running = main(['events', 'watch', 'demo.tick', ...extra, '--json', ...STDIO], {
    stdout,
    stderr,
    signal: abort.signal,
    env: {},
  });
  await until(
    () => stdout.text.split('\n').filter((l) => l.includes('"occurrence"')).length >= ticks,
    `${ticks} ticks`,
  );
  abort.abort();
  return { code: await running, stdout: stdout.text, stderr: stderr.text };
}

describe('mcp-live events', () => {
  it('lists the event types with their delivery modes', async () => {
    const { code, stdout } = await runCli(['events', 'list', ...STDIO]);
    expect(code).toBe(0);
    expect(stdout).toContain('demo.tick  [poll, push, webhook]');
  });

  it('watches until Ctrl-C, prints the last cursor, and a later watch goes on after it', async () => {
    const first = await watch([], 2);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('watching demo.tick (push)');
    const cursor = /last cursor: (\S+)/.exec(first.stderr)?.[1];
    expect(cursor).toMatch(/^[0-9a-f]+:\d+$/);
    const ticks = first.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; occurrence?: { data: { n: number } } })
      .filter((m) => m.type === 'occurrence')
      .map((m) => m.occurrence!.data.n);
    expect(ticks.slice(0, 2)).toEqual([ticks[0], ticks[0]! + 1]);
    // Another process (a new server: another epoch): the cursor is not its own, so a gap is printed.
    const second = await watch(['--cursor', cursor!], 1);
    expect(second.stdout.split('\n')[0]).toContain('"truncated"');
  }, 20_000);

  it('refuses --cursor outside events watch, and events with --config', async () => {
    expect((await runCli(['events', 'list', '--cursor', 'x', ...STDIO])).code).toBe(2);
    expect((await runCli(['events', 'watch', 'demo.tick', '--config', 'x.json'])).code).toBe(2);
    expect((await runCli(['events', 'nope', ...STDIO])).code).toBe(2);
  });
});
