import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ProtocolError } from '../../src/errors/errors.js';
import { InputRequestFailedError } from '../../src/inputRequired/errors.js';
import { inputRetryFor, readInputRequired, withInputRetry } from '../../src/inputRequired/retry.js';

const LOGIN = {
  method: 'elicitation/create',
  params: { message: '?', requestedSchema: { type: 'object', properties: {} } },
};

describe('manual mode helpers', () => {
  it("inputRetryFor: responses for exactly the requested keys plus this result's requestState", () => {
    const result = { resultType: 'input_required', inputRequests: { login: LOGIN }, requestState: 'AbC+/==' };
    expect(inputRetryFor('tools/call', result, { login: { action: 'decline' }, stray: { action: 'cancel' } })).toEqual({
      inputResponses: { login: { action: 'decline' } },
      requestState: 'AbC+/==',
    });
  });

  it('inputRetryFor: no requestState in the result means no requestState key; state-only means no inputResponses key', () => {
    const asked = inputRetryFor(
      'tools/call',
      { resultType: 'input_required', inputRequests: { login: LOGIN } },
      { login: { action: 'cancel' } },
    );
    expect(asked).not.toHaveProperty('requestState');
    const stateOnly = inputRetryFor(
      'tools/call',
      { resultType: 'input_required', requestState: 's2' },
      { login: { action: 'cancel' } },
    );
    expect(stateOnly).toEqual({ requestState: 's2' });
    expect(stateOnly).not.toHaveProperty('inputResponses');
  });

  it('inputRetryFor: a missing response is an InputRequestFailedError; bad input is rejected', () => {
    const result = { resultType: 'input_required', inputRequests: { login: LOGIN } };
    const error = (() => {
      try {
        inputRetryFor('prompts/get', result, {});
      } catch (e) {
        return e;
      }
      return undefined;
    })() as InputRequestFailedError;
    expect(error).toBeInstanceOf(InputRequestFailedError);
    expect(error.data).toEqual({
      requestMethod: 'prompts/get',
      key: 'login',
      method: 'elicitation/create',
      reason: 'invalid_result',
    });
    expect(() => inputRetryFor('tools/call', result)).toThrow(InputRequestFailedError);
    expect(() => inputRetryFor('tools/call', result, 'x' as never)).toThrow(InvalidArgumentError);
    expect(() => inputRetryFor('tools/call', { resultType: 'input_required' })).toThrow(ProtocolError);
  });

  it('readInputRequired: treats an empty inputRequests map as absent', () => {
    expect(
      readInputRequired('tools/call', { resultType: 'input_required', inputRequests: {}, requestState: 's' }),
    ).toEqual({ requestState: 's' });
  });

  it('withInputRetry: copies params, drops stale fields, sets the new ones', () => {
    const original = { name: 't', arguments: { a: 1 }, _meta: { m: 1 } };
    const stale = withInputRetry(original, { inputResponses: { k: { action: 'cancel' } }, requestState: 'old' });
    expect(stale).toEqual({ ...original, inputResponses: { k: { action: 'cancel' } }, requestState: 'old' });
    const next = withInputRetry(stale, { requestState: 'new' });
    expect(next).toEqual({ ...original, requestState: 'new' });
    expect(withInputRetry(next, {})).toEqual(original);
    expect(original).toEqual({ name: 't', arguments: { a: 1 }, _meta: { m: 1 } });
  });
});
