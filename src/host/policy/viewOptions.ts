/** What a named view of a host selects, and the check of it. */
import { InvalidArgumentError } from '../../errors/errors.js';

/**
 * Which part of the host a view shows. Both fields narrow: a tool is in the view when its server
 * is one of `servers` and its exposed name matches one of `tools`.
 */
export interface HostViewOptions {
  /** Servers whose tools, prompts, resources and templates are in the view. @default every server */
  servers?: readonly string[] | undefined;
  /**
   * Tools by exposed name; `*` matches any run of characters (`github__*`, `*__read_*`).
   * @default every tool of the view's servers
   */
  tools?: readonly string[] | undefined;
}

/**
 * @throws InvalidArgumentError (-32602) naming `views.<name>.<field>` for a malformed selection.
 */
export function checkViewOptions(name: string, options: unknown): asserts options is HostViewOptions {
  if (typeof name !== 'string' || name === '') throw new InvalidArgumentError('name', name, 'expected a view name');
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new InvalidArgumentError(`views.${name}`, options, 'expected { servers?, tools? }');
  for (const key of ['servers', 'tools'] as const) {
    const list = (options as Record<string, unknown>)[key];
    if (list !== undefined && !(Array.isArray(list) && list.every((item) => typeof item === 'string')))
      throw new InvalidArgumentError(`views.${name}.${key}`, list, 'expected an array of strings');
  }
}
