/**
 * The example skills server's catalog: a few Agent Skills in memory, served through the official
 * server's Skills extension (`@modelcontextprotocol/server/ext/skills`, SEP-2640): `skills/list`
 * (paged), `skills/get`, the files as `skill://` resources with digests, and
 * `resources/directory/read`. Shared by examples/skillsServer.ts (stdio) and the tests, which
 * build servers in their own process from it.
 */
import { McpServer, type McpServerFactory } from '@modelcontextprotocol/server';
import { SkillsExtension, memorySkillFiles, type SkillCatalog } from '@modelcontextprotocol/server/ext/skills';

export const SKILLS_SERVER_NAME = 'mcp-live-skills-example';

/** The skills, as files under a folder of skill folders. */
export const EXAMPLE_SKILL_FILES: Readonly<Record<string, string>> = Object.freeze({
  'release-notes/SKILL.md': [
    '---',
    'name: release-notes',
    'description: Write release notes for a version from its merged changes',
    'license: MIT',
    'metadata:',
    '  version: "1.2"',
    '---',
    '# Release notes',
    '',
    'Follow references/STYLE.md. Pick a template from templates/ (minor.md or major.md).',
    '',
  ].join('\n'),
  'release-notes/references/STYLE.md': '# Style\n\nOne line per change, past tense, user terms.\n',
  'release-notes/templates/minor.md': '## {version}\n\n### Fixed\n\n- ...\n',
  'release-notes/templates/major.md': '## {version}\n\n### Breaking\n\n- ...\n',
  'code-review/SKILL.md': [
    '---',
    'name: code-review',
    'description: Review a change for correctness, tests and naming',
    '---',
    '# Code review',
    '',
    'Read the diff twice. See checklist.md.',
    '',
  ].join('\n'),
  'code-review/checklist.md': '- Tests fail without the change\n- Names say what, not how\n',
  'triage/SKILL.md': [
    '---',
    'name: triage',
    'description: Sort new issues by area and urgency',
    '---',
    '# Triage',
    '',
  ].join('\n'),
});

/** Options of {@link loadSkillsCatalog}. */
export interface SkillsCatalogOptions {
  /** The files (default {@link EXAMPLE_SKILL_FILES}); a test may change the record and `reload()`. */
  files?: Record<string, string | Uint8Array>;
  /** Entries per `skills/list` and directory page. @default 2 */
  pageSize?: number;
  /** `ttlMs` / `cacheScope` of every skills result and skill file. @default 60 s, public */
  cacheHint?: { ttlMs: number; cacheScope: 'public' | 'private' };
}

/** Builds the catalog (it reads the files once; `reload()` reads them again). */
export function loadSkillsCatalog(options: SkillsCatalogOptions = {}): Promise<SkillCatalog> {
  return SkillsExtension.load(memorySkillFiles(options.files ?? { ...EXAMPLE_SKILL_FILES }), {
    pageSize: options.pageSize ?? 2,
    cacheHint: options.cacheHint ?? { ttlMs: 60_000, cacheScope: 'public' },
    onWarning: (warning) => process.stderr.write(`[${SKILLS_SERVER_NAME}] ${warning.path}: ${warning.message}\n`),
  });
}

/** A factory of servers that serve `catalog` (one `McpServer` per connection or request). */
export function skillsServerFactory(catalog: SkillCatalog, name = SKILLS_SERVER_NAME): McpServerFactory {
  return () => {
    const mcp = new McpServer(
      { name, version: '0.1.0' },
      {
        instructions: 'Agent Skills over MCP (SEP-2640): skills/list, then read skill://<name>/SKILL.md.',
        capabilities: { resources: { listChanged: true } },
      },
    );
    catalog.attach(mcp);
    return mcp;
  };
}
