/**
 * The CLI's view of its process: output streams, an interrupt signal, stdin for questions.
 * `main()` takes these injected, so tests run the CLI in-process.
 */

/** Where the CLI writes: `process.stdout`/`process.stderr`, or a test's collector. */
export interface OutStream {
  write(text: string): unknown;
  /** A terminal: colours, and (on stderr) the progress indicator. */
  readonly isTTY?: boolean | undefined;
}

export interface CliIo {
  stdout: OutStream;
  stderr: OutStream;
  /** Aborts the command (Ctrl-C): `watch` stops and exits 0; any other command exits 130. */
  signal?: AbortSignal | undefined;
  /** The environment (`NO_COLOR`, `FORCE_COLOR`, `MCP_LIVE_DEBUG`). @default process.env */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Where elicitation questions are answered; without a terminal here, they are declined. */
  stdin?: (NodeJS.ReadableStream & { readonly isTTY?: boolean | undefined }) | undefined;
}

/** A one-line spinner on stderr for long page walks, drawn only when stderr is a terminal. */
export class ProgressLine {
  private static readonly FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  private frame = 0;
  private text = '';
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly enabled: boolean;

  constructor(private readonly stream: OutStream) {
    this.enabled = stream.isTTY === true;
  }

  /** Shows (or replaces) the line's text and starts the spinner. */
  update(text: string): void {
    if (!this.enabled) return;
    this.text = text;
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.draw(), 80);
      this.timer.unref?.();
    }
    this.draw();
  }

  /** Erases the line and stops the spinner. */
  clear(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    if (this.enabled && this.text !== '') this.stream.write('\r\x1b[2K');
    this.text = '';
  }

  private draw(): void {
    const frames = ProgressLine.FRAMES;
    this.frame = (this.frame + 1) % frames.length;
    this.stream.write(`\r\x1b[2K${frames[this.frame]} ${this.text}`);
  }
}
