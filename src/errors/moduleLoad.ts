/**
 * Parts of mcp-live that load on first use. A feature most programs never touch (subscriptions,
 * tasks, the 2025-11-25 wire, OAuth, telemetry…) sits behind a dynamic `import()`, so that a
 * bundler leaves it out of what a page or process loads at start: {@link onDemand} starts that
 * import once, the first time the feature is needed, and {@link ModuleLoadError} is what a
 * failed load becomes. Runtime-neutral.
 *
 * For a bundler to keep such a module out of the initial load, no module loaded at start may
 * import it statically (esbuild with code splitting places a module by which entry points reach
 * its file, whatever tree shaking keeps of it): docs/design.md, "Features on demand".
 */
import { ErrorCode } from './codes.js';
import { LocalError, McpError } from './errors.js';

/** `data` of {@link ModuleLoadError}. */
export interface ModuleLoadErrorData {
  /** The part of mcp-live that could not be loaded, e.g. `"subscriptions"`, `"tasks"`. */
  module: string;
}

/**
 * A part of mcp-live that loads on first use could not be loaded (-33042): the dynamic
 * `import()` of its chunk failed, e.g. a deployment that left a chunk of the package out, or a
 * browser page that went offline. The import's own error is the `cause`. A part needed before
 * the request fails its call with nothing sent; a part needed for the answer (a task's polling,
 * an SSE stream, a retry) fails the call that was sent. The next call tries the load again.
 */
export class ModuleLoadError extends LocalError {
  override name = 'ModuleLoadError';
  declare readonly data: ModuleLoadErrorData;

  constructor(module: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(ErrorCode.ModuleLoadFailed, `mcp-live could not load its ${module} module: ${reason}`, {
      data: { module },
      cause,
    });
  }
}

/** True when `value` is a {@link ModuleLoadError}, whichever copy of the package made it. */
export function isModuleLoadError(value: unknown): value is ModuleLoadError {
  return McpError.is(value) && value.local && value.code === ErrorCode.ModuleLoadFailed;
}

/**
 * A module loaded on first use: calling it starts `load` once and resolves with the module;
 * `value` holds it once loaded, for the synchronous paths that can do without it until then.
 */
export interface OnDemand<T> {
  (): Promise<T>;
  /** The loaded module; `undefined` until the first load resolved. */
  readonly value: T | undefined;
}

/**
 * Wraps `load` (a dynamic `import()`, usually with a `.then` picking what is needed) so that it
 * runs once. A failed load rejects with {@link ModuleLoadError} naming `module`, and is tried
 * again on the next call.
 */
export function onDemand<T>(module: string, load: () => Promise<T>): OnDemand<T> {
  let loading: Promise<T> | undefined;
  const loader = (() =>
    (loading ??= load().then(
      (value) => {
        state.value = value;
        return value;
      },
      (error: unknown) => {
        loading = undefined;
        throw new ModuleLoadError(module, error);
      },
    ))) as OnDemand<T>;
  const state = loader as { value: T | undefined };
  state.value = undefined;
  return loader;
}
