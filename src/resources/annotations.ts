/**
 * Annotations on resources, resource templates, resource links and content blocks (spec:
 * server/resources, Annotations): `audience`, `priority` (0.0 to 1.0) and `lastModified` (ISO
 * 8601). They are hints from the server: typed here, checked, and never trusted for safety.
 * Pure: an invalid value is left out and reported to `onError`, never thrown.
 */
import { ProtocolError } from '../errors/errors.js';
import type { Role } from '../wire/protocol.js';

/** The annotations of an item, each present only when valid. */
export interface CheckedAnnotations {
  /** Who the item is meant for: `user`, `assistant`, or both. Absent: no hint (both). */
  audience?: Role[] | undefined;
  /** How important the item is, 0 (optional) to 1 (effectively required). */
  priority?: number | undefined;
  /** When the item last changed, as sent (an ISO 8601 date or date-time with an offset). */
  lastModified?: string | undefined;
  /** `lastModified` as milliseconds since the Unix epoch. */
  lastModifiedTime?: number | undefined;
}

/** Anything that may carry `annotations`: a Resource, ResourceTemplate, ResourceLink or content block. */
export interface Annotated {
  readonly annotations?: unknown;
}

const ROLES: readonly string[] = ['user', 'assistant'];
/** ISO 8601 (RFC 3339 profile): a calendar date, or a date-time with seconds optional and an offset. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2}))?$/;

/**
 * The item's annotations, checked: `audience` keeps only `user` and `assistant` (an unknown role
 * is dropped), `priority` must be a number in [0, 1], `lastModified` an ISO 8601 date or
 * date-time with an offset (`2025-01-12T15:00:58Z`). Anything else is left out, and reported
 * to `onError` as a `ProtocolError` (-32600) with the offending value.
 */
export function annotationsOf(item: Annotated, onError?: (error: Error) => void): CheckedAnnotations {
  const raw = item.annotations;
  if (raw === undefined) return {};
  const report = (reason: string, value: unknown): void =>
    onError?.(new ProtocolError(`annotations: ${reason}; ignored`, { value }));
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    report('expected an object', raw);
    return {};
  }
  const annotations = raw as Record<string, unknown>;
  const checked: CheckedAnnotations = {};
  const { audience, priority, lastModified } = annotations;
  if (audience !== undefined) {
    if (!Array.isArray(audience)) report('audience must be an array of roles', audience);
    else {
      const roles = audience.filter((role): role is Role => typeof role === 'string' && ROLES.includes(role));
      if (roles.length !== audience.length) report('audience holds an unknown role', audience);
      checked.audience = [...new Set(roles)];
    }
  }
  if (priority !== undefined) {
    if (typeof priority === 'number' && priority >= 0 && priority <= 1) checked.priority = priority;
    else report('priority must be a number from 0 to 1', priority);
  }
  if (lastModified !== undefined) {
    const time = typeof lastModified === 'string' && ISO_8601.test(lastModified) ? Date.parse(lastModified) : NaN;
    if (Number.isFinite(time)) {
      checked.lastModified = lastModified as string;
      checked.lastModifiedTime = time;
    } else report('lastModified must be an ISO 8601 date or date-time with an offset', lastModified);
  }
  return checked;
}

/** Options of {@link selectByAnnotations}. */
export interface SelectByAnnotationsOptions {
  /**
   * Keep only items meant for this role: those whose `audience` includes it, and those with no
   * `audience` (no hint means both). @default keep every item
   */
  audience?: Role | undefined;
  /** Keep only items whose priority (or `defaultPriority`) is at least this. @default 0 */
  minPriority?: number | undefined;
  /** The priority of an item without one. @default 0.5 */
  defaultPriority?: number | undefined;
  /** Receives each invalid annotation (see {@link annotationsOf}). @default ignore */
  onError?: ((error: Error) => void) | undefined;
}

/**
 * For a host choosing what goes into a model's context: the items meant for `audience`, most
 * important first (`priority`, highest first), then most recent (`lastModified`, newest first;
 * items without one after those with one), then in their original order. A new array; the
 * items are not copied. Invalid annotations count as absent and are reported to `onError`.
 *
 * @example
 * const forModel = selectByAnnotations(result.content, { audience: 'assistant', minPriority: 0.2 });
 */
export function selectByAnnotations<T extends Annotated>(
  items: readonly T[],
  options: SelectByAnnotationsOptions = {},
): T[] {
  const { audience, minPriority = 0, defaultPriority = 0.5, onError } = options;
  return items
    .map((item, index) => ({ item, index, annotations: annotationsOf(item, onError) }))
    .filter(({ annotations }) => audience === undefined || annotations.audience?.includes(audience) !== false)
    .map((entry) => ({ ...entry, priority: entry.annotations.priority ?? defaultPriority }))
    .filter(({ priority }) => priority >= minPriority)
    .sort(
      (a, b) =>
        b.priority - a.priority ||
        (b.annotations.lastModifiedTime ?? -Infinity) - (a.annotations.lastModifiedTime ?? -Infinity) ||
        a.index - b.index,
    )
    .map(({ item }) => item);
}
