/**
 * Paths stay inside their skill: whatever path the model (`read_skill_file`) or the app
 * (`client.skills.read`, `readDirectory`) gives, nothing outside the skill's root reaches the
 * server. Against official SDK servers with the Skills extension in this process, which record
 * every request they receive: a `"dynamic"` skill (no file list to check against) and the
 * example catalog (file lists, `directoryRead`). Property tests over generated paths built from
 * dot segments, separators and their encodings (mixed-case `%2E`, double encoding, `%00`,
 * backslashes, drive letters); example tests for each spelling in issue 41.
 */
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { McpClient } from '../../../src/client/client.js';
import { McpHost } from '../../../src/host/host.js';
import { InvalidArgumentError } from '../../../src/errors/errors.js';
import { SkillPathError } from '../../../src/skills/errors.js';
import type { Skill } from '../../../src/skills/types.js';
import { EXAMPLE_SKILL_FILES, loadSkillsCatalog, skillsServerFactory } from '../../../examples/skillsCatalog.js';
import { inMemoryOfficial, type InMemoryOfficialServer } from '../../fakes/inMemoryOfficial.js';
import { TamperableSkills, skillMd } from '../../fakes/tamperableSkills.js';

const clients: McpClient[] = [];
const hosts: McpHost[] = [];
afterEach(async () => {
  await Promise.all([...clients.splice(0).map((c) => c.close()), ...hosts.splice(0).map((h) => h.close())]);
});

/** A dynamic skill `guide` next to a skill `secret` whose file must never be read through `guide`. */
function dynamicServer(): InMemoryOfficialServer {
  const source = new TamperableSkills([
    { path: 'guide', dynamic: true, files: { 'SKILL.md': skillMd('guide', 'A guide'), 'notes/a.md': 'notes' } },
    { path: 'secret', files: { 'SKILL.md': skillMd('secret', 'Secret'), 'key.txt': 'the secret' } },
  ]);
  return inMemoryOfficial(source.factory());
}

async function connect(server: InMemoryOfficialServer): Promise<McpClient> {
  const client = new McpClient({ transport: server.transport(), clientInfo: { name: 'paths', version: '1.0.0' } });
  clients.push(client);
  await client.connect();
  return client;
}

async function hostOf(server: InMemoryOfficialServer): Promise<McpHost> {
  const host = new McpHost({
    clientInfo: { name: 'paths-host', version: '1.0.0' },
    servers: { docs: { type: 'custom', transport: () => server.transport() } },
  });
  hosts.push(host);
  await host.connect();
  return host;
}

/**
 * The oracle, independent of src/skills: would a server reading `uri` as a file path (decoding
 * up to three times, `\` as a separator, trailing dots and spaces dropped as Windows does) read
 * outside `root`?
 */
function leaves(uri: string, root: string): boolean {
  if (uri !== root && !uri.startsWith(`${root}/`)) return true;
  let rest = uri.slice(root.length);
  for (let i = 0; i < 3; i++) {
    try {
      rest = decodeURIComponent(rest);
    } catch {
      break;
    }
  }
  if (rest.includes('\u0000')) return true;
  let depth = 0;
  const segments = rest.replaceAll('\\', '/').split('/');
  if (/^[A-Za-z]:/.test(segments.find((segment) => segment !== '') ?? '')) return true;
  for (const raw of segments) {
    const segment = /^[. ]+$/.test(raw) ? raw.replace(/ +$/, '').replace(/^\.{3,}$/, '..') : raw;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (--depth < 0) return true;
    } else depth++;
  }
  return false;
}

/** Every URI a request the server received names (resources/read, resources/directory/read). */
function urisSent(server: InMemoryOfficialServer): string[] {
  return [...server.requestsOf('resources/read'), ...server.requestsOf('resources/directory/read')].map((p) =>
    String(p['uri']),
  );
}

const PIECES = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2e',
  '%2e%2E',
  '.%2e',
  '%2e.',
  '%2E',
  '..%2f',
  '..%2F',
  '%2e%2e%2f',
  '%2f',
  '%5c',
  '%5C',
  '\\',
  '..\\',
  '%252e%252e',
  '%25252e',
  '%00',
  '\u0000',
  '',
  'C:',
  'c%3A',
  '...',
  '.. ',
  '%20',
  'notes',
  'a.md',
  'secret',
  'key.txt',
  'SKILL.md',
  '%',
  '%zz',
];
const generatedPath = fc
  .array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 7 })
  .chain((pieces) =>
    fc
      .array(fc.constantFrom('/', '', '%2f', '\\'), { minLength: pieces.length, maxLength: pieces.length })
      .map((seps) => pieces.map((piece, i) => `${piece}${i < pieces.length - 1 ? seps[i] : ''}`).join('')),
  );

describe('skill paths never leave their skill', () => {
  it('client.skills.read of a dynamic skill: no generated path sends a URI outside the skill', async () => {
    const server = dynamicServer();
    const client = await connect(server);
    const guide = (await client.skills.list()).skills.find((s) => s.uri === 'skill://guide/SKILL.md') as Skill;
    await fc.assert(
      fc.asyncProperty(generatedPath, async (path) => {
        const before = urisSent(server).length;
        const outcome = await client.skills.read(guide, path).then(
          () => undefined,
          (error: unknown) => error,
        );
        const sent = urisSent(server).slice(before);
        for (const uri of sent) expect(leaves(uri, 'skill://guide'), `${path} sent ${uri}`).toBe(false);
        if (outcome instanceof SkillPathError) {
          expect(sent).toEqual([]);
          expect(outcome.data.value).toBe(path);
          expect(outcome.data.root).toBe('skill://guide');
        }
      }),
      { numRuns: 400 },
    );
    expect(urisSent(server).filter((uri) => leaves(uri, 'skill://guide'))).toEqual([]);
  });

  it('read_skill_file and readDirectory over the example catalog: nothing outside the skill is asked for', async () => {
    const catalog = await loadSkillsCatalog({ files: { ...EXAMPLE_SKILL_FILES } });
    const server = inMemoryOfficial(skillsServerFactory(catalog));
    const host = await hostOf(server);
    const client = host.client('docs')!;
    const skill = (await client.skills.list()).skills.find((s) => s.uri === 'skill://release-notes/SKILL.md') as Skill;
    await fc.assert(
      fc.asyncProperty(generatedPath, async (path) => {
        const before = urisSent(server).length;
        await host.callSkillTool('read_skill_file', { name: 'docs__release-notes', path });
        await client.skills.readDirectory(skill, path).catch(() => undefined);
        for (const uri of urisSent(server).slice(before))
          expect(leaves(uri, 'skill://release-notes'), `${path} sent ${uri}`).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps the paths that stay inside: dot segments resolved, encodings sent one way', async () => {
    const server = dynamicServer();
    const client = await connect(server);
    const guide = (await client.skills.list()).skills.find((s) => s.uri === 'skill://guide/SKILL.md') as Skill;
    expect((await client.skills.read(guide, 'notes/%2e%2e/notes/./a.md')).text).toBe('notes');
    expect((await client.skills.read(guide, 'notes%2fa.md')).uri).toBe('skill://guide/notes/a.md');
    expect((await client.skills.read(guide, 'skill://guide/notes/a.md#x')).text).toBe('notes');
    expect(urisSent(server)).toEqual(['skill://guide/notes/a.md']); // the rest from the cache, one spelling
  });
});

describe("issue 41's spellings, each refused before anything is sent", () => {
  const CASES: Array<[string, string]> = [
    ['%2e%2e/secret/key.txt', 'outside-root'],
    ['.%2e/secret/key.txt', 'outside-root'],
    ['..%2fsecret/key.txt', 'outside-root'],
    ['%2E%2E%2Fsecret%2Fkey.txt', 'outside-root'],
    ['notes/../../secret/key.txt', 'outside-root'],
    ['%252e%252e/secret/key.txt', 'double-encoded'],
    ['..%5csecret%5ckey.txt', 'backslash'],
    ['notes\\..\\..\\secret', 'backslash'],
    ['%2fetc/passwd', 'absolute'],
    ['/etc/passwd', 'absolute'],
    ['C:/Windows/win.ini', 'drive-or-scheme'],
    ['file%3A///etc/passwd', 'drive-or-scheme'],
    ['notes/a.md%00.png', 'nul'],
    ['.../secret', 'dot-segment'],
    ['.. /secret', 'dot-segment'],
    ['skill://secret/key.txt', 'outside-root'],
    ['skill://guide/%2e%2e/secret/key.txt', 'outside-root'],
  ];

  it.each(CASES)(
    'read_skill_file %j on a dynamic skill: %s, an error the model reads, nothing sent',
    async (path, reason) => {
      const server = dynamicServer();
      const host = await hostOf(server);
      await host.skills();
      const before = urisSent(server);
      const result = await host.callSkillTool('read_skill_file', { name: 'docs__guide', path });
      expect(result.isError).toBe(true);
      expect(urisSent(server)).toEqual(before);
      // The same path through the client API: a SkillPathError naming it.
      const skill = (await host.skills()).find((s) => s.exposedName === 'docs__guide')!.skill;
      const error = await host
        .client('docs')!
        .skills.read(skill, path)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      if (path.startsWith('/') || path.startsWith('C:') || path.startsWith('skill:')) {
        // read_skill_file refuses URIs and absolute paths itself; the client names them too.
        expect(error).toBeInstanceOf(InvalidArgumentError);
      }
      expect(error).toBeInstanceOf(SkillPathError);
      expect(error).toMatchObject({ code: -32602, data: { name: 'ref', value: path, root: 'skill://guide', reason } });
      expect(urisSent(server)).toEqual(before);
    },
  );

  it.each(['%2e%2e/', '.%2e/', '..%2f'])(
    'read_skill_file %j on a listed skill of the example catalog (directoryRead): refused, nothing sent',
    async (prefix) => {
      const catalog = await loadSkillsCatalog({ files: { ...EXAMPLE_SKILL_FILES } });
      const server = inMemoryOfficial(skillsServerFactory(catalog));
      const host = await hostOf(server);
      await host.skills();
      const before = urisSent(server);
      for (const path of [`${prefix}code-review/SKILL.md`, `${prefix}code-review`, prefix]) {
        const result = await host.callSkillTool('read_skill_file', { name: 'docs__release-notes', path });
        expect(result.isError, path).toBe(true);
        expect((result.content[0] as { text: string }).text).toMatch(/leaves the skill's root/);
      }
      expect(urisSent(server)).toEqual(before);
    },
  );
});
