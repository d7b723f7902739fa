import { describe, expect, it } from 'vitest';
import { stderrHeadline } from '../../../src/transport/stdio/stderr.js';

describe('stderrHeadline: the line of a stderr tail that names the cause', () => {
  it("Node's missing module: the Error line, not the loader's location above it", () => {
    const tail = [
      'node:internal/modules/cjs/loader:1210',
      '  throw err;',
      '  ^',
      '',
      "Error: Cannot find module '/srv/missing.js'",
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)',
      '  code: ‘MODULE_NOT_FOUND’,',
      '',
      'Node.js v20.20.2',
    ].join('\n');
    expect(stderrHeadline(tail)).toBe("Error: Cannot find module '/srv/missing.js'");
  });

  it('an error with a code in brackets, a Python traceback, an npm error, a plain last line', () => {
    expect(stderrHeadline('file:///a.mjs:1\nTypeError [ERR_INVALID_ARG_TYPE]: bad\n    at x')).toBe(
      'TypeError [ERR_INVALID_ARG_TYPE]: bad',
    );
    expect(
      stderrHeadline(
        'Traceback (most recent call last):\n  File "s.py", line 1\nModuleNotFoundError: No module named \'mcp\'\n',
      ),
    ).toBe("ModuleNotFoundError: No module named 'mcp'");
    expect(stderrHeadline('npm warn exec x\nnpm error 404 Not Found - GET x\nnpm error A complete log\n')).toBe(
      'npm error 404 Not Found - GET x',
    );
    expect(stderrHeadline('starting\nsh: 1: mcp-server: not found\r\n')).toBe('sh: 1: mcp-server: not found');
  });

  it('nothing for a tail without text; at most 200 characters', () => {
    expect(stderrHeadline('')).toBeUndefined();
    expect(stderrHeadline(' \n\n ')).toBeUndefined();
    const long = stderrHeadline(`Error: ${'x'.repeat(500)}`);
    expect(long).toHaveLength(200);
    expect(long?.endsWith('…')).toBe(true);
  });
});
