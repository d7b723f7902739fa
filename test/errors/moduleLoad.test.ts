import { describe, expect, it } from 'vitest';
import { ModuleLoadError, isModuleLoadError, onDemand } from '../../src/errors/moduleLoad.js';
import { ErrorCode } from '../../src/errors/codes.js';

describe('onDemand', () => {
  it('loads once, however many callers ask, and keeps the module as value', async () => {
    let loads = 0;
    const load = onDemand('demo', async () => {
      loads += 1;
      return { answer: 42 };
    });
    expect(load.value).toBeUndefined();
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(await load()).toBe(a);
    expect(load.value).toBe(a);
    expect(loads).toBe(1);
  });

  it('turns a failed load into ModuleLoadError (-33042) naming the module, and tries again next time', async () => {
    let attempt = 0;
    const cause = new TypeError('Failed to fetch dynamically imported module: chunk-X.js');
    const load = onDemand('subscriptions', async () => {
      attempt += 1;
      if (attempt === 1) throw cause;
      return 'loaded';
    });
    const error = await load().catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ModuleLoadError);
    expect(isModuleLoadError(error)).toBe(true);
    expect((error as ModuleLoadError).code).toBe(ErrorCode.ModuleLoadFailed);
    expect((error as ModuleLoadError).code).toBe(-33042);
    expect((error as ModuleLoadError).data).toEqual({ module: 'subscriptions' });
    expect((error as ModuleLoadError).cause).toBe(cause);
    expect((error as ModuleLoadError).message).toContain('chunk-X.js');
    expect(load.value).toBeUndefined();
    await expect(load()).resolves.toBe('loaded');
    expect(load.value).toBe('loaded');
    expect(attempt).toBe(2);
  });

  it('isModuleLoadError tells it from other errors', () => {
    expect(isModuleLoadError(new Error('x'))).toBe(false);
    expect(isModuleLoadError(undefined)).toBe(false);
  });
});
