/**
 * Form-mode elicitation at the terminal: the server's question and one prompt per field, on
 * stderr (stdout stays the command's output). Registered only when stdin is a terminal, so
 * a non-interactive run never declares the capability.
 */
import { createInterface } from 'node:readline/promises';
import type { ElicitResult, FormElicitationHandler } from '../index.js';
import type { OutStream } from './io.js';

type FieldSchema = { type?: unknown; description?: unknown; title?: unknown; enum?: unknown; default?: unknown };

export function terminalElicitation(stdin: NodeJS.ReadableStream, stderr: OutStream): FormElicitationHandler {
  return async (params, { signal }): Promise<ElicitResult> => {
    const properties = params.requestedSchema.properties as Record<string, FieldSchema>;
    const required = new Set(params.requestedSchema.required ?? []);
    stderr.write(`The server asks: ${params.message}\n(an empty answer skips an optional field; Ctrl-D declines)\n`);
    // Lines are read through the iterator, which buffers them: typed-ahead answers are kept.
    const rl = createInterface({ input: stdin, terminal: false });
    const lines = rl[Symbol.asyncIterator]();
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    aborted.catch(() => {});
    try {
      const content: NonNullable<ElicitResult['content']> = {};
      for (const [field, schema] of Object.entries(properties)) {
        const hints = [
          typeof schema.description === 'string' ? schema.description : undefined,
          Array.isArray(schema.enum) ? `one of ${schema.enum.join('|')}` : undefined,
          typeof schema.type === 'string' && schema.type !== 'string' ? schema.type : undefined,
          required.has(field) ? 'required' : undefined,
        ].filter((h) => h !== undefined);
        stderr.write(`  ${field}${hints.length > 0 ? ` (${hints.join('; ')})` : ''}: `);
        const next = await Promise.race([lines.next(), aborted]);
        if (next.done === true) {
          stderr.write('\n');
          return { action: 'decline' };
        }
        const answer = next.value.trim();
        if (answer === '') continue;
        if (schema.type === 'number' || schema.type === 'integer') content[field] = Number(answer);
        else if (schema.type === 'boolean') content[field] = /^(y|yes|true|1)$/i.test(answer);
        else content[field] = answer;
      }
      return { action: 'accept', content };
    } finally {
      rl.close();
    }
  };
}
