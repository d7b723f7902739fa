/**
 * Detecting the Skills extension (SEP-2640, Capability Declaration; SEP-2133): the server lists
 * `io.modelcontextprotocol/skills` under `capabilities.extensions`, an object of settings, of
 * which `directoryRead: true` announces `resources/directory/read`. Pure and tiny: the client
 * imports it at load time, the rest of `skills/` only on first use.
 */
import { isObject } from './messages.js';
import type { ClientCapabilities, ServerCapabilities } from './protocol.js';

/** The identifier servers declare under `capabilities.extensions` (SEP-2133). */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills';

/** The server's settings of the extension: `capabilities.extensions["io.modelcontextprotocol/skills"]`. */
export interface SkillsCapability {
  /** The server serves `resources/directory/read`. @default false */
  directoryRead?: boolean;
  [setting: string]: unknown;
}

/** The server's settings of the extension; `undefined` when it does not declare it (or not as an object). */
export function skillsCapabilityOf(capabilities: ServerCapabilities | undefined): SkillsCapability | undefined {
  const extensions = capabilities?.extensions;
  if (!isObject(extensions) || !Object.hasOwn(extensions, SKILLS_EXTENSION)) return undefined;
  const settings = extensions[SKILLS_EXTENSION];
  return isObject(settings) ? settings : undefined;
}

/** A copy of `capabilities` that also declares the Skills extension (other extensions kept). */
export function withSkillsExtension(capabilities: ClientCapabilities): ClientCapabilities {
  return { ...capabilities, extensions: { ...capabilities.extensions, [SKILLS_EXTENSION]: {} } };
}
