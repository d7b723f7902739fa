// The API report of the public surface: API Extractor (@microsoft/api-extractor) reads each
// entry point's built declarations (dist/*.d.ts) and writes api/<entry>.api.md, one file per
// entry. `node bench/api-report.mjs` (npm run api:report) rewrites the reports; `--check`
// writes nothing and exits 1, naming the entries whose surface changed (test/package/apiReport.test.ts).
// dist/ must be built first (npm run build, or bench/ensure-build.mjs).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRIES = {
  index: 'mcp-live',
  node: 'mcp-live/node',
  host: 'mcp-live/host',
  hostNode: 'mcp-live/host/node',
  redis: 'mcp-live/redis',
  appsBridge: 'mcp-live/apps-bridge',
  aiSdk: 'mcp-live/ai-sdk',
  langchain: 'mcp-live/langchain',
  telemetry: 'mcp-live/telemetry',
  devtools: 'mcp-live/devtools',
  devtoolsPanel: 'mcp-live/devtools/panel',
};
const check = process.argv.includes('--check');
const scratch = mkdtempSync(join(tmpdir(), 'mcp-live-api-'));
const changed = [];
try {
  mkdirSync(join(ROOT, 'api'), { recursive: true });
  for (const [entry, name] of Object.entries(ENTRIES)) {
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: ROOT,
        mainEntryPointFilePath: join(ROOT, 'dist', `${entry}.d.ts`),
        compiler: {
          overrideTsconfig: { compilerOptions: { lib: ['es2023', 'dom'], types: ['node'], skipLibCheck: true } },
        },
        apiReport: {
          enabled: true,
          reportFolder: join(ROOT, 'api'),
          reportTempFolder: scratch,
          reportFileName: `${entry}.api.md`,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // The report is for review diffs: only the report itself counts, not API Extractor's style advice.
          extractorMessageReporting: { default: { logLevel: 'none', addToApiReportFile: false } },
          compilerMessageReporting: { default: { logLevel: 'warning' } },
          tsdocMessageReporting: { default: { logLevel: 'none' } },
        },
      },
      configObjectFullPath: join(ROOT, 'api', 'api-extractor.json'),
      packageJsonFullPath: join(ROOT, 'package.json'),
    });
    const result = Extractor.invoke(config, { localBuild: !check, showVerboseMessages: false, messageCallback: quiet });
    if (result.apiReportChanged) changed.push(`${name} (api/${entry}.api.md)`);
    if (!check && result.apiReportChanged) console.log(`api/${entry}.api.md: updated`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
if (check && changed.length > 0) {
  console.error(
    `The public API changed: ${changed.join(', ')}. Review it, then run npm run api:report and commit api/.`,
  );
  process.exit(1);
}

/** API Extractor's own progress lines stay out of the output. */
function quiet(message) {
  if (message.logLevel === 'info' || message.logLevel === 'verbose') message.handled = true;
}
