/**
 * The devtools page's script as the page inlines it: src/devtools/ui/pageScript.ts is
 * the current bundle of src/devtools/ui/ (bench/devtools-page-script.mjs --check), is one
 * self-contained IIFE that names no module and no helper of the outer bundle, and cannot end the
 * page's `<script>` element early.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { devtoolsPage } from '../../src/devtools/page.js';
import { DEVTOOLS_PAGE_SCRIPT } from '../../src/devtools/ui/pageScript.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the devtools page script', () => {
  it('is the current bundle of src/devtools/ui/', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['bench/devtools-page-script.mjs', '--check'], {
      cwd: ROOT,
    });
    expect(stdout).toMatch(/is current: \d+ characters/);
  }, 60_000);

  it('is one self-contained script: no import, no require, nothing that could close its element', () => {
    expect(DEVTOOLS_PAGE_SCRIPT).toMatch(/^"use strict";\(\(\)=>\{/);
    expect(DEVTOOLS_PAGE_SCRIPT).not.toMatch(/\bimport\b|\brequire\(|__name|<\/script|<!--/i);
    // ASCII only, so the page's charset cannot change what runs.
    expect(DEVTOOLS_PAGE_SCRIPT).toMatch(/^[\x20-\x7e\n]*$/);
  });

  it('is inlined in the page under the nonce, with the actions flag on the body', () => {
    const page = devtoolsPage('n0nce', true);
    expect(page).toContain(`<body data-actions="true"><script nonce="n0nce">${DEVTOOLS_PAGE_SCRIPT}</script>`);
    expect(devtoolsPage('n0nce', false)).toContain('<body data-actions="false">');
    expect(page).not.toMatch(/\b(src|href)=/);
  });
});
