/**
 * Reading a host configuration file (Node; exported by `mcp-live/node`).
 */
import { readFile } from 'node:fs/promises';
import type { ParseError } from 'jsonc-parser';
import { parseHostConfig, type HostConfig, type ParseHostConfigOptions } from './config.js';
import { HostConfigError } from '../catalog/errors.js';

/**
 * Reads and parses a configuration file: Claude Desktop's `claude_desktop_config.json`,
 * Cursor's `mcp.json`, Claude Code's `.mcp.json` (`mcpServers`) or VS Code's `mcp.json`
 * (`servers`; comments and trailing commas allowed, as VS Code allows them). Variables expand
 * from `options.env`, `process.env` by default. See `parseHostConfig` for the entries.
 * @throws HostConfigError (-33050, `data.field: "(file)"`) when the file cannot be read or is
 *   not JSON (the reason names the path, and the line and column); in strict mode, for the
 *   first malformed entry. A missing file's `cause` is the Node error (ENOENT).
 */
export async function loadHostConfig(path: string, options: ParseHostConfigOptions = {}): Promise<HostConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    throw withCause(
      new HostConfigError({
        server: undefined,
        field: '(file)',
        reason: `cannot read ${path}${typeof code === 'string' ? ` (${code})` : ''}`,
      }),
      error,
    );
  }
  // Loaded here, on the first config read: importing mcp-live/node costs nothing for it.
  const loaded = await import('jsonc-parser');
  // From ESM its UMD build is `default`; through the CJS build's require() interop it is the module itself.
  const jsonc = (loaded.default as typeof loaded.default | undefined) ?? loaded;
  const errors: ParseError[] = [];
  const json: unknown = jsonc.parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const [first] = errors;
  if (first !== undefined) {
    const { line, column } = position(text, first.offset);
    throw new HostConfigError({
      server: undefined,
      field: '(file)',
      reason: `${path}:${line}:${column} is not JSON (${jsonc.printParseErrorCode(first.error)})`,
    });
  }
  return parseHostConfig(json, { ...options, env: options.env ?? process.env });
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function withCause(error: HostConfigError, cause: unknown): HostConfigError {
  Object.defineProperty(error, 'cause', { value: cause, writable: true, configurable: true });
  return error;
}
