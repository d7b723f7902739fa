/**
 * Declaring and detecting the Tasks extension (spec: ext-tasks, Capability Negotiation): the
 * client declares `extensions["io.modelcontextprotocol/tasks"]: {}` in a request's
 * `clientCapabilities`, only on requests that need it, and only when the server listed the
 * same key in its `server/discover` capabilities.
 */
import { isObject } from './messages.js';
import type { ClientCapabilities, ServerCapabilities } from './protocol.js';
import { TASKS_EXTENSION } from './tasks.js';

/** A copy of `capabilities` that also declares the Tasks extension (other extensions kept). */
export function withTasksExtension(capabilities: ClientCapabilities): ClientCapabilities {
  return { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } };
}

/** True when the server's capabilities list the Tasks extension (`extensions["io.modelcontextprotocol/tasks"]` is an object). */
export function serverOffersTasks(capabilities: ServerCapabilities | undefined): boolean {
  const extensions = capabilities?.extensions;
  return isObject(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION) && isObject(extensions[TASKS_EXTENSION]);
}
