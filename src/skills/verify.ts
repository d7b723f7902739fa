/**
 * Verifying one read skill file against its entry (SEP-2640, Integrity and verification): the
 * bytes of the content item the server sent for the URI, their size and SHA-256 against the
 * listing, and for the skill's own `SKILL.md` its frontmatter against the entry's. Pure but for
 * the digest, which is WebCrypto's where it exists.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { isObject } from '../wire/messages.js';
import type { ReadResourceResult } from '../wire/protocol.js';
import { SkillVerificationError } from './errors.js';
import { frontmatterDifferences, splitSkillMd } from './frontmatter.js';
import { FrontmatterSyntaxError } from './frontmatterYaml.js';
import type { Skill, SkillFile, SkillResourceEntry } from './types.js';
import { canonicalUri } from './uris.js';

/** The content of one file as read: its bytes and, when sent as text, the text. */
export interface ReadBytes {
  bytes: Uint8Array;
  text?: string | undefined;
  mimeType?: string | undefined;
}

/**
 * The item of a `resources/read` result that is the file: the one whose `uri` is the file's
 * (either spelling), else the only item. `undefined` when there is none.
 */
export function fileContents(result: ReadResourceResult, uri: string): ReadBytes | undefined {
  const items = Array.isArray(result.contents) ? result.contents : [];
  const wanted = canonicalUri(uri);
  const item =
    items.find((c) => isObject(c) && typeof c.uri === 'string' && canonicalUri(c.uri) === wanted) ??
    (items.length === 1 ? items[0] : undefined);
  if (!isObject(item)) return undefined;
  const mimeType = typeof item.mimeType === 'string' ? item.mimeType : undefined;
  if ('text' in item && typeof item.text === 'string')
    return { bytes: new TextEncoder().encode(item.text), text: item.text, mimeType };
  if ('blob' in item && typeof item.blob === 'string') return { bytes: decodeBase64(item.blob), mimeType };
  return undefined;
}

/**
 * `sha256:` and the lowercase hex SHA-256 of `bytes`: by `crypto.subtle` where it exists (Node,
 * Deno, Bun, a secure browser context), else by `@noble/hashes` (in the initial load already:
 * the client's credential ids use it).
 */
export async function digestOf(bytes: Uint8Array): Promise<string> {
  const subtle = (globalThis.crypto as Crypto | undefined)?.subtle;
  const hash =
    subtle === undefined
      ? sha256(bytes)
      : new Uint8Array(await subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return `sha256:${Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Checks `read` against `entry` (absent for a `"dynamic"` skill: then only the frontmatter is
 * checked) and builds the {@link SkillFile}.
 * @throws SkillVerificationError `size`, `digest` or `frontmatter`.
 */
export async function verifyFile(
  skill: Skill,
  uri: string,
  path: string,
  read: ReadBytes,
  entry: SkillResourceEntry | undefined,
): Promise<SkillFile> {
  const fail = (
    reason: 'size' | 'digest' | 'frontmatter',
    message: string,
    extra: {
      expected?: string | number;
      actual?: string | number;
      differences?: string[];
      line?: number;
      value?: string;
    } = {},
  ): never => {
    throw new SkillVerificationError(
      {
        reason,
        uri,
        skill: skill.uri,
        differences: extra.differences ?? [],
        expected: extra.expected,
        actual: extra.actual,
        ...(extra.line !== undefined && { line: extra.line, value: extra.value }),
      },
      message,
    );
  };
  if (entry !== undefined) {
    if (read.bytes.byteLength !== entry.size)
      fail('size', `${read.bytes.byteLength} bytes, the listing says ${entry.size}`, {
        expected: entry.size,
        actual: read.bytes.byteLength,
      });
    const digest = await digestOf(read.bytes);
    if (digest !== entry.digest)
      fail('digest', `SHA-256 ${digest}, the listing says ${entry.digest}`, { expected: entry.digest, actual: digest });
  }
  const file: SkillFile = {
    uri,
    skill,
    path,
    mimeType: read.mimeType,
    bytes: read.bytes,
    text: read.text,
    verified: entry !== undefined,
  };
  if (canonicalUri(uri) !== canonicalUri(skill.uri)) return file;
  const text = read.text ?? new TextDecoder('utf-8', { fatal: false }).decode(read.bytes);
  let split;
  try {
    split = splitSkillMd(text);
  } catch (error) {
    if (!(error instanceof FrontmatterSyntaxError)) throw error;
    return fail('frontmatter', `frontmatter cannot be read: ${error.message}`, {
      differences: [error.message],
      line: error.line,
      value: error.value,
    });
  }
  const differences = frontmatterDifferences(split.frontmatter, skill.frontmatter);
  if (differences.length > 0)
    fail('frontmatter', `frontmatter differs from the listing (${differences.join('; ')})`, { differences });
  return { ...file, text, frontmatter: split.frontmatter, body: split.body };
}

function decodeBase64(value: string): Uint8Array {
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
