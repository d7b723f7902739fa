/**
 * The published declarations, compiled the way consumers compile them (skipLibCheck off):
 * `await using` on the client, a subscription and a transport type-checks in a browser project
 * (lib dom + esnext.disposable, no Node types) and in a Node project (@types/node, which
 * declares the disposal symbols itself); and a project with neither still compiles the package.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_TIMEOUT_MS, ROOT, packTarball, type PackedPackage } from './packedTarball.js';

let pkg: PackedPackage;
beforeAll(async () => {
  pkg = await packTarball();
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await pkg?.remove();
});

const USING = `
import { McpClient, StreamableHttpTransport } from 'mcp-live';
export async function main(): Promise<string | undefined> {
  await using client = new McpClient({
    transport: new StreamableHttpTransport('http://127.0.0.1:3000/mcp'),
    clientInfo: { name: 'consumer', version: '1.0.0' },
  });
  await client.connect();
  await using sub = await client.subscribe({ toolsListChanged: true });
  await using transport = new StreamableHttpTransport('http://127.0.0.1:3000/mcp');
  return sub.state + transport.serverIdentity;
}
`;

const PLAIN = `
import { McpClient, StreamableHttpTransport } from 'mcp-live';
export async function main(): Promise<void> {
  const client = new McpClient({
    transport: new StreamableHttpTransport('http://127.0.0.1:3000/mcp'),
    clientInfo: { name: 'consumer', version: '1.0.0' },
  });
  await client.connect();
  await client.close();
}
`;

/** Diagnostics of compiling `source` as the scratch project's consumer.ts under `options`. */
async function compile(name: string, source: string, options: ts.CompilerOptions): Promise<string[]> {
  const file = join(pkg.scratch, `${name}.ts`);
  await writeFile(file, source);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    // TypeScript's own lib files are not ours to check (and checking lib.dom costs seconds).
    skipDefaultLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    typeRoots: [join(ROOT, 'node_modules/@types')],
    ...options,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('the declarations, as consumers compile them', () => {
  it('await using in a browser project (lib dom + esnext.disposable, no Node types)', async () => {
    const errors = await compile('browser', USING, {
      lib: ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts', 'lib.dom.d.ts'],
      types: [],
    });
    expect(errors).toEqual([]);
  }, 60_000);

  it('await using in a Node project (@types/node)', async () => {
    const errors = await compile('node', USING, {
      lib: ['lib.es2023.d.ts'],
      types: ['node'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    });
    expect(errors).toEqual([]);
  }, 60_000);

  it('a project with neither still compiles the package', async () => {
    const errors = await compile('plain', PLAIN, { lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] });
    expect(errors).toEqual([]);
  }, 60_000);
});
