/**
 * `mcp-live --config <file> skills list|show|read`: the skills (SEP-2640) of every server of a
 * configuration file, through the host (`host.skills()`, `host.readSkill()`): the union under
 * exposed names with origin and trust, one skill's entry and files, and one file read (verified
 * against the listing before it is printed).
 */
import { HostRoutingError, type HostSkill, type McpHost } from '../host.js';
import type { Command, GlobalOptions } from './args.js';
import { EXIT_OK } from './errors.js';
import type { CliIo } from './io.js';
import type { Style } from './render.js';

/** What the skills commands use of the host command's context. */
interface HostContext {
  host: McpHost;
  io: CliIo;
  options: GlobalOptions;
  style: Style;
}

const line = (ctx: HostContext, text = ''): void => void ctx.io.stdout.write(`${text}\n`);

/** Runs `skills <action>`; resolves with the exit code. @throws what the host's skill verbs throw */
export async function runSkillsCommand(
  ctx: HostContext,
  command: Extract<Command, { name: 'skills' }>,
): Promise<number> {
  const { host, style } = ctx;
  const skills = await host.skills();
  switch (command.action) {
    case 'list':
      if (ctx.options.json) printJson(ctx, { skills: skills.map(summary) });
      else if (skills.length === 0) ctx.io.stderr.write('mcp-live: no server lists skills\n');
      else
        for (const skill of skills)
          line(
            ctx,
            `${style.bold(skill.exposedName)}  ${skill.description} ${style.dim(`[${skill.server}${skill.trusted ? ', trusted' : ''}]`)}`,
          );
      return EXIT_OK;
    case 'show': {
      const skill = find(skills, command.skill as string);
      if (ctx.options.json) printJson(ctx, { ...summary(skill), skill: skill.skill });
      else {
        line(
          ctx,
          `${style.bold(skill.exposedName)} (${skill.name}) from ${skill.server}${skill.trusted ? ', trusted' : ', not trusted'}`,
        );
        line(ctx, skill.description);
        line(ctx, `${style.dim('uri:')} ${skill.skill.uri}`);
        const files = skill.skill.resources;
        if (files === 'dynamic') line(ctx, style.dim('files: dynamic (read them by path)'));
        else for (const file of files) line(ctx, `  ${file.uri}  ${file.size} B  ${style.dim(file.digest)}`);
      }
      return EXIT_OK;
    }
    case 'read': {
      const skill = find(skills, command.skill as string);
      const file = await host.readSkill(skill.exposedName, command.file, { signal: ctx.io.signal });
      if (ctx.options.json) {
        const { bytes, origin, skill: _skill, ...rest } = file;
        printJson(ctx, { ...rest, bytes: bytes.byteLength, origin: summary(origin) });
      } else if (file.text !== undefined) ctx.io.stdout.write(file.text.endsWith('\n') ? file.text : `${file.text}\n`);
      else line(ctx, `${file.mimeType ?? 'binary data'}, ${file.bytes.byteLength} bytes (--json shows its fields)`);
      return EXIT_OK;
    }
  }
}

function summary(skill: HostSkill): Record<string, unknown> {
  return {
    exposedName: skill.exposedName,
    name: skill.name,
    description: skill.description,
    server: skill.server,
    trusted: skill.trusted,
    uri: skill.skill.uri,
  };
}

/**
 * The skill named `name`: its exposed name, or its own name when one server alone has it.
 * @throws HostRoutingError (-33051, `unknown-skill`)
 */
function find(skills: readonly HostSkill[], name: string): HostSkill {
  const exact = skills.find((s) => s.exposedName === name);
  if (exact !== undefined) return exact;
  const named = skills.filter((s) => s.name === name);
  if (named.length === 1) return named[0] as HostSkill;
  throw new HostRoutingError(
    `no skill named ${JSON.stringify(name)} (${named.length > 1 ? `${named.length} servers list it: use its exposed name` : 'mcp-live skills list --config … lists them'})`,
    { reason: 'unknown-skill', name },
  );
}

function printJson(ctx: HostContext, value: unknown): void {
  ctx.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
