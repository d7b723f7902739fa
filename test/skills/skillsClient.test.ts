/**
 * `client.skills` against the official server's Skills support (@modelcontextprotocol/server
 * ext/skills) in this process: the example catalog (paged listing, directory reads, reload and
 * list_changed over a listen stream) and a source whose reads a test falsifies (every
 * verification failure, the fresh read of a stale cached copy, private skills per user, a
 * "dynamic" skill). Invalid listing entries, which the official server refuses to send, come
 * from a scripted wire fake.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../../src/client/client.js';
import type { ClientOptions } from '../../src/client/options.js';
import { MemoryCacheStore } from '../../src/cache/cacheStore.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';
import { InvalidSkillEntryError, SkillVerificationError, SkillsUnsupportedError } from '../../src/skills/errors.js';
import type { Skill } from '../../src/skills/types.js';
import { EXAMPLE_SKILL_FILES, loadSkillsCatalog, skillsServerFactory } from '../../examples/skillsCatalog.js';
import { inMemoryOfficial, type InMemoryOfficialServer } from '../fakes/inMemoryOfficial.js';
import { connectedPair, DISCOVER_RESULT } from '../fakes/scriptedServer.js';
import { TamperableSkills, skillMd, type TestSkill } from '../fakes/tamperableSkills.js';

const open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(server: InMemoryOfficialServer, options: Partial<ClientOptions> = {}): Promise<McpClient> {
  const client = new McpClient({
    transport: server.transport(),
    clientInfo: { name: 'skills-test', version: '1.0.0' },
    ...options,
  });
  open.push(client);
  await client.connect();
  return client;
}

async function catalogServer(files: Record<string, string> = { ...EXAMPLE_SKILL_FILES }) {
  const catalog = await loadSkillsCatalog({ files });
  return { catalog, files, server: inMemoryOfficial(skillsServerFactory(catalog)) };
}

function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('client.skills against the example catalog', () => {
  it('detects the extension and declares it on its own requests only', async () => {
    const { server } = await catalogServer();
    const client = await connect(server);
    expect(client.skills.supported).toBe(true);
    expect(client.skills.directoryRead).toBe(true);
    await client.skills.list();
    const [list] = server.requestsOf('skills/list');
    const meta = list?.['_meta'] as Record<string, any>;
    expect(meta['io.modelcontextprotocol/clientCapabilities'].extensions).toEqual({
      'io.modelcontextprotocol/skills': {},
    });
    const [discover] = server.requestsOf('server/discover');
    expect((discover?.['_meta'] as Record<string, any>)['io.modelcontextprotocol/clientCapabilities']).toEqual({});
  });

  it('walks every page, or returns one page at a cursor, through the cache', async () => {
    const { server } = await catalogServer();
    const client = await connect(server);
    const all = await client.skills.list();
    expect(all.skills.map((s) => s.frontmatter.name)).toEqual(['code-review', 'release-notes', 'triage']);
    expect(all).toMatchObject({ invalid: [], ttlMs: 60_000, cacheScope: 'public' });
    expect(all.nextCursor).toBeUndefined();
    expect(server.requestsOf('skills/list')).toHaveLength(2);

    const again = await client.skills.list();
    expect(again.skills).toEqual(all.skills);
    expect(server.requestsOf('skills/list')).toHaveLength(2); // both pages fresh in the cache

    const first = await client.skills.list({ maxPages: 1 });
    expect(first.skills).toHaveLength(2);
    expect(typeof first.nextCursor).toBe('string');
    const second = await client.skills.list({ cursor: first.nextCursor as string });
    expect(second.skills.map((s) => s.frontmatter.name)).toEqual(['triage']);
    expect(second.nextCursor).toBeUndefined();
  });

  it('gets one entry by URI and reads any file of a skill, verified', async () => {
    const { server } = await catalogServer();
    const client = await connect(server);
    const skill = await client.skills.get('skill://release-notes/SKILL.md');
    expect(skill.frontmatter).toEqual({
      name: 'release-notes',
      description: 'Write release notes for a version from its merged changes',
      license: 'MIT',
      metadata: { version: '1.2' },
    });
    const md = await client.skills.read(skill);
    expect(md).toMatchObject({ uri: 'skill://release-notes/SKILL.md', path: 'SKILL.md', verified: true });
    expect(md.frontmatter).toEqual(skill.frontmatter);
    expect(md.body).toBe(
      '# Release notes\n\nFollow references/STYLE.md. Pick a template from templates/ (minor.md or major.md).\n',
    );

    const style = await client.skills.read(skill, 'references/STYLE.md');
    expect(style.text).toBe(EXAMPLE_SKILL_FILES['release-notes/references/STYLE.md']);
    expect(style.path).toBe('references/STYLE.md');
    expect(style.frontmatter).toBeUndefined();
    const byUri = await client.skills.read(skill, 'skill://release-notes/templates/minor.md#top');
    expect(byUri.text).toBe(EXAMPLE_SKILL_FILES['release-notes/templates/minor.md']);
    const dotted = await client.skills.read(skill, './templates/../templates/major.md');
    expect(dotted.uri).toBe('skill://release-notes/templates/major.md');

    const escape = await errorOf(client.skills.read(skill, '../code-review/SKILL.md'));
    expect(escape).toBeInstanceOf(InvalidArgumentError);
  });

  it('reads directories page by page, and refuses without directoryRead', async () => {
    const { server } = await catalogServer();
    const client = await connect(server);
    const skill = await client.skills.get('skill://release-notes/SKILL.md');
    const root = await client.skills.readDirectory(skill);
    expect(root.uri).toBe('skill://release-notes');
    expect(root.resources.map((r) => [r.name, r.mimeType])).toEqual([
      ['SKILL.md', 'text/markdown'],
      ['references', 'inode/directory'],
      ['templates', 'inode/directory'],
    ]);
    expect(server.requestsOf('resources/directory/read').length).toBe(2); // two per page
    const templates = await client.skills.readDirectory('skill://release-notes/templates');
    expect(templates.resources.map((r) => r.uri)).toEqual([
      'skill://release-notes/templates/major.md',
      'skill://release-notes/templates/minor.md',
    ]);
    const again = await client.skills.readDirectory(skill, 'templates');
    expect(again.resources).toEqual(templates.resources);
    expect(server.requestsOf('resources/directory/read').length).toBe(3); // the last one from the cache

    const tamperable = inMemoryOfficial(
      new TamperableSkills([{ path: 'a', files: { 'SKILL.md': skillMd('a', 'A') } }]).factory(),
    );
    const plain = await connect(tamperable);
    expect(plain.skills.directoryRead).toBe(false);
    const refused = await errorOf(plain.skills.readDirectory('skill://a'));
    expect(refused).toBeInstanceOf(SkillsUnsupportedError);
    expect((refused as SkillsUnsupportedError).data).toEqual({
      method: 'resources/directory/read',
      missing: 'directoryRead',
    });
    expect(tamperable.requestsOf('resources/directory/read')).toEqual([]);
  });

  it('drops cached listings, entries and files on list_changed from a listen stream', async () => {
    const { server, catalog, files } = await catalogServer();
    const client = await connect(server);
    const subscription = await client.subscribe({ resourcesListChanged: true });
    const before = await client.skills.list();
    expect(before.skills.find((s) => s.frontmatter.name === 'triage')?.frontmatter.description).toBe(
      'Sort new issues by area and urgency',
    );
    await client.skills.get('skill://triage/SKILL.md');
    const heard = new Promise<void>((resolve) => {
      subscription.on((event) => {
        if (event.type === 'resourcesListChanged') resolve();
      });
    });
    files['triage/SKILL.md'] = skillMd('triage', 'Sort new issues by area, urgency and owner');
    const changes = await catalog.reload();
    expect(changes).toMatchObject({ changed: ['skill://triage/SKILL.md'], listChanged: true });
    await heard;
    const listsBefore = server.requestsOf('skills/list').length;
    const after = await client.skills.list();
    expect(server.requestsOf('skills/list').length).toBe(listsBefore + 2);
    const triage = after.skills.find((s) => s.frontmatter.name === 'triage') as Skill;
    expect(triage.frontmatter.description).toBe('Sort new issues by area, urgency and owner');
    expect((await client.skills.get('skill://triage/SKILL.md')).frontmatter.description).toBe(
      'Sort new issues by area, urgency and owner',
    );
    expect(server.requestsOf('skills/get')).toHaveLength(2);
    expect((await client.skills.read(triage)).verified).toBe(true);
    await subscription.close();
  });
});

describe('verification failures', () => {
  const files = {
    'SKILL.md': skillMd('refunds', 'Process refunds'),
    'references/POLICY.md': 'Refund within 30 days.\n',
  };

  async function tamperable(skills: TestSkill[] = [{ path: 'acme/refunds', files: { ...files } }]) {
    const source = new TamperableSkills(skills);
    const server = inMemoryOfficial(source.factory());
    const client = await connect(server);
    const [skill] = (await client.skills.list()).skills as [Skill];
    return { source, server, client, skill };
  }

  it('unlisted: refused before anything is sent', async () => {
    const { server, client, skill } = await tamperable();
    const error = await errorOf(client.skills.read(skill, 'references/SECRET.md'));
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect((error as SkillVerificationError).data).toMatchObject({
      reason: 'unlisted',
      uri: 'skill://acme/refunds/references/SECRET.md',
      skill: 'skill://acme/refunds/SKILL.md',
    });
    expect(server.requestsOf('resources/read')).toEqual([]);
  });

  it('size: the bytes are longer than listed (fetched twice: once fresh)', async () => {
    const { source, client, skill } = await tamperable();
    source.served.set('skill://acme/refunds/references/POLICY.md', 'Refund within 300 days.\n');
    const error = (await errorOf(client.skills.read(skill, 'references/POLICY.md'))) as SkillVerificationError;
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect(error.data).toMatchObject({ reason: 'size', expected: 23, actual: 24 });
    expect(source.reads.get('skill://acme/refunds/references/POLICY.md')).toBe(1); // from the network: no second try
  });

  it('digest: same length, other bytes', async () => {
    const { source, client, skill } = await tamperable();
    source.served.set('skill://acme/refunds/references/POLICY.md', 'Refund within 60 days.\n'.padEnd(23, '!'));
    const error = (await errorOf(client.skills.read(skill, 'references/POLICY.md'))) as SkillVerificationError;
    expect(error.data.reason).toBe('digest');
    expect(error.data.expected).toBe(skill.resources !== 'dynamic' ? skill.resources[1]?.digest : undefined);
    expect(error.code).toBe(-33060);
  });

  it('frontmatter: the listing says another description than the file', async () => {
    const { client, skill } = await tamperable([
      {
        path: 'acme/refunds',
        files: { ...files },
        listedFrontmatter: { description: 'Approve every refund' },
      },
    ]);
    const error = (await errorOf(client.skills.read(skill))) as SkillVerificationError;
    expect(error.data.reason).toBe('frontmatter');
    expect(error.data.differences).toEqual(['description: listed "Approve every refund", file "Process refunds"']);
    // A supporting file of the same skill is not judged by the frontmatter.
    expect((await client.skills.read(skill, 'references/POLICY.md')).verified).toBe(true);
  });

  it('a cached copy older than the entry is fetched once more, fresh, before any verdict', async () => {
    const { source, client, skill } = await tamperable();
    const old = await client.skills.read(skill, 'references/POLICY.md');
    expect(old.text).toBe('Refund within 30 days.\n');
    (source.skills[0] as { files: Record<string, string> }).files['references/POLICY.md'] = 'Refund within 14 days.\n';
    const current = await client.skills.get(skill.uri, { cacheMode: 'reload' });
    const fresh = await client.skills.read(current, 'references/POLICY.md');
    expect(fresh.text).toBe('Refund within 14 days.\n');
    expect(source.reads.get('skill://acme/refunds/references/POLICY.md')).toBe(2);
    // The old entry no longer matches what the server serves: one fresh read, then the error.
    const stale = (await errorOf(client.skills.read(skill, 'references/POLICY.md'))) as SkillVerificationError;
    expect(stale.data.reason).toBe('digest');
    expect(source.reads.get('skill://acme/refunds/references/POLICY.md')).toBe(3);
  });

  it('"dynamic" skills: read unverified, frontmatter still checked', async () => {
    const { client, skill } = await tamperable([
      { path: 'live', files: { 'SKILL.md': skillMd('live', 'Generated') }, dynamic: true },
    ]);
    expect(skill.resources).toBe('dynamic');
    const md = await client.skills.read(skill);
    expect(md).toMatchObject({ verified: false, frontmatter: { name: 'live', description: 'Generated' } });
  });
});

describe('invalid listing entries (scripted wire)', () => {
  const digest = `sha256:${'a'.repeat(64)}`;
  const good = {
    uri: 'skill://ok/SKILL.md',
    frontmatter: { name: 'ok', description: 'fine' },
    resources: [{ uri: 'skill://ok/SKILL.md', digest, size: 10 }],
  };
  const entries = [
    good,
    { ...good, uri: 'skill://other/SKILL.md' },
    {
      ...good,
      uri: 'skill://x/SKILL.md',
      frontmatter: { name: 'x', description: 'd' },
      resources: [{ uri: 'skill://y/a.md', digest, size: 1 }],
    },
    { ...good, resources: [{ uri: 'skill://ok/SKILL.md', digest: 'md5:00', size: 10 }] },
    good,
  ];

  it('a server without the extension: an empty listing, nothing sent', async () => {
    const { client, server } = await connectedPair({});
    open.push(client);
    expect(client.skills.supported).toBe(false);
    expect(await client.skills.list()).toEqual({ skills: [], invalid: [] });
    expect(server.received.filter((m) => m['method'] === 'skills/list')).toEqual([]);
    expect(await errorOf(client.skills.get('skill://ok/SKILL.md'))).toBeInstanceOf(SkillsUnsupportedError);
  });

  it('names each invalid entry, or returns them apart with skipInvalid', async () => {
    const discover = {
      ...DISCOVER_RESULT,
      capabilities: { resources: {}, extensions: { 'io.modelcontextprotocol/skills': {} } },
    };
    const { client, server } = await connectedPair({});
    open.push(client);
    server.on('server/discover', () => ({ result: discover }));
    await client.discover({ cacheMode: 'reload' });
    server.on('skills/list', () => ({ result: { skills: entries, ttlMs: 0, cacheScope: 'public' } }));
    const error = (await errorOf(client.skills.list())) as InvalidSkillEntryError;
    expect(error).toBeInstanceOf(InvalidSkillEntryError);
    expect(error.data.entries.map((e) => [e.index, e.uri, e.reason])).toEqual([
      [1, 'skill://other/SKILL.md', 'the last segment of uri ("other") is not frontmatter.name ("ok")'],
      [2, 'skill://x/SKILL.md', "resources[0].uri skill://y/a.md is outside the skill's directory"],
      [3, 'skill://ok/SKILL.md', 'resources[0].digest is not "sha256:" and 64 lowercase hex digits'],
      [4, 'skill://ok/SKILL.md', 'uri repeats entry #0'],
    ]);
    const apart = await client.skills.list({ skipInvalid: true });
    expect(apart.skills).toEqual([good]);
    expect(apart.invalid).toHaveLength(4);
  });
});

describe('private skills and two users', () => {
  it('never serves one user the private listing or file of another', async () => {
    const store = new MemoryCacheStore();
    const identity = 'memory:shared-skills-server';
    const forUser = (user: string) =>
      new TamperableSkills([
        { path: `${user}-notes`, files: { 'SKILL.md': skillMd(`${user}-notes`, `Notes of ${user}`) } },
      ]);
    const alice = forUser('alice');
    const bob = forUser('bob');
    const aliceServer = inMemoryOfficial(alice.factory({ ttlMs: 60_000, cacheScope: 'private' }), identity);
    const bobServer = inMemoryOfficial(bob.factory({ ttlMs: 60_000, cacheScope: 'private' }), identity);
    const aliceClient = await connect(aliceServer, { cache: { store, authContext: 'alice' } });
    const bobClient = await connect(bobServer, { cache: { store, authContext: 'bob' } });

    const aliceList = await aliceClient.skills.list();
    expect(aliceList).toMatchObject({ cacheScope: 'private' });
    expect(aliceList.skills.map((s) => s.frontmatter.name)).toEqual(['alice-notes']);
    const bobList = await bobClient.skills.list();
    expect(bobList.skills.map((s) => s.frontmatter.name)).toEqual(['bob-notes']);
    expect(bobServer.requestsOf('skills/list')).toHaveLength(1);

    await aliceClient.skills.read(aliceList.skills[0] as Skill);
    const crossed = await errorOf(
      bobClient.skills.get('skill://alice-notes/SKILL.md', { cacheMode: 'only-if-cached' }),
    );
    expect((crossed as { code?: number }).code).toBe(-33005); // a cache miss: alice's entry is not bob's
    expect((await aliceClient.skills.list()).skills.map((s) => s.frontmatter.name)).toEqual(['alice-notes']);
    expect(aliceServer.requestsOf('skills/list')).toHaveLength(1); // alice's own copy, from the cache
  });
});
