/**
 * MCP content in each framework's own shapes: a tool result with text, an image, a PDF and a
 * resource link as the AI SDK's tool output and as LangChain content; a refusal and an error;
 * and the example server's PNG resource as an AI SDK user message.
 */
import { describe, expect, it } from 'vitest';
import { toAiSdkResourceMessage, toAiSdkToolOutput } from '../../src/aiSdk.js';
import { toLangChainContent } from '../../src/langchain.js';
import type { CallToolResult } from '../../src/index.js';
import { openHost } from './exampleHost.js';

const PNG = 'iVBORw0KGgo=';
const mixed: CallToolResult = {
  content: [
    { type: 'text', text: 'Two files:' },
    { type: 'image', mimeType: 'image/png', data: PNG },
    { type: 'resource', resource: { uri: 'file:///tmp/report.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
    { type: 'resource_link', uri: 'file:///tmp/notes.md', name: 'notes.md', mimeType: 'text/markdown' },
  ],
};

describe('content in the frameworks’ shapes', () => {
  it('the AI SDK: text only as text, media as file parts, a refusal as execution-denied, an error as error-text', () => {
    expect(
      toAiSdkToolOutput({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toEqual({
      type: 'text',
      value: 'a\n\nb',
    });
    expect(toAiSdkToolOutput(mixed)).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'Two files:' },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: PNG } },
        {
          type: 'file',
          mediaType: 'application/pdf',
          data: { type: 'data', data: 'JVBERi0=' },
          filename: 'report.pdf',
        },
        { type: 'text', text: 'Resource link: notes.md <file:///tmp/notes.md> (text/markdown)' },
      ],
    });
    expect(
      toAiSdkToolOutput({
        content: [{ type: 'text', text: 'The user declined to run x. It was not run.' }],
        _meta: { 'mcp-live/approval': { denied: true, reason: 'denied', deniedBy: 'user' } },
      }),
    ).toEqual({ type: 'execution-denied', reason: 'The user declined to run x. It was not run.' });
    expect(toAiSdkToolOutput({ content: [{ type: 'text', text: 'boom' }], isError: true })).toEqual({
      type: 'error-text',
      value: 'boom',
    });
    // What a conversation's history says a tool returned, when it is no MCP result: JSON, as the SDK would.
    expect(toAiSdkToolOutput({ sum: 42 })).toEqual({ type: 'json', value: { sum: 42 } });
  });

  it('LangChain: text only as a string, media as standard blocks', () => {
    expect(toLangChainContent([{ type: 'text', text: 'a' }])).toBe('a');
    expect(toLangChainContent(mixed.content)).toEqual([
      { type: 'text', text: 'Two files:' },
      { type: 'image', mimeType: 'image/png', data: PNG },
      { type: 'file', mimeType: 'application/pdf', data: 'JVBERi0=' },
      { type: 'text', text: 'Resource link: notes.md <file:///tmp/notes.md> (text/markdown)' },
    ]);
  });

  it("the example server's PNG resource as an AI SDK user message with a file part", async () => {
    const host = await openHost();
    const logo = host.resources().find((r) => r.resource.mimeType === 'image/png');
    if (logo === undefined) throw new Error('the example server lists a PNG resource');
    const message = toAiSdkResourceMessage(await host.readResource(logo.resource.uri));
    expect(message.role).toBe('user');
    expect(message.content).toEqual([
      expect.objectContaining({
        type: 'file',
        mediaType: 'image/png',
        data: { type: 'data', data: expect.any(String) },
      }),
    ]);
  });
});
