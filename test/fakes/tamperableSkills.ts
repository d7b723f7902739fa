/**
 * A Skills source (official `@modelcontextprotocol/server/ext/skills`, `SkillSource`) whose
 * entries are honest (built by the SDK's `skillEntry` from the files) and whose reads a test can
 * falsify: serve other bytes than the listed ones, list a frontmatter the file does not have, or
 * publish a `"dynamic"` skill. Served through the SDK's `SkillsExtension`, so the wire is the
 * official server's.
 */
import { McpServer, type McpServerFactory } from '@modelcontextprotocol/server';
import { SkillsExtension, skillEntry, type Skill, type SkillSource } from '@modelcontextprotocol/server/ext/skills';

export interface TestSkill {
  /** Skill path under `skill://` (`git-workflow`, `acme/refunds`). */
  path: string;
  /** Files by path relative to the skill's root; `SKILL.md` among them. */
  files: Record<string, string>;
  /** Fields that replace the entry's frontmatter (a listing that lies about the file). */
  listedFrontmatter?: Record<string, unknown>;
  /** Publish the entry with `resources: "dynamic"`. */
  dynamic?: boolean;
}

export class TamperableSkills {
  /** Content served instead of the file's, by URI. */
  readonly served = new Map<string, string>();
  /** How many `resources/read` of each URI the source answered. */
  readonly reads = new Map<string, number>();

  constructor(
    public skills: TestSkill[],
    private readonly pageSize = 100,
  ) {}

  async entries(): Promise<Skill[]> {
    const out: Skill[] = [];
    for (const skill of this.skills) {
      const entry = await skillEntry(skill.path, skill.files);
      const frontmatter = { ...entry.frontmatter, ...skill.listedFrontmatter };
      out.push(
        skill.dynamic === true ? { uri: entry.uri, frontmatter, resources: 'dynamic' } : { ...entry, frontmatter },
      );
    }
    return out;
  }

  source(): SkillSource {
    return {
      list: async ({ cursor }) => {
        const all = await this.entries();
        const start = cursor === undefined ? 0 : Number(cursor);
        const end = start + this.pageSize;
        return { skills: all.slice(start, end), ...(end < all.length && { nextCursor: String(end) }) };
      },
      get: async (uri) => (await this.entries()).find((e) => e.uri === uri),
      read: async (uri) => {
        this.reads.set(uri, (this.reads.get(uri) ?? 0) + 1);
        const override = this.served.get(uri);
        if (override !== undefined) return { text: override, mimeType: 'text/markdown' };
        for (const skill of this.skills) {
          const prefix = `skill://${skill.path}/`;
          if (!uri.startsWith(prefix)) continue;
          const text = skill.files[uri.slice(prefix.length)];
          if (text !== undefined) return { text, mimeType: 'text/markdown' };
        }
        return undefined;
      },
    };
  }

  /** Servers that serve this source, with `cacheHint` on every skills result and file. */
  factory(
    cacheHint: { ttlMs: number; cacheScope: 'public' | 'private' } = { ttlMs: 60_000, cacheScope: 'public' },
  ): McpServerFactory {
    const extension = new SkillsExtension({ source: this.source(), cacheHint, onWarning: () => {} });
    return () => {
      const mcp = new McpServer(
        { name: 'tamperable-skills', version: '0.0.0' },
        { capabilities: { resources: { listChanged: true } } },
      );
      extension.attach(mcp);
      return mcp;
    };
  }
}

/** A `SKILL.md` with this frontmatter and body. */
export function skillMd(name: string, description: string, body = `# ${name}\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}
