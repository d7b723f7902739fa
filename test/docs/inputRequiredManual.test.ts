/**
 * The manual-mode sample of docs/input-required.md, run against the example server: a host
 * that declares the capability itself and drives the retry.
 */
import { describe, expect, it } from 'vitest';
import { InputRequiredError, inputRetryFor, type ElicitResult, type InputRequiredResult } from '../../src/index.js';
import { exampleClient } from '../integration/exampleServer.js';

describe('docs/input-required.md, manual mode', () => {
  it('gets InputRequiredError, answers it, and retries with inputRetryFor', async () => {
    const { client } = exampleClient({ inputRequired: 'manual', capabilities: { elicitation: { form: {} } } });
    await client.connect();
    try {
      const args = { title: 'Printer on fire' };
      const error = await client.callTool('create_ticket', args).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputRequiredError);
      const { result } = (error as InputRequiredError).data as { result: InputRequiredResult };
      const responses: Record<string, ElicitResult> = {};
      for (const key of Object.keys(result.inputRequests ?? {}))
        responses[key] = { action: 'accept', content: { name: 'Ada' } };
      expect(Object.keys(responses)).toEqual(['owner']);
      const done = await client.callTool('create_ticket', args, {
        inputRetry: inputRetryFor('tools/call', result, responses),
      });
      expect(done.content[0]).toMatchObject({
        type: 'text',
        text: 'Ticket "Printer on fire" filed by Ada (priority normal).',
      });
    } finally {
      await client.close();
    }
  });
});
