/**
 * A {@link CredentialStore} in one JSON file, for CLIs and desktop hosts. Node-only (exported
 * from `mcp-live/node`).
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CredentialStore } from './credentialStore.js';
import type { StoredClient, StoredTokens } from './types.js';

/** The file's content. */
interface FileContent {
  version: 1;
  tokens: Record<string, StoredTokens>;
  clients: Record<string, StoredClient>;
}

/**
 * Keeps tokens and registered clients in one JSON file (`{ version: 1, tokens, clients }`),
 * created with mode 0600 in a directory created with mode 0700.
 *
 * - Every read reads the file, so processes sharing it see each other's refreshes (the provider
 *   re-reads before it spends a refresh token).
 * - Writes in this process are serialized; each one reads the file, changes one entry and
 *   replaces the file atomically (write to a temporary file, then rename). Two processes
 *   writing at the same instant may lose one of the two changes, never corrupt the file.
 * - A missing file is an empty store; a file that is not valid JSON of this shape is an error
 *   (`SyntaxError` or `TypeError`), never silently overwritten.
 *
 * @example
 * import { FileCredentialStore } from 'mcp-live/node';
 * const store = new FileCredentialStore(join(homedir(), '.config', 'my-cli', 'mcp-credentials.json'));
 */
export class FileCredentialStore implements CredentialStore {
  private queue: Promise<unknown> = Promise.resolve();

  /** @param path where the file lives (created on the first write). */
  constructor(readonly path: string) {}

  async getTokens(serverKey: string): Promise<StoredTokens | undefined> {
    return (await this.read()).tokens[serverKey];
  }

  setTokens(serverKey: string, tokens: StoredTokens): Promise<void> {
    return this.update((content) => {
      content.tokens[serverKey] = tokens;
    });
  }

  deleteTokens(serverKey: string): Promise<void> {
    return this.update((content) => {
      delete content.tokens[serverKey];
    });
  }

  async getClient(issuer: string): Promise<StoredClient | undefined> {
    return (await this.read()).clients[issuer];
  }

  setClient(issuer: string, client: StoredClient): Promise<void> {
    return this.update((content) => {
      content.clients[issuer] = client;
    });
  }

  deleteClient(issuer: string): Promise<void> {
    return this.update((content) => {
      delete content.clients[issuer];
    });
  }

  private async read(): Promise<FileContent> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ENOENT') return empty();
      throw error;
    }
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || (value as { version?: unknown }).version !== 1) {
      throw new TypeError(`${this.path} is not an mcp-live credential file (version 1)`);
    }
    const content = value as Partial<FileContent>;
    return { version: 1, tokens: { ...content.tokens }, clients: { ...content.clients } };
  }

  private update(change: (content: FileContent) => void): Promise<void> {
    const run = this.queue.then(async () => {
      const content = await this.read();
      change(content);
      await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const temporary = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
        await chmod(temporary, 0o600);
        await rename(temporary, this.path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function empty(): FileContent {
  return { version: 1, tokens: {}, clients: {} };
}
