/**
 * A self-signed certificate made by openssl for TLS tests on 127.0.0.1; `undefined` where
 * openssl is missing (the test is then skipped).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A key and certificate (PEM) for `subjectAltName` (e.g. `IP:127.0.0.1`, `DNS:as.test`). */
export function selfSigned(subjectAltName = 'IP:127.0.0.1'): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-live-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        `/CN=${subjectAltName.replace(/^\w+:/, '')}`,
        '-addext',
        `subjectAltName=${subjectAltName}`,
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
