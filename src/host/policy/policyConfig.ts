/**
 * The policy fields of a configuration file: per server `trusted` and `overrides`, and the
 * top-level `views`. Each malformed value is a `HostConfigError` naming the server (or the
 * view) and the field.
 */
import { HostConfigError } from '../catalog/errors.js';
import { checkOverrides, type ToolOverrides } from '../catalog/overrides.js';
import type { HostViewOptions } from './viewOptions.js';

/** The policy fields of one server entry, as read. */
export interface PolicyFields {
  trusted?: boolean;
  overrides?: ToolOverrides;
}

/**
 * Reads `trusted` (true or false) and `overrides` (see `ToolOverride`) of one entry.
 * @throws HostConfigError (-33050) naming the server and the field (`trusted`,
 *   `overrides.<tool>.hide[0]`...).
 */
export function parsePolicyFields(server: string, raw: Record<string, unknown>): PolicyFields {
  const fail = (field: string, reason: string, value?: unknown): never => {
    throw new HostConfigError({ server, field, reason, ...(value !== undefined && { value }) });
  };
  const trusted = raw['trusted'];
  if (trusted !== undefined && typeof trusted !== 'boolean') fail('trusted', 'expected true or false', trusted);
  const overrides = raw['overrides'];
  checkOverrides(overrides, fail);
  return {
    ...(typeof trusted === 'boolean' && { trusted }),
    ...(overrides !== undefined && { overrides: structuredClone(overrides) as ToolOverrides }),
  };
}

/**
 * Reads the file's top-level `views`: `{ name: { servers?: string[], tools?: string[] } }`.
 * A malformed view is left out and reported (with `server: undefined`, `field: "views.<name>..."`).
 */
export function parseViews(value: unknown): { views: Record<string, HostViewOptions>; errors: HostConfigError[] } {
  const views: Record<string, HostViewOptions> = {};
  const errors: HostConfigError[] = [];
  if (value === undefined) return { views, errors };
  const error = (field: string, reason: string, bad?: unknown): HostConfigError =>
    new HostConfigError({ server: undefined, field, reason, ...(bad !== undefined && { value: bad }) });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.push(error('views', 'expected an object of views by name'));
    return { views, errors };
  }
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      errors.push(error(`views.${name}`, 'expected { servers?, tools? }'));
      continue;
    }
    const view: HostViewOptions = {};
    let bad: HostConfigError | undefined;
    for (const [key, list] of Object.entries(raw as Record<string, unknown>)) {
      if (key !== 'servers' && key !== 'tools') {
        bad ??= error(`views.${name}.${key}`, 'unknown field; expected servers, tools');
        continue;
      }
      if (!Array.isArray(list)) {
        bad ??= error(`views.${name}.${key}`, 'expected an array of strings');
        continue;
      }
      const at = list.findIndex((item) => typeof item !== 'string' || item === '');
      if (at >= 0) bad ??= error(`views.${name}.${key}[${at}]`, 'expected a non-empty string', list[at]);
      else view[key] = [...(list as string[])];
    }
    if (bad !== undefined) errors.push(bad);
    else Object.defineProperty(views, name, { value: view, enumerable: true, writable: true, configurable: true });
  }
  return { views, errors };
}
