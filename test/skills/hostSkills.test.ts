/**
 * `McpHost` skills against two official servers with Skills support in this process: the union
 * with exposed names (a name both serve is kept twice, prefixed), trust and origin, routed
 * reads, kept live through list_changed, and a simulated model turn that loads one skill
 * through the built-in tool and reads one of its files.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpHost } from '../../src/host/host.js';
import { SKILL_TOOLS, skillsContext } from '../../src/host/skills/skillTools.js';
import { toAnthropicTools } from '../../src/host/models/modelTools.js';
import type { HostEvent } from '../../src/host/servers/hostOptions.js';
import { loadSkillsCatalog, skillsServerFactory, EXAMPLE_SKILL_FILES } from '../../examples/skillsCatalog.js';
import { inMemoryOfficial } from '../fakes/inMemoryOfficial.js';
import { TamperableSkills, skillMd } from '../fakes/tamperableSkills.js';

const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function twoServers() {
  const files = { ...EXAMPLE_SKILL_FILES };
  const catalog = await loadSkillsCatalog({ files });
  const docs = inMemoryOfficial(skillsServerFactory(catalog));
  const other = new TamperableSkills([
    { path: 'triage', files: { 'SKILL.md': skillMd('triage', 'Triage tickets the support way') } },
  ]);
  const support = inMemoryOfficial(other.factory());
  const host = new McpHost({
    clientInfo: { name: 'skills-host', version: '1.0.0' },
    servers: {
      docs: { type: 'custom', transport: () => docs.transport() },
      support: { type: 'custom', transport: () => support.transport() },
    },
    skills: { trusted: ['docs'] },
  });
  hosts.push(host);
  await host.connect();
  return { host, catalog, files, docs, support };
}

describe('host skills', () => {
  it('unions two servers with exposed names, origin and trust; a shared name is kept twice', async () => {
    const { host, docs } = await twoServers();
    const skills = await host.skills();
    expect(skills.map((s) => [s.exposedName, s.server, s.trusted, s.name])).toEqual([
      ['docs__code-review', 'docs', true, 'code-review'],
      ['docs__release-notes', 'docs', true, 'release-notes'],
      ['docs__triage', 'docs', true, 'triage'],
      ['support__triage', 'support', false, 'triage'],
    ]);
    expect(docs.requestsOf('resources/read')).toEqual([]); // listings only, no file fetched ahead of need
    const read = await host.readSkill('support__triage');
    expect(read.origin.server).toBe('support');
    expect(read.frontmatter).toEqual({ name: 'triage', description: 'Triage tickets the support way' });
    const ours = await host.readSkill('docs__triage');
    expect(ours.frontmatter?.['description']).toBe('Sort new issues by area and urgency');
    await expect(host.readSkill('nobody__triage')).rejects.toMatchObject({
      code: -33051,
      data: { reason: 'unknown-skill' },
    });
  });

  it('stays live: a changed catalog is listed again and announced', async () => {
    const { host, catalog, files } = await twoServers();
    await host.skills();
    const announced = new Promise<HostEvent>((resolve) => {
      host.on((event) => {
        if (event.type === 'skills' && event.skills.some((s) => s.name === 'onboarding')) resolve(event);
      });
    });
    files['onboarding/SKILL.md'] = skillMd('onboarding', 'Set up a new teammate');
    await catalog.reload();
    const event = await announced;
    expect(event.type === 'skills' && event.skills.map((s) => s.exposedName)).toContain('docs__onboarding');
    expect((await host.skills()).map((s) => s.exposedName)).toContain('docs__onboarding');
  });

  it('a simulated model turn loads one skill through load_skill and reads a file it names', async () => {
    const { host, docs } = await twoServers();
    const skills = await host.skills();
    const context = skillsContext(skills);
    expect(context).toContain(
      '- docs__release-notes: Write release notes for a version from its merged changes (from MCP server "docs", trusted)',
    );
    expect(context).not.toContain('Follow references/STYLE.md'); // no body in context
    const tools = toAnthropicTools(SKILL_TOOLS);
    expect(tools.map((t) => t.name)).toEqual(['load_skill', 'read_skill_file']);

    // The model picks a skill from the context and calls the tool.
    const loaded = await host.callSkillTool('load_skill', { name: 'docs__release-notes' });
    expect(loaded.isError).toBeUndefined();
    const text = (loaded.content[0] as { text: string }).text;
    expect(text).toMatch(
      /^\[SKILL\.md of skill docs__release-notes, from MCP server "docs" \(trusted\); root skill:\/\/release-notes\]\n---\nname: release-notes/,
    );
    expect(text).toContain('Follow references/STYLE.md.');
    expect(docs.requestsOf('resources/read').map((p) => p['uri'])).toEqual(['skill://release-notes/SKILL.md']);

    const style = await host.callSkillTool('read_skill_file', {
      name: 'docs__release-notes',
      path: 'references/STYLE.md',
    });
    expect((style.content[0] as { text: string }).text).toContain('One line per change');
    const dir = await host.callSkillTool('read_skill_file', { name: 'docs__release-notes', path: 'templates' });
    expect((dir.content[0] as { text: string }).text).toContain('skill://release-notes/templates/minor.md');

    const crossServer = await host.callSkillTool('read_skill_file', {
      name: 'docs__release-notes',
      path: 'skill://triage/SKILL.md',
    });
    expect(crossServer.isError).toBe(true);
    const unknown = await host.callSkillTool('load_skill', { name: 'release-notes' });
    expect(unknown.isError).toBe(true);
  });
});
