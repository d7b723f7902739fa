import { describe, expect, it } from 'vitest';
import { UriTemplateError } from '../../src/resources/errors.js';
import { parseUriTemplate } from '../../src/resources/uriTemplate.js';
import { connectedPair } from '../fakes/scriptedServer.js';
import { completeTemplateArgument, readTemplate } from '../../src/client/templates.js';

const TEMPLATE = { uriTemplate: 'travel://activities/{city}/{category}{?limit}', name: 'activities' };

describe('client.readTemplate', () => {
  it('expands the template and reads through the cache', async () => {
    const { client, server } = await connectedPair();
    server.on('resources/read', (request) => ({
      result: { contents: [{ uri: request['params']['uri'], text: 'ok' }], ttlMs: 60_000, cacheScope: 'public' },
    }));
    const first = await readTemplate(client, TEMPLATE, { city: 'São Paulo', category: 'museums', limit: 5 });
    expect(first.contents[0]?.uri).toBe('travel://activities/S%C3%A3o%20Paulo/museums?limit=5');
    const again = await readTemplate(client, TEMPLATE.uriTemplate, {
      city: 'São Paulo',
      category: 'museums',
      limit: '5',
    });
    expect(again).toBe(first);
    await readTemplate(client, parseUriTemplate(TEMPLATE.uriTemplate), { city: 'Lyon', category: 'parks' });
    expect(server.requests('resources/read').map((r) => r['params']['uri'])).toEqual([
      'travel://activities/S%C3%A3o%20Paulo/museums?limit=5',
      'travel://activities/Lyon/parks',
    ]);
  });

  it('sends nothing for a bad template or value, and names template and variable', async () => {
    const { client, server } = await connectedPair();
    await expect(readTemplate(client, 'travel://{city', {})).rejects.toMatchObject({
      data: { name: 'uriTemplate', template: 'travel://{city', position: 9 },
    });
    const error = await readTemplate(client, TEMPLATE, { city: { nested: {} } as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UriTemplateError);
    expect((error as UriTemplateError).data).toMatchObject({ template: TEMPLATE.uriTemplate, variable: 'city' });
    expect((error as Error).message).toContain(TEMPLATE.uriTemplate);
    expect(server.requests('resources/read')).toHaveLength(0);
  });
});

describe('client.completeTemplateArgument', () => {
  it('sends ref/resource with the template string, the argument and the context', async () => {
    const { client, server } = await connectedPair();
    server.on('completion/complete', () => ({
      result: { completion: { values: ['museums', 'music'], hasMore: false } },
    }));
    const result = await completeTemplateArgument(client, TEMPLATE, 'category', 'mu', { city: 'Paris' });
    expect(result.completion).toEqual({ values: ['museums', 'music'], hasMore: false });
    expect(server.requests('completion/complete')[0]?.['params']).toMatchObject({
      ref: { type: 'ref/resource', uri: TEMPLATE.uriTemplate },
      argument: { name: 'category', value: 'mu' },
      context: { arguments: { city: 'Paris' } },
    });
  });

  it('rejects a name that is not a variable of the template, sending nothing', async () => {
    const { client, server } = await connectedPair();
    const error = await completeTemplateArgument(client, TEMPLATE, 'country', 'f').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UriTemplateError);
    expect((error as UriTemplateError).data).toMatchObject({ name: 'name', value: 'country', variable: 'country' });
    expect(server.requests('completion/complete')).toHaveLength(0);
  });
});
