/** A value, or a promise of it: for hooks and stores that may answer synchronously or not. */
export type MaybePromise<T> = T | Promise<T>;

/** Whether a `MaybePromise` is the promise form (any thenable counts). */
export const isPromise = <T>(value: MaybePromise<T>): value is Promise<T> =>
  typeof (value as { then?: unknown } | null | undefined)?.then === 'function';

/** `fn` applied to `value` at once when it is a value, or once it resolves: no reaction spent on a value. */
export const thenMaybe = <T, U>(value: MaybePromise<T>, fn: (value: T) => U): MaybePromise<U> =>
  isPromise(value) ? value.then(fn) : fn(value);
