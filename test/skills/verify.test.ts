import { utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { SkillVerificationError } from '../../src/skills/errors.js';
import type { Skill } from '../../src/skills/types.js';
import { digestOf, verifyFile } from '../../src/skills/verify.js';

/** A skill whose entry lists `md` as its SKILL.md with the right size and digest. */
function entryFor(md: string, frontmatter: Record<string, unknown>): Skill {
  const bytes = utf8ToBytes(md);
  return {
    uri: 'skill://acme/x/SKILL.md',
    frontmatter: frontmatter as Skill['frontmatter'],
    resources: [{ uri: 'skill://acme/x/SKILL.md', digest: digestOf(bytes), size: bytes.byteLength }],
  };
}

function verify(md: string, frontmatter: Record<string, unknown>) {
  const skill = entryFor(md, frontmatter);
  const entry = skill.resources === 'dynamic' ? undefined : skill.resources[0];
  return verifyFile(skill, skill.uri, 'SKILL.md', { bytes: utf8ToBytes(md), text: md }, entry);
}

describe('verifyFile: the SKILL.md frontmatter (digest and size right)', () => {
  it('a frontmatter in the subset, equal to the entry: verified, parsed, body split', () => {
    const md = '---\nname: x\ndescription: >-\n  Process\n  refunds\nmetadata:\n  version: "1.0"\n---\nBody\n';
    const file = verify(md, { name: 'x', description: 'Process refunds', metadata: { version: '1.0' } });
    expect(file).toMatchObject({ verified: true, body: 'Body\n', frontmatter: { description: 'Process refunds' } });
  });

  it('YAML outside the subset: SkillVerificationError -33060 with the line and the offending text', () => {
    const md = '---\nname: x\ndescription: &d Process refunds\n---\nBody\n';
    let error: unknown;
    try {
      verify(md, { name: 'x', description: 'Process refunds' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SkillVerificationError);
    const e = error as SkillVerificationError;
    expect(e.code).toBe(-33060);
    expect(e.data).toMatchObject({
      reason: 'frontmatter',
      uri: 'skill://acme/x/SKILL.md',
      line: 3,
      value: '&d Process refunds',
    });
    expect(e.data.differences).toEqual([expect.stringContaining('anchors, aliases and tags are not supported')]);
  });

  it('a value typed differently from the entry is a difference (core schema: 1.0 is a number)', () => {
    const md = '---\nname: x\ndescription: d\nversion: 1.0\n---\n';
    expect(() => verify(md, { name: 'x', description: 'd', version: '1.0' })).toThrow(/version: listed "1.0", file 1/);
  });
});
