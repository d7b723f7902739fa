/**
 * Pure operations on `SubscriptionFilter` (spec: basic/patterns/subscriptions, "Notification
 * Filter"): checking what a host passes, narrowing it to what the server's capabilities can
 * deliver, reading an acknowledgment, and the difference between two filters.
 *
 * A normalized filter holds only `true` flags and non-empty, duplicate-free
 * `resourceSubscriptions` and `taskIds` (Tasks extension); absent means "not asked for".
 */
import { InvalidArgumentError } from '../errors/errors.js';
import { isObject } from '../wire/messages.js';
import type { ServerCapabilities, SubscriptionFilter } from '../wire/protocol.js';
import { serverOffersTasks } from '../wire/taskCapability.js';

/** The three boolean flags of a filter. */
export const FILTER_FLAGS = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const;
/** One of {@link FILTER_FLAGS}. */
export type FilterFlag = (typeof FILTER_FLAGS)[number];

/**
 * Checks a host's filter and returns its normalized copy.
 * @throws InvalidArgumentError (-32602) when `filter` is not an object, a flag is not a
 *   boolean, `resourceSubscriptions` or `taskIds` is not an array of non-empty strings, or the
 *   filter asks for nothing at all.
 */
export function checkFilter(filter: unknown): SubscriptionFilter {
  if (!isObject(filter)) throw new InvalidArgumentError('filter', filter, 'expected a SubscriptionFilter object');
  const out: SubscriptionFilter = {};
  for (const flag of FILTER_FLAGS) {
    const value = filter[flag];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw new InvalidArgumentError(`filter.${flag}`, value, 'expected a boolean');
    if (value) out[flag] = true;
  }
  const uris = filter['resourceSubscriptions'];
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === 'string' && uri !== '')) {
      throw new InvalidArgumentError(
        'filter.resourceSubscriptions',
        uris,
        'expected an array of non-empty URI strings',
      );
    }
    if (uris.length > 0) out.resourceSubscriptions = [...new Set(uris as string[])];
  }
  const taskIds = filter['taskIds'];
  if (taskIds !== undefined) {
    if (!Array.isArray(taskIds) || !taskIds.every((id) => typeof id === 'string' && id !== '')) {
      throw new InvalidArgumentError('filter.taskIds', taskIds, 'expected an array of non-empty task ids');
    }
    if (taskIds.length > 0) out.taskIds = [...new Set(taskIds as string[])];
  }
  if (isEmptyFilter(out)) throw new InvalidArgumentError('filter', filter, 'asks for no notifications');
  return out;
}

/** True when the filter asks for nothing. */
export function isEmptyFilter(filter: SubscriptionFilter): boolean {
  return (
    filter.toolsListChanged !== true &&
    filter.promptsListChanged !== true &&
    filter.resourcesListChanged !== true &&
    (filter.resourceSubscriptions?.length ?? 0) === 0 &&
    (filter.taskIds?.length ?? 0) === 0
  );
}

/**
 * Splits a normalized filter into what the server's capabilities say it can deliver
 * (`tools.listChanged`, `prompts.listChanged`, `resources.listChanged`, `resources.subscribe`,
 * spec: server/tools, server/prompts, server/resources; `extensions["io.modelcontextprotocol/tasks"]`
 * for `taskIds`, spec: ext-tasks) and the rest.
 */
export function narrowToCapabilities(
  filter: SubscriptionFilter,
  capabilities: ServerCapabilities | undefined,
): { deliverable: SubscriptionFilter; unsupported: SubscriptionFilter } {
  const can: Record<FilterFlag, boolean> = {
    toolsListChanged: capabilities?.tools?.listChanged === true,
    promptsListChanged: capabilities?.prompts?.listChanged === true,
    resourcesListChanged: capabilities?.resources?.listChanged === true,
  };
  const deliverable: SubscriptionFilter = {};
  const unsupported: SubscriptionFilter = {};
  for (const flag of FILTER_FLAGS) {
    if (filter[flag] !== true) continue;
    if (can[flag]) deliverable[flag] = true;
    else unsupported[flag] = true;
  }
  const uris = filter.resourceSubscriptions;
  if (uris !== undefined && uris.length > 0) {
    if (capabilities?.resources?.subscribe === true) deliverable.resourceSubscriptions = [...uris];
    else unsupported.resourceSubscriptions = [...uris];
  }
  const taskIds = filter.taskIds;
  if (taskIds !== undefined && taskIds.length > 0) {
    if (serverOffersTasks(capabilities)) deliverable.taskIds = [...taskIds];
    else unsupported.taskIds = [...taskIds];
  }
  return { deliverable, unsupported };
}

/**
 * Reads the `notifications` of a `notifications/subscriptions/acknowledged` and keeps only what
 * was requested: a server cannot honour what it was not asked for. Anything that is not a
 * filter object counts as "nothing honoured".
 */
export function readAcknowledged(value: unknown, requested: SubscriptionFilter): SubscriptionFilter {
  const honoured: SubscriptionFilter = {};
  if (!isObject(value)) return honoured;
  for (const flag of FILTER_FLAGS) {
    if (value[flag] === true && requested[flag] === true) honoured[flag] = true;
  }
  const acked = value['resourceSubscriptions'];
  const asked = requested.resourceSubscriptions;
  if (Array.isArray(acked) && asked !== undefined) {
    const set = new Set(acked.filter((uri): uri is string => typeof uri === 'string'));
    const kept = asked.filter((uri) => set.has(uri));
    if (kept.length > 0) honoured.resourceSubscriptions = kept;
  }
  const ackedTasks = value['taskIds'];
  const askedTasks = requested.taskIds;
  if (Array.isArray(ackedTasks) && askedTasks !== undefined) {
    const set = new Set(ackedTasks.filter((id): id is string => typeof id === 'string'));
    const kept = askedTasks.filter((id) => set.has(id));
    if (kept.length > 0) honoured.taskIds = kept;
  }
  return honoured;
}

/** What `a` asks for and `b` does not (both normalized). */
export function filterMinus(a: SubscriptionFilter, b: SubscriptionFilter): SubscriptionFilter {
  const out: SubscriptionFilter = {};
  for (const flag of FILTER_FLAGS) if (a[flag] === true && b[flag] !== true) out[flag] = true;
  const theirs = new Set(b.resourceSubscriptions ?? []);
  const left = (a.resourceSubscriptions ?? []).filter((uri) => !theirs.has(uri));
  if (left.length > 0) out.resourceSubscriptions = left;
  const theirTasks = new Set(b.taskIds ?? []);
  const tasksLeft = (a.taskIds ?? []).filter((id) => !theirTasks.has(id));
  if (tasksLeft.length > 0) out.taskIds = tasksLeft;
  return out;
}

/** Both filters' requests together (both normalized). */
export function filterUnion(a: SubscriptionFilter, b: SubscriptionFilter): SubscriptionFilter {
  const out: SubscriptionFilter = {};
  for (const flag of FILTER_FLAGS) if (a[flag] === true || b[flag] === true) out[flag] = true;
  const uris = [...new Set([...(a.resourceSubscriptions ?? []), ...(b.resourceSubscriptions ?? [])])];
  if (uris.length > 0) out.resourceSubscriptions = uris;
  const taskIds = [...new Set([...(a.taskIds ?? []), ...(b.taskIds ?? [])])];
  if (taskIds.length > 0) out.taskIds = taskIds;
  return out;
}
