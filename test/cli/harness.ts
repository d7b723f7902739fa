/** Runs the `mcp-live` CLI in-process with collected output, for the tests in test/cli/. */
import { main } from '../../src/cli/main.js';
import { type CliIo } from '../../src/cli/io.js';

/** A stream stand-in that keeps what was written. */
export function collector(isTTY = false): { write(text: string): boolean; readonly isTTY: boolean; text: string } {
  return {
    isTTY,
    text: '',
    write(text: string) {
      this.text += text;
      return true;
    },
  };
}

/** Runs `mcp-live args…`; the environment is empty unless given (no NO_COLOR, FORCE_COLOR or MCP_LIVE_DEBUG). */
export async function runCli(
  args: string[],
  io: Partial<CliIo> & { stdoutTTY?: boolean; stderrTTY?: boolean } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = collector(io.stdoutTTY ?? false);
  const stderr = collector(io.stderrTTY ?? false);
  const code = await main(args, { stdout, stderr, signal: io.signal, stdin: io.stdin, env: io.env ?? {} });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** Polls until `check()` is true (the CLI's output arrives asynchronously). */
export async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
