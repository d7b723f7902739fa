/**
 * ToolOutputValidators: the validator library is loaded on demand (a tool with an `outputSchema`
 * listed), so results of tools without one are checked synchronously, with nothing loaded.
 */
import { describe, expect, it } from 'vitest';
import { ToolOutputValidationError, ToolOutputValidators } from '../../src/client/outputValidation.js';
import type { Tool } from '../../src/wire/protocol.js';

const plain = { name: 'plain', inputSchema: { type: 'object' } } as Tool;
const typed = {
  name: 'typed',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
} as Tool;

describe('ToolOutputValidators', () => {
  it('passes a tool without an outputSchema (and an isError result) synchronously', () => {
    const validators = new ToolOutputValidators(() => {});
    validators.learn([plain, typed]);
    expect(validators.check('plain', { content: [] })).toBeUndefined();
    expect(validators.check('unknown', { content: [] })).toBeUndefined();
    expect(validators.check('typed', { content: [], isError: true })).toBeUndefined();
  });

  it('checks a declared outputSchema, waiting for the validator on first use, synchronously after', async () => {
    const validators = new ToolOutputValidators(() => {});
    validators.learn([typed]);
    await expect(validators.check('typed', { content: [], structuredContent: { n: 'x' } })).rejects.toBeInstanceOf(
      ToolOutputValidationError,
    );
    expect(validators.check('typed', { content: [], structuredContent: { n: 1 } })).toBeUndefined();
    expect(() => validators.check('typed', { content: [] })).toThrow(ToolOutputValidationError);
  });
});
