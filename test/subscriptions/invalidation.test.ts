import { describe, expect, it } from 'vitest';
import {
  describeInvalidation,
  interpretChange,
  isChangeNotification,
  LIST_CHANGED,
} from '../../src/subscriptions/invalidation.js';
import { invalidationsForFilter } from '../../src/subscriptions/filterInvalidations.js';

describe('the notification → invalidation table', () => {
  it('list_changed drops that list (resources: its templates too) and names its event', () => {
    expect(interpretChange('notifications/tools/list_changed', {})).toEqual({
      invalidations: [{ kind: 'list', method: 'tools/list' }],
      event: { type: 'toolsListChanged' },
      flag: 'toolsListChanged',
    });
    expect(interpretChange('notifications/prompts/list_changed', undefined)).toEqual({
      invalidations: [{ kind: 'list', method: 'prompts/list' }],
      event: { type: 'promptsListChanged' },
      flag: 'promptsListChanged',
    });
    expect(interpretChange('notifications/resources/list_changed', {})?.invalidations).toEqual([
      { kind: 'list', method: 'resources/list' },
      { kind: 'list', method: 'resources/templates/list' },
      { kind: 'list', method: 'skills/list' },
      { kind: 'method', method: 'skills/get' },
      { kind: 'method', method: 'resources/directory/read' },
    ]);
  });

  it('resources/updated drops the uri (and what is under it, in the cache) and carries the uri', () => {
    expect(interpretChange('notifications/resources/updated', { uri: 'file:///b.json' })).toEqual({
      invalidations: [{ kind: 'uri', uri: 'file:///b.json' }],
      event: { type: 'resourceUpdated', uri: 'file:///b.json' },
      flag: 'resourceSubscriptions',
    });
  });

  it('a resources/updated without a uri, and any other method, mean nothing', () => {
    expect(interpretChange('notifications/resources/updated', {})).toBeUndefined();
    expect(interpretChange('notifications/resources/updated', { uri: 7 })).toBeUndefined();
    expect(interpretChange('notifications/message', {})).toBeUndefined();
    expect(interpretChange('toString', {})).toBeUndefined();
    expect(isChangeNotification('constructor')).toBe(false);
    expect(isChangeNotification('notifications/resources/updated')).toBe(true);
  });

  it('a filter covers every list its flags name and every subscribed uri', () => {
    expect(
      invalidationsForFilter({
        toolsListChanged: true,
        resourcesListChanged: true,
        resourceSubscriptions: ['a', 'b'],
      }).map(describeInvalidation),
    ).toEqual([
      'list tools/list',
      'list resources/list',
      'list resources/templates/list',
      'list skills/list',
      'method skills/get',
      'method resources/directory/read',
      'uri a',
      'uri b',
    ]);
    expect(invalidationsForFilter({})).toEqual([]);
  });

  it('the table is frozen', () => {
    expect(Object.isFrozen(LIST_CHANGED)).toBe(true);
  });
});
