/**
 * The host's completers: one debounced, caching `Completer` (src/completion/) per prompt or
 * resource template of each server, made on first use and reached through the host's
 * routing, so completion as the user types behaves as `client.completer()` does.
 */
import { createCompleter, type CompleterOptions } from '../../completion/completer.js';
import { type Completer } from '../../completion/types.js';
import type { JsonObject } from '../../wire/messages.js';
import type {
  CompleteResult,
  PromptReference,
  ResourceTemplateReference,
  ServerCapabilities,
} from '../../wire/protocol.js';
import type { Clock, Timers } from '../../util/clock.js';

/** What the pool needs of the host. */
export interface CompleterPoolDeps {
  /** `host.complete(ref, argument, context, { server, signal, timeoutMs })`. */
  complete(
    server: string,
    ref: PromptReference | ResourceTemplateReference,
    argument: { name: string; value: string },
    context: { arguments: Record<string, string> } | undefined,
    options: { signal: AbortSignal; timeoutMs?: number | undefined },
  ): Promise<CompleteResult>;
  capabilities(server: string): ServerCapabilities | undefined;
  onError(error: Error, server: string): void;
  clock: Clock;
  timers: Timers;
}

/** The most completers kept; the least recently used goes first. */
const MAX_COMPLETERS = 500;

/** @internal */
export class CompleterPool {
  private readonly completers = new Map<string, Completer>();

  constructor(
    private readonly deps: CompleterPoolDeps,
    private readonly options: CompleterOptions = {},
  ) {}

  /** The completer of `ref` on `server`. */
  get(server: string, ref: PromptReference | ResourceTemplateReference): Completer {
    const key = JSON.stringify([server, ref.type, ref.type === 'ref/prompt' ? ref.name : ref.uri]);
    const found = this.completers.get(key);
    if (found !== undefined) {
      this.completers.delete(key);
      this.completers.set(key, found);
      return found;
    }
    const made = createCompleter(
      {
        capabilities: () => this.deps.capabilities(server),
        send: async (params: JsonObject, signal, timeoutMs) => {
          const context = params['context'] as { arguments: Record<string, string> } | undefined;
          const result = await this.deps.complete(
            server,
            params['ref'] as PromptReference | ResourceTemplateReference,
            params['argument'] as { name: string; value: string },
            context,
            { signal, ...(timeoutMs !== undefined && { timeoutMs }) },
          );
          return result;
        },
        onError: (error) => this.deps.onError(error, server),
        clock: this.deps.clock,
        timers: this.deps.timers,
      },
      ref,
      this.options,
    );
    this.completers.set(key, made);
    while (this.completers.size > MAX_COMPLETERS) {
      const [oldest, completer] = this.completers.entries().next().value as [string, Completer];
      completer.close();
      this.completers.delete(oldest);
    }
    return made;
  }

  /** Closes every completer (pending calls resolve `superseded`). */
  close(): void {
    for (const completer of this.completers.values()) completer.close();
    this.completers.clear();
  }
}
