import { describe, expect, it } from 'vitest';
import {
  checkFilter,
  filterMinus,
  filterUnion,
  isEmptyFilter,
  narrowToCapabilities,
  readAcknowledged,
} from '../../src/subscriptions/filter.js';
import { InvalidArgumentError } from '../../src/errors/errors.js';

describe('checkFilter', () => {
  it('keeps true flags and unique uris, drops false flags and empty arrays', () => {
    expect(
      checkFilter({ toolsListChanged: true, promptsListChanged: false, resourceSubscriptions: ['a', 'b', 'a'] }),
    ).toEqual({ toolsListChanged: true, resourceSubscriptions: ['a', 'b'] });
    expect(checkFilter({ resourcesListChanged: true, resourceSubscriptions: [] })).toEqual({
      resourcesListChanged: true,
    });
  });

  it.each([
    ['not an object', null],
    ['an array', [] as unknown],
    ['a non-boolean flag', { toolsListChanged: 'yes' }],
    ['uris that are not strings', { resourceSubscriptions: [1] }],
    ['an empty uri', { resourceSubscriptions: [''] }],
    ['asks for nothing', { toolsListChanged: false }],
    ['is empty', {}],
  ])('throws InvalidArgumentError (-32602) when the filter is %s', (_label, value) => {
    expect(() => checkFilter(value)).toThrow(InvalidArgumentError);
    try {
      checkFilter(value);
    } catch (error) {
      expect((error as InvalidArgumentError).code).toBe(-32602);
    }
  });
});

describe('narrowToCapabilities', () => {
  const all = {
    toolsListChanged: true,
    promptsListChanged: true,
    resourcesListChanged: true,
    resourceSubscriptions: ['demo://a'],
  } as const;

  it('asks only for what the capabilities say the server can deliver', () => {
    const { deliverable, unsupported } = narrowToCapabilities(
      { ...all, resourceSubscriptions: ['demo://a'] },
      { tools: { listChanged: true }, resources: { subscribe: true } },
    );
    expect(deliverable).toEqual({ toolsListChanged: true, resourceSubscriptions: ['demo://a'] });
    expect(unsupported).toEqual({ promptsListChanged: true, resourcesListChanged: true });
  });

  it('a capability object without listChanged, or no capabilities at all, delivers nothing', () => {
    expect(
      narrowToCapabilities({ ...all, resourceSubscriptions: ['x'] }, { tools: {}, prompts: {}, resources: {} })
        .deliverable,
    ).toEqual({});
    expect(narrowToCapabilities({ toolsListChanged: true }, undefined).unsupported).toEqual({ toolsListChanged: true });
  });
});

describe('readAcknowledged', () => {
  it('keeps only what was requested and acknowledged, in the requested order', () => {
    const requested = { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['a', 'b', 'c'] };
    expect(
      readAcknowledged(
        { toolsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['c', 'a', 'zzz'] },
        requested,
      ),
    ).toEqual({ toolsListChanged: true, resourceSubscriptions: ['a', 'c'] });
  });

  it('treats anything but an object as nothing honoured', () => {
    expect(readAcknowledged(undefined, { toolsListChanged: true })).toEqual({});
    expect(readAcknowledged('all', { toolsListChanged: true })).toEqual({});
  });
});

describe('filter arithmetic', () => {
  it('minus, union, empty', () => {
    expect(
      filterMinus(
        { toolsListChanged: true, resourceSubscriptions: ['a', 'b'] },
        { toolsListChanged: true, resourceSubscriptions: ['a'] },
      ),
    ).toEqual({ resourceSubscriptions: ['b'] });
    expect(
      filterUnion(
        { toolsListChanged: true, resourceSubscriptions: ['a'] },
        { promptsListChanged: true, resourceSubscriptions: ['a', 'b'] },
      ),
    ).toEqual({ toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ['a', 'b'] });
    expect(isEmptyFilter({})).toBe(true);
    expect(isEmptyFilter({ resourceSubscriptions: [] })).toBe(true);
    expect(isEmptyFilter({ resourcesListChanged: true })).toBe(false);
  });
});

describe('taskIds (Tasks extension)', () => {
  const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

  it('checks and normalizes taskIds; a filter of task ids alone asks for something', () => {
    expect(checkFilter({ taskIds: ['t1', 't2', 't1'] })).toEqual({ taskIds: ['t1', 't2'] });
    expect(() => checkFilter({ taskIds: [''] })).toThrow(InvalidArgumentError);
    expect(() => checkFilter({ taskIds: 't1' })).toThrow(InvalidArgumentError);
    expect(() => checkFilter({ taskIds: [] })).toThrow(InvalidArgumentError);
    expect(isEmptyFilter({ taskIds: ['t1'] })).toBe(false);
  });

  it('asks for task ids only when the server lists the extension', () => {
    expect(narrowToCapabilities({ taskIds: ['t1'] }, TASKS)).toEqual({
      deliverable: { taskIds: ['t1'] },
      unsupported: {},
    });
    expect(narrowToCapabilities({ taskIds: ['t1'] }, { tools: {} })).toEqual({
      deliverable: {},
      unsupported: { taskIds: ['t1'] },
    });
    expect(
      narrowToCapabilities({ taskIds: ['t1'] }, { extensions: { 'io.modelcontextprotocol/tasks': true } } as never),
    ).toEqual({ deliverable: {}, unsupported: { taskIds: ['t1'] } });
  });

  it('the acknowledgment honours only the ids asked for; minus and union carry them', () => {
    expect(readAcknowledged({ taskIds: ['t2', 'x', 7] }, { taskIds: ['t1', 't2'] })).toEqual({ taskIds: ['t2'] });
    expect(readAcknowledged({ taskIds: 't1' }, { taskIds: ['t1'] })).toEqual({});
    expect(filterMinus({ taskIds: ['t1', 't2'] }, { taskIds: ['t2'] })).toEqual({ taskIds: ['t1'] });
    expect(filterUnion({ taskIds: ['t1'] }, { taskIds: ['t2', 't1'] })).toEqual({ taskIds: ['t1', 't2'] });
  });
});
