/**
 * Resource templates, completion and resource links against the example server (the official
 * @modelcontextprotocol/server v2) over a real stdio pipe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpClient } from '../../src/client/client.js';
import { ResourceNotFoundError } from '../../src/errors/errors.js';
import { selectByAnnotations } from '../../src/resources/annotations.js';
import { matchUriTemplate } from '../../src/resources/uriTemplateMatch.js';
import type { ResourceTemplate } from '../../src/wire/protocol.js';
import { exampleClient } from './exampleServer.js';
import { completeTemplateArgument, readTemplate } from '../../src/client/templates.js';

let client: McpClient;
let templates: ResourceTemplate[];
const errors: Error[] = [];
const template = (uriTemplate: string) => templates.find((t) => t.uriTemplate === uriTemplate) as ResourceTemplate;

beforeAll(async () => {
  ({ client } = exampleClient({ onError: (error) => errors.push(error) }));
  await client.connect();
  templates = (await client.listAllResourceTemplates()).items;
});

afterAll(async () => {
  await client.close();
});

describe('resource templates against the example server', () => {
  it('lists the templates and reads one with variables', async () => {
    expect(templates.map((t) => t.uriTemplate)).toEqual([
      'demo://greeting/{name}',
      'demo://menu/{cuisine}/{dish}',
      'demo://items/{n}',
    ]);
    const result = await readTemplate(client, template('demo://menu/{cuisine}/{dish}'), {
      cuisine: 'japanese',
      dish: 'ramen',
    });
    expect(result.contents).toEqual([
      { uri: 'demo://menu/japanese/ramen', mimeType: 'text/plain', text: 'ramen, from the japanese menu.' },
    ]);
    const greeting = await readTemplate(client, 'demo://greeting/{name}', { name: 'Ada Lovelace' });
    expect(greeting.contents[0]).toMatchObject({ uri: 'demo://greeting/Ada%20Lovelace', text: 'Hello, Ada Lovelace!' });
    await expect(
      readTemplate(client, template('demo://menu/{cuisine}/{dish}'), { cuisine: 'japanese', dish: 'pizza' }),
    ).rejects.toBeInstanceOf(ResourceNotFoundError);
  });

  it('completes a variable, with the variables already chosen as context', async () => {
    const menu = template('demo://menu/{cuisine}/{dish}');
    expect((await completeTemplateArgument(client, menu, 'cuisine', 'i')).completion.values).toEqual([
      'italian',
      'indian',
    ]);
    expect(
      (await completeTemplateArgument(client, menu, 'dish', 't', { cuisine: 'mexican' })).completion.values,
    ).toEqual(['tacos', 'tamales', 'tostadas']);
    expect((await completeTemplateArgument(client, menu, 'dish', 't')).completion.values).toEqual([
      'tiramisu',
      'tempura',
      'tacos',
      'tamales',
      'tostadas',
      'tandoori',
    ]);
  });

  it('a completer as a user types: one request for a burst, total and hasMore as sent', async () => {
    const completer = client.completer({ type: 'ref/resource', uri: 'demo://items/{n}' }, { debounceMs: 20 });
    const typed = ['1', '12', '123'].map((value) => completer.complete('n', value));
    const outcomes = await Promise.all(typed);
    expect(outcomes.map((o) => o.status)).toEqual(['superseded', 'superseded', 'completed']);
    expect(outcomes[2]).toMatchObject({ values: ['123'], source: 'server' });
    const all = await completer.complete('n', '');
    expect(all).toMatchObject({ status: 'completed', total: 250, hasMore: true, trimmed: 0 });
    expect(all.status === 'completed' && all.values).toHaveLength(100);
    expect(await completer.complete('n', '')).toMatchObject({ source: 'cache' });
    completer.close();
  });

  it('reads the resource links of a tool result, and labels them with the template that matches', async () => {
    const result = await client.callTool('get_item_link', { n: 7 });
    const reads = await client.readResourceLinks(result);
    expect(reads).toHaveLength(1);
    expect(reads[0]?.result?.contents[0]).toMatchObject({
      uri: 'demo://items/7',
      text: expect.stringContaining('Item 7'),
    });
    const match = matchUriTemplate(reads[0]?.link.uri ?? '', templates);
    expect(match).toMatchObject({ template: { name: 'item' }, variables: { n: '7' } });
    expect(selectByAnnotations(result.content, { audience: 'assistant' })).toHaveLength(2);
    expect(errors).toEqual([]);
  });
});
