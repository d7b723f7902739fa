/**
 * The API reference (typedoc.json, `npm run docs:api`) builds without a single warning: every
 * public symbol has a doc comment, every `{@link}` resolves, and every type the public API
 * refers to is exported (or listed in `intentionallyNotExported`). Converts and validates only;
 * no HTML is written.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Application, Logger, LogLevel, ReflectionKind } from 'typedoc';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Keeps every message instead of printing it. */
class CollectingLogger extends Logger {
  readonly messages: string[] = [];
  override log(message: string, level: LogLevel): void {
    super.log(message, level);
    if (level >= LogLevel.Warn) this.messages.push(`${LogLevel[level]}: ${message}`);
  }
}

describe('API reference (typedoc)', () => {
  it('converts src/index.ts, src/node.ts, src/redis.ts and src/appsBridge.ts with no warning or error', async () => {
    const app = await Application.bootstrapWithPlugins({
      options: `${root}typedoc.json`,
      logLevel: 'Warn',
      skipErrorChecking: true, // compiler errors are `npm run typecheck`'s business
    });
    const logger = new CollectingLogger();
    app.logger = logger;
    const project = await app.convert();
    expect(project, logger.messages.join('\n')).toBeDefined();
    if (project === undefined) return;
    app.validate(project);
    expect(logger.messages).toEqual([]);
    expect(app.options.getValue('treatWarningsAsErrors')).toBe(true);
    expect(app.options.getValue('validation')).toMatchObject({
      notExported: true,
      invalidLink: true,
      notDocumented: true,
    });

    // Every entry point is there, under their package names, with the symbols a host starts from.
    const modules = project.getChildrenByKind(ReflectionKind.Module).map((m) => m.name);
    expect(modules.sort()).toEqual([
      'mcp-live',
      'mcp-live/ai-sdk',
      'mcp-live/apps-bridge',
      'mcp-live/devtools',
      'mcp-live/devtools/panel',
      'mcp-live/host',
      'mcp-live/host/node',
      'mcp-live/langchain',
      'mcp-live/node',
      'mcp-live/redis',
      'mcp-live/telemetry',
    ]);
    const main = project.getChildByName('mcp-live');
    expect(main?.getChildByName('McpClient')?.kind).toBe(ReflectionKind.Class);
    expect(main?.getChildByName('ErrorCode')?.kind).toBe(ReflectionKind.Variable);
    expect(project.getChildByName(['mcp-live/node', 'StdioTransport'])?.kind).toBe(ReflectionKind.Class);
    expect(project.getChildByName(['mcp-live/redis', 'RedisCacheStore'])?.kind).toBe(ReflectionKind.Class);
    expect(project.getChildByName(['mcp-live/host', 'McpHost'])?.kind).toBe(ReflectionKind.Class);
    expect(project.getChildByName(['mcp-live/host/node', 'loadHostConfig'])?.kind).toBe(ReflectionKind.Function);
    expect(project.getChildByName(['mcp-live/apps-bridge', 'createAppBridge'])?.kind).toBe(ReflectionKind.Function);
    expect(project.getChildByName(['mcp-live/ai-sdk', 'aiSdkTools'])?.kind).toBe(ReflectionKind.Function);
    expect(project.getChildByName(['mcp-live/langchain', 'McpPromptTemplate'])?.kind).toBe(ReflectionKind.Class);
    expect(project.getChildByName(['mcp-live/telemetry', 'openTelemetry'])?.kind).toBe(ReflectionKind.Function);
    expect(project.getChildByName(['mcp-live/devtools/panel', 'mountDevtoolsPanel'])?.kind).toBe(
      ReflectionKind.Function,
    );
  }, 120_000);
});
