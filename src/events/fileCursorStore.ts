/**
 * Cursors in one JSON file, for a single process that restarts: each write replaces the file
 * atomically (a temporary file in the same folder, then a rename), writes are serialised, and
 * the file is read once. Node-only (mcp-live/node).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CursorStore } from './cursorStore.js';

/** Options of {@link FileCursorStore}. */
export interface FileCursorStoreOptions {
  /** The file's path (its folder is made when missing). */
  path: string;
}

/** Cursors in the JSON file at `options.path` (see the file's opening comment). */
export class FileCursorStore implements CursorStore {
  private cursors: Promise<Map<string, string>> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly options: FileCursorStoreOptions) {}

  private load(): Promise<Map<string, string>> {
    return (this.cursors ??= readFile(this.options.path, 'utf8').then(
      (text) => {
        const parsed: unknown = JSON.parse(text);
        const map = new Map<string, string>();
        if (typeof parsed === 'object' && parsed !== null)
          for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') map.set(key, value);
        return map;
      },
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return new Map<string, string>();
        this.cursors = undefined;
        throw error;
      },
    ));
  }

  /** The cursor kept under `key` (the file is read on the first call); `undefined` when none was. */
  async get(key: string): Promise<string | undefined> {
    return (await this.load()).get(key);
  }

  /** Keeps `cursor` under `key`; resolves once the file was replaced. */
  set(key: string, cursor: string): Promise<void> {
    return this.write((map) => map.set(key, cursor));
  }

  /** Forgets `key`; resolves once the file was replaced. */
  delete(key: string): Promise<void> {
    return this.write((map) => map.delete(key));
  }

  private write(change: (map: Map<string, string>) => void): Promise<void> {
    const next = this.writing.then(async () => {
      const map = await this.load();
      change(map);
      const temporary = `${this.options.path}.${process.pid}.tmp`;
      await mkdir(dirname(this.options.path), { recursive: true });
      await writeFile(temporary, JSON.stringify(Object.fromEntries(map)), { mode: 0o600 });
      await rename(temporary, this.options.path);
    });
    this.writing = next.catch(() => undefined);
    return next;
  }
}
