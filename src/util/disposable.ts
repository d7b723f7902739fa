/**
 * `Symbol.asyncDispose`, declared for projects whose TypeScript `lib` lacks it (neither
 * `esnext.disposable` nor `@types/node`), so that the package's declarations, which give the
 * client, transports, subscriptions and live lists `[Symbol.asyncDispose]()`, compile there too.
 * The same declaration as TypeScript's own lib and @types/node's; they merge. Runtimes without
 * the symbol (older browsers) leave the method unreachable and `close()` works as ever.
 */
declare global {
  interface SymbolConstructor {
    /** The method `await using` calls when its block ends (Explicit Resource Management). */
    readonly asyncDispose: unique symbol;
  }
}

/**
 * What can be closed, by `close()` or by `await using`. The client and the transports implement
 * it, which also puts the declaration above in the package's declarations.
 */
export interface Closeable {
  /** Closes; idempotent. */
  close(): Promise<void>;
  /** The same as `close()`, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}
