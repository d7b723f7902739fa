/** Scope arithmetic of the authorization flow (spec: basic/authorization, scope selection and step-up). */
import { describe, expect, it } from 'vitest';
import {
  coversScopes,
  parseScopes,
  scopeKey,
  selectInitialScopes,
  selectStepUpScopes,
  unionScopes,
} from '../../src/auth/scopes.js';

describe('scope helpers', () => {
  it('parses space-separated scopes without empties or duplicates, keeping order', () => {
    expect(parseScopes('b  a b c')).toEqual(['b', 'a', 'c']);
    expect(parseScopes(undefined)).toEqual([]);
    expect(parseScopes('')).toEqual([]);
    expect(parseScopes(['x', '', 'x', 'y'])).toEqual(['x', 'y']);
  });

  it('unions in first-seen order and checks coverage exactly', () => {
    expect(unionScopes(['files:read'], ['files:read', 'files:write'])).toEqual(['files:read', 'files:write']);
    expect(coversScopes(['a', 'b'], ['b'])).toBe(true);
    expect(coversScopes(['a'], ['a', 'b'])).toBe(false);
    expect(coversScopes(['files:*'], ['files:write'])).toBe(false);
    expect(coversScopes([], [])).toBe(true);
    expect(scopeKey(['b', 'a', 'b'])).toBe(scopeKey(['a', 'b']));
  });
});

describe('selectInitialScopes', () => {
  const base = { extra: [], serverScopes: undefined, offlineAccess: true };

  it('prefers the challenge, then the resource scopes_supported, else asks for none', () => {
    expect(selectInitialScopes({ ...base, challenged: ['mcp:basic'], resourceScopes: ['mcp:profile'] })).toEqual([
      'mcp:basic',
    ]);
    expect(
      selectInitialScopes({ ...base, challenged: [], resourceScopes: ['mcp:basic', 'mcp:read', 'mcp:write'] }),
    ).toEqual(['mcp:basic', 'mcp:read', 'mcp:write']);
    expect(selectInitialScopes({ ...base, challenged: [], resourceScopes: undefined })).toEqual([]);
  });

  it('adds offline_access only when the authorization server lists it and something else is asked for', () => {
    const serverScopes = ['mcp:basic', 'offline_access'];
    expect(selectInitialScopes({ ...base, challenged: [], resourceScopes: ['mcp:basic'], serverScopes })).toEqual([
      'mcp:basic',
      'offline_access',
    ]);
    expect(
      selectInitialScopes({ ...base, challenged: [], resourceScopes: ['mcp:basic'], serverScopes: ['mcp:basic'] }),
    ).toEqual(['mcp:basic']);
    expect(selectInitialScopes({ ...base, challenged: [], resourceScopes: undefined, serverScopes })).toEqual([]);
    expect(
      selectInitialScopes({
        ...base,
        offlineAccess: false,
        challenged: ['mcp:basic'],
        resourceScopes: undefined,
        serverScopes,
      }),
    ).toEqual(['mcp:basic']);
  });

  it('adds the host extra scopes', () => {
    expect(
      selectInitialScopes({ ...base, extra: ['profile'], challenged: ['mcp:basic'], resourceScopes: undefined }),
    ).toEqual(['mcp:basic', 'profile']);
  });
});

describe('selectStepUpScopes', () => {
  it('asks for the union of granted and challenged scopes', () => {
    expect(selectStepUpScopes(['files:read'], ['files:write'], undefined, true)).toEqual(['files:read', 'files:write']);
    expect(selectStepUpScopes(['files:read'], ['files:read', 'files:write'], ['offline_access'], true)).toEqual([
      'files:read',
      'files:write',
      'offline_access',
    ]);
    expect(selectStepUpScopes(['mcp:basic', 'offline_access'], ['mcp:write'], ['offline_access'], true)).toEqual([
      'mcp:basic',
      'offline_access',
      'mcp:write',
    ]);
  });
});
