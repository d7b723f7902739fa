/** Pins the public surface of subscriptions and live lists (checked by tsc; trivially true at run time). */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  LiveList,
  McpClient,
  Prompt,
  Resource,
  ResourceTemplate,
  SubscribeOptions,
  Subscription,
  SubscriptionClosed,
  SubscriptionEvent,
  SubscriptionFilter,
  Tool,
} from '../../src/index.js';

describe('public types', () => {
  it('subscribe and live', () => {
    expectTypeOf<McpClient['subscribe']>().toEqualTypeOf<
      (filter: SubscriptionFilter, options?: SubscribeOptions) => Promise<Subscription>
    >();
    expectTypeOf(livePrompts).returns.resolves.toEqualTypeOf<LiveList<Prompt>>();
    expectTypeOf(liveTemplates).returns.resolves.toEqualTypeOf<LiveList<ResourceTemplate>>();
    expectTypeOf(liveResources).returns.resolves.toEqualTypeOf<LiveList<Resource>>();
    expectTypeOf(liveTools).returns.resolves.toHaveProperty('items').toEqualTypeOf<readonly Tool[]>();
    expectTypeOf<Subscription['closed']>().toEqualTypeOf<Promise<SubscriptionClosed>>();
    expectTypeOf<Subscription['on']>().toEqualTypeOf<(listener: (event: SubscriptionEvent) => void) => () => void>();
    expectTypeOf<Extract<SubscriptionEvent, { type: 'resourceUpdated' }>>().toEqualTypeOf<{
      type: 'resourceUpdated';
      uri: string;
    }>();
  });
});

function liveTools(client: McpClient) {
  return client.live('tools');
}
function livePrompts(client: McpClient) {
  return client.live('prompts');
}
function liveResources(client: McpClient) {
  return client.live('resources');
}
function liveTemplates(client: McpClient) {
  return client.live('resourceTemplates');
}
