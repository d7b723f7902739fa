import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SkillVerificationError } from '../../src/skills/errors.js';
import type { Skill } from '../../src/skills/types.js';
import { digestOf, verifyFile } from '../../src/skills/verify.js';

const utf8ToBytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A skill whose entry lists `md` as its SKILL.md with the right size and digest. */
function entryFor(md: string, frontmatter: Record<string, unknown>): Skill {
  const bytes = utf8ToBytes(md);
  return {
    uri: 'skill://acme/x/SKILL.md',
    frontmatter: frontmatter as Skill['frontmatter'],
    resources: [
      {
        uri: 'skill://acme/x/SKILL.md',
        digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
        size: bytes.byteLength,
      },
    ],
  };
}

function verify(md: string, frontmatter: Record<string, unknown>) {
  const skill = entryFor(md, frontmatter);
  const entry = skill.resources === 'dynamic' ? undefined : skill.resources[0];
  return verifyFile(skill, skill.uri, 'SKILL.md', { bytes: utf8ToBytes(md), text: md }, entry);
}

describe('verifyFile: the SKILL.md frontmatter (digest and size right)', () => {
  it('a frontmatter in the subset, equal to the entry: verified, parsed, body split', async () => {
    const md = '---\nname: x\ndescription: >-\n  Process\n  refunds\nmetadata:\n  version: "1.0"\n---\nBody\n';
    const file = await verify(md, { name: 'x', description: 'Process refunds', metadata: { version: '1.0' } });
    expect(file).toMatchObject({ verified: true, body: 'Body\n', frontmatter: { description: 'Process refunds' } });
  });

  it('YAML outside the subset: SkillVerificationError -33060 with the line and the offending text', async () => {
    const md = '---\nname: x\ndescription: &d Process refunds\n---\nBody\n';
    const error: unknown = await verify(md, { name: 'x', description: 'Process refunds' }).catch((e: unknown) => e);
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

  it('a value typed differently from the entry is a difference (core schema: 1.0 is a number)', async () => {
    const md = '---\nname: x\ndescription: d\nversion: 1.0\n---\n';
    await expect(verify(md, { name: 'x', description: 'd', version: '1.0' })).rejects.toThrow(
      /version: listed "1.0", file 1/,
    );
  });
});

describe('digestOf', () => {
  const bytes = new TextEncoder().encode('héllo\n');
  const expected = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

  it('is the SHA-256 of the bytes by WebCrypto', async () => {
    expect(await digestOf(bytes)).toBe(expected);
    expect(await digestOf(new Uint8Array(0))).toBe(
      'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
  });

  it('is the same by @noble/hashes where there is no crypto.subtle (a page that is not a secure context)', async () => {
    const crypto = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    try {
      expect(await digestOf(bytes)).toBe(expected);
    } finally {
      Object.defineProperty(globalThis, 'crypto', crypto);
    }
  });
});
