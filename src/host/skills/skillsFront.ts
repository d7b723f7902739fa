/**
 * The host's skill verbs (`host.skills()`, `host.readSkill()`, `host.callSkillTool()`). Loaded
 * on the first of those calls (hostAssembly.ts), with the registry, so a host that never uses
 * skills never loads them.
 */
import type { CallOptions } from '../../wire/callOptions.js';
import type { JsonObject } from '../../wire/messages.js';
import type { SkillFile } from '../../skills/types.js';
import type { CallToolResult } from '../../wire/protocol.js';
import { HostSkills, type HostSkill, type HostSkillsDeps } from './hostSkills.js';
import { LOAD_SKILL_TOOL, READ_SKILL_FILE_TOOL } from './skillTools.js';
import { headOf } from '../../util/text.js';

/** Options of the host's skills (`McpHostOptions.skills`). */
export interface HostSkillsOptions {
  /**
   * Servers, by the host's name for them, whose skills the host trusts: `HostSkill.trusted` and
   * the origin tag the model sees say so. Trust is the app's decision; a server cannot claim it.
   * @default [] (every server's skills are untrusted)
   */
  trusted?: readonly string[] | undefined;
  /**
   * The most characters (UTF-16 code units) of a skill file a built-in tool result carries; the
   * rest is cut on a whole character (src/util/text.ts), and said so. @default 100000
   */
  maxChars?: number | undefined;
}

/** @internal The verbs behind `McpHost`'s skill methods. */
export class SkillsFront {
  private registry: HostSkills | undefined;
  private closed = false;

  constructor(
    private readonly deps: Omit<HostSkillsDeps, 'trusted'>,
    private readonly options: HostSkillsOptions = {},
  ) {}

  async skills(): Promise<readonly HostSkill[]> {
    return this.load().start();
  }

  async readSkill(
    name: string,
    ref: string | undefined,
    options: CallOptions,
  ): Promise<SkillFile & { origin: HostSkill }> {
    const registry = this.load();
    await registry.start();
    const { skill, file } = await registry.read(name, ref, options);
    return { ...file, origin: skill };
  }

  async callSkillTool(name: string, args: JsonObject, options: CallOptions): Promise<CallToolResult> {
    const registry = this.load();
    const maxChars = this.options.maxChars ?? 100_000;
    const skillName = args['name'];
    if (typeof skillName !== 'string') return skillToolError('name must be a string: a skill name as listed');
    await registry.start();
    let skill: HostSkill;
    try {
      skill = registry.find(skillName);
    } catch {
      return skillToolError(
        `no skill named ${JSON.stringify(skillName)}; use a name from the list of available skills`,
      );
    }
    try {
      if (name === LOAD_SKILL_TOOL) {
        const { file } = await registry.read(skillName, undefined, options);
        return skillResult(skill, 'SKILL.md', file.text ?? '', maxChars);
      }
      if (name === READ_SKILL_FILE_TOOL) {
        const path = args['path'];
        if (typeof path !== 'string' || path === '' || /^[A-Za-z][A-Za-z0-9+.-]*:/.test(path))
          return skillToolError(
            "path must be a path relative to the skill's root (no URI: a skill reads only its own files)",
          );
        const client = this.deps.client(skill.server);
        const listed = skill.skill.resources;
        const isDirectory =
          listed !== 'dynamic' &&
          !listed.some((f) => f.uri.endsWith(`/${path.replace(/^\.\//, '')}`)) &&
          client?.skills.directoryRead === true;
        if (isDirectory && client !== undefined) {
          const listing = await client.skills.readDirectory(skill.skill, path, options);
          const text = listing.resources
            .map((r) => `${r.uri}${r.mimeType === 'inode/directory' ? '/' : ''}`)
            .join('\n');
          return skillResult(skill, `directory ${path}`, text, maxChars);
        }
        const { file } = await registry.read(skillName, path, options);
        return skillResult(skill, file.path, file.text ?? `(${file.bytes.byteLength} bytes, not text)`, maxChars);
      }
      return skillToolError(`${name} is not a skill tool`);
    } catch (error) {
      return skillToolError(
        `could not read skill ${skillName}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  close(): void {
    this.closed = true;
    this.registry?.close();
  }

  /** The registry, made on first use. @throws Error once the host is closed. */
  private load(): HostSkills {
    if (this.closed) throw new Error('the host is closed');
    const trusted = new Set(this.options.trusted ?? []);
    return (this.registry ??= new HostSkills({ ...this.deps, trusted: (server) => trusted.has(server) }));
  }
}

/** A tool result holding `text` from a skill, tagged with its origin; cut to `maxChars`. */
function skillResult(skill: HostSkill, label: string, text: string, maxChars: number): CallToolResult {
  const head = `[${label} of skill ${skill.exposedName}, from MCP server "${skill.server}" (${skill.trusted ? 'trusted' : 'untrusted'}); root ${skill.skill.uri.replace(/\/SKILL\.md$/, '')}]\n`;
  const kept = headOf(text, maxChars);
  const body = kept.length === text.length ? text : `${kept}\n[cut at ${kept.length} of ${text.length} characters]`;
  return { content: [{ type: 'text', text: head + body }] };
}

/** A tool result that reports a failure to the model. */
function skillToolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
