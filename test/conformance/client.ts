/**
 * The conformance driver: the MCP client that the official conformance suite
 * (`@modelcontextprotocol/conformance`, pinned in conformance/package.json) runs once per client
 * scenario. It acts like a small host built on mcp-live's public API and nothing else: only
 * imports from the package entry points, no private modules, no wire code of its own.
 *
 * How the runner calls it (docs/conformance.md):
 * - the server URL is the last argument, used as given (some mocks serve at the root, most at
 *   `/mcp`);
 * - `MCP_CONFORMANCE_SCENARIO` names the scenario;
 * - `MCP_CONFORMANCE_PROTOCOL_VERSION` is the revision of the run. The driver does not pin it:
 *   a host does not know a server's revision in advance, the SDK negotiates. At 2026-07-28 the
 *   driver only checks that the SDK landed on it;
 * - `MCP_CONFORMANCE_CONTEXT` (JSON) carries scenario data (`toolCalls`, credentials...).
 *
 * Exit 0 when every step the scenario needs succeeded; 1 with the reason on stderr otherwise.
 * If a scenario can only pass by working around mcp-live, the work-around does not belong
 * here: the scenario goes into conformance/baseline.yml with the SDK gap as its reason.
 */
import {
  McpClient,
  StreamableHttpTransport,
  createHeadlessRedirectHandler,
  createOAuthProvider,
  type ClientOptions,
  type ElicitResult,
  type InputHandlers,
  type JsonObject,
  type NonInteractiveGrant,
  type OAuthProvider,
  type PreRegisteredClient,
  type Skill,
  SkillVerificationError,
  type Tool,
} from '../../src/index.js';

/** The revision whose wire mcp-live speaks natively. */
const MODERN = '2026-07-28';
/** Per-request idle timeout: the runner kills the client after 30 s, so fail well before. */
const TIMEOUT_MS = 20_000;

interface Run {
  readonly scenario: string;
  readonly url: string;
  readonly revision: string | undefined;
  readonly context: JsonObject;
}

type Step = (client: McpClient, run: Run) => Promise<void>;

function log(message: string): void {
  process.stderr.write(`[driver ${new Date().toISOString().slice(11, 23)}] ${message}\n`);
}

function readRun(): Run {
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'];
  const url = process.argv[process.argv.length - 1];
  if (scenario === undefined || scenario === '') throw new Error('MCP_CONFORMANCE_SCENARIO is not set');
  if (url === undefined || !/^https?:\/\//.test(url))
    throw new Error(`expected the server URL as the last argument, got ${JSON.stringify(url)}`);
  const raw = process.env['MCP_CONFORMANCE_CONTEXT'];
  let context: JsonObject = {};
  if (raw !== undefined && raw !== '') {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('MCP_CONFORMANCE_CONTEXT is not a JSON object');
    context = parsed as JsonObject;
  }
  return { scenario, url, revision: process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'], context };
}

/**
 * What a simple interactive host would answer. Form elicitation: the user accepts the form as
 * presented, touching no field (`content: {}`); filling in the schema's `default` values for
 * the fields left alone is the SDK's job, and elicitation-sep1034-client-defaults checks it.
 * Sampling: a canned assistant reply. Roots: none shared.
 */
const handlers: InputHandlers = {
  elicitation: {
    form: (params): ElicitResult => {
      log(`elicitation (form): accept as presented: ${JSON.stringify(params.message)}`);
      return { action: 'accept', content: {} };
    },
  },
  sampling: {
    createMessage: () => {
      log('sampling: canned reply');
      return {
        role: 'assistant',
        content: { type: 'text', text: 'conformance driver reply' },
        model: 'none',
        stopReason: 'endTurn',
      };
    },
  },
  roots: { list: () => ({ roots: [] }) },
};

/**
 * What a headless host that may meet protected servers configures: an OAuth provider that acts
 * only on 401/403, with DPoP on (tokens bound to a key when the authorization server issues
 * them). By default it runs the authorization code flow: it publishes a client ID metadata
 * document at the suite's URL, and uses the pre-registered credentials the scenario hands out,
 * when it does. The scenarios of the extensions for agents without a browser stand for hosts
 * configured for that grant (MACHINE_HOSTS).
 */
async function makeAuthProvider(run: Run): Promise<OAuthProvider> {
  const clientId = text(run.context['client_id']);
  const clientSecret = text(run.context['client_secret']);
  const issuer = text(run.context['issuer']);
  const preRegistered: PreRegisteredClient | undefined =
    clientId === undefined
      ? undefined
      : {
          clientId,
          ...(clientSecret !== undefined && { clientSecret }),
          ...(issuer !== undefined && { issuer }),
        };
  const machine = Object.entries(MACHINE_HOSTS).find(([prefix]) => run.scenario.startsWith(prefix))?.[1];
  if (machine !== undefined) {
    const { grant, privateKey } = await machine(run.context);
    return createOAuthProvider({
      serverUrl: run.url,
      grant,
      dpop: true,
      ...(preRegistered !== undefined && {
        preRegistered: { ...preRegistered, ...(privateKey !== undefined && { privateKey }) },
      }),
    });
  }
  return createOAuthProvider({
    serverUrl: run.url,
    clientMetadata: { client_name: 'mcp-live-conformance' },
    redirectUrl: 'http://localhost:3000/callback',
    redirectHandler: createHeadlessRedirectHandler(),
    clientIdMetadataUrl: 'https://conformance-test.local/client-metadata.json',
    dpop: true,
    ...(preRegistered !== undefined && { preRegistered }),
  });
}

/**
 * Hosts without a browser, by scenario prefix: the grant they are configured with, from the
 * credentials the scenario hands out (a service's client secret or signing key, a workload's
 * platform JWT, a user's enterprise ID token and the IdP it came from).
 */
const MACHINE_HOSTS: Record<
  string,
  (context: JsonObject) => Promise<{ grant: NonInteractiveGrant; privateKey?: CryptoKey }>
> = {
  // A service with a client secret, or a private key for private_key_jwt.
  'auth/client-credentials-': async (context) => {
    const pem = text(context['private_key_pem']);
    return {
      grant: { type: 'client_credentials' },
      ...(pem !== undefined && { privateKey: await importPkcs8(pem, text(context['signing_algorithm']) ?? 'ES256') }),
    };
  },
  // A workload whose platform issued it a JWT for this authorization server.
  'auth/wif-': async (context) => {
    const jwt = text(context['valid_jwt']);
    if (jwt === undefined) throw new Error('context.valid_jwt is missing');
    return { grant: { type: 'jwt-bearer', assertion: () => jwt } };
  },
  // A user signed in to the host through the enterprise IdP.
  'auth/enterprise-managed-authorization': async (context) => {
    const idToken = text(context['idp_id_token']);
    const idpIssuer = text(context['idp_issuer']);
    const idpClientId = text(context['idp_client_id']);
    if (idToken === undefined || idpIssuer === undefined || idpClientId === undefined)
      throw new Error('context.idp_id_token, idp_issuer or idp_client_id is missing');
    const tokenEndpoint = text(context['idp_token_endpoint']);
    return {
      grant: {
        type: 'id-jag',
        idp: { issuer: idpIssuer, clientId: idpClientId, ...(tokenEndpoint !== undefined && { tokenEndpoint }) },
        subjectToken: () => idToken,
      },
    };
  },
};

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A PKCS #8 PEM private key as a non-extractable Web Crypto signing key. */
async function importPkcs8(pem: string, alg: string): Promise<CryptoKey> {
  const der = Uint8Array.from(atob(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '')), (c) => c.charCodeAt(0));
  const curves: Record<string, string> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521' };
  const namedCurve = curves[alg];
  if (namedCurve === undefined) throw new Error(`unsupported signing_algorithm ${alg}`);
  return crypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve }, false, ['sign']);
}

async function makeClient(run: Run): Promise<McpClient> {
  const options: ClientOptions = {
    transport: new StreamableHttpTransport(run.url, { authProvider: await makeAuthProvider(run) }),
    clientInfo: { name: 'mcp-live-conformance', version: '0.1.0' },
    handlers,
    timeoutMs: TIMEOUT_MS,
    // Every request should reach the mock; a cached list would hide traffic the checks count.
    cache: false,
    onError: (error) => log(`reported: ${error.message}`),
  };
  return new McpClient(options);
}

async function connect(client: McpClient, run: Run): Promise<void> {
  const discovery = await client.connect();
  log(`connected: protocol ${client.protocolVersion}, server capabilities ${JSON.stringify(discovery.capabilities)}`);
  if (run.revision === MODERN && client.protocolVersion !== MODERN) {
    throw new Error(`the run is at ${MODERN} but the client negotiated ${String(client.protocolVersion)}`);
  }
}

async function listTools(client: McpClient): Promise<Tool[]> {
  const { items } = await client.listAllTools();
  log(`tools/list: ${items.map((t) => t.name).join(', ') || '(none)'}`);
  return items;
}

async function call(client: McpClient, name: string, args: JsonObject = {}): Promise<void> {
  const result = await client.callTool(name, args);
  log(
    `tools/call ${name}: ${result.isError === true ? 'isError ' : ''}${JSON.stringify(result.content).slice(0, 200)}`,
  );
}

async function listSkills(client: McpClient): Promise<Skill[]> {
  if (!client.skills.supported) throw new Error('the server does not declare the Skills extension');
  const { skills } = await client.skills.list();
  log(`skills/list: ${skills.map((s) => s.uri).join(', ') || '(none)'}`);
  return skills;
}

/**
 * What a host does when the model loads a skill: read its `SKILL.md` (verified against the
 * entry), then the skill's other files. A file that fails verification is refused: the skill is
 * not loaded and nothing more of it is read.
 */
async function loadSkill(client: McpClient, skill: Skill): Promise<void> {
  try {
    const md = await client.skills.read(skill);
    log(`loaded ${md.uri} (${md.bytes.byteLength} bytes)`);
  } catch (error) {
    if (!(error instanceof SkillVerificationError)) throw error;
    log(`refused ${skill.uri}: ${error.reason}: ${error.message}`);
    return;
  }
  for (const file of skill.resources === 'dynamic' ? [] : skill.resources) {
    if (file.uri === skill.uri) continue;
    const read = await client.skills.read(skill, file.uri);
    log(`read ${read.uri} (${read.bytes.byteLength} bytes)`);
  }
}

/** Calls every listed tool in order with no arguments; all must succeed. */
async function callEveryTool(client: McpClient, tools: readonly Tool[]): Promise<void> {
  for (const tool of tools) await call(client, tool.name);
}

const steps: Record<string, Step> = {
  // Shared stateless (2026-07-28) or stateful (2025-11-25) mock: add_numbers.
  tools_call: async (client, run) => {
    await connect(client, run);
    const tools = await listTools(client);
    if (!tools.some((t) => t.name === 'add_numbers')) throw new Error('add_numbers is not listed');
    await call(client, 'add_numbers', { a: 5, b: 3 });
  },

  // 2025-11-25 only: the handshake is all there is.
  initialize: connect,

  // SEP-2575: the first POST is refused with -32022; the SDK must retry with a supported
  // version, and put the header and _meta on every request.
  'request-metadata': async (client, run) => {
    await connect(client, run);
    await listTools(client);
  },

  // SEP-2322: every tool, in order; the SDK answers input_required rounds through `handlers`.
  'sep-2322-client-request-state': async (client, run) => {
    await connect(client, run);
    await callEveryTool(client, await listTools(client));
  },

  // SEP-2243 standard headers: every verb that carries Mcp-Method / Mcp-Name.
  'http-standard-headers': async (client, run) => {
    await connect(client, run);
    await callEveryTool(client, await listTools(client));
    const { items: resources } = await client.listAllResources();
    for (const resource of resources) {
      await client.readResource(resource.uri);
      log(`resources/read ${resource.uri}`);
    }
    const { items: prompts } = await client.listAllPrompts();
    for (const prompt of prompts) {
      await client.getPrompt(prompt.name);
      log(`prompts/get ${prompt.name}`);
    }
  },

  // SEP-2243 custom headers: exactly the calls the context gives, after tools/list.
  'http-custom-headers': async (client, run) => {
    await connect(client, run);
    const tools = await listTools(client);
    const toolCalls = run.context['toolCalls'];
    if (!Array.isArray(toolCalls)) throw new Error('context.toolCalls is missing');
    const failures: string[] = [];
    for (const entry of toolCalls as { name: string; arguments?: JsonObject }[]) {
      if (!tools.some((t) => t.name === entry.name)) failures.push(`${entry.name} is not in the listed tools`);
      try {
        await call(client, entry.name, entry.arguments ?? {});
      } catch (error) {
        failures.push(`${entry.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (failures.length > 0) throw new Error(failures.join('; '));
  },

  // SEP-2243: the SDK must drop the invalid tools; the driver calls every tool it kept.
  'http-invalid-tool-headers': async (client, run) => {
    await connect(client, run);
    await callEveryTool(client, await listTools(client));
  },

  // SEP-2106: list tools; the canary $ref must never be fetched.
  'json-schema-ref-no-deref': async (client, run) => {
    await connect(client, run);
    await listTools(client);
  },

  // Echo the input schema exactly as the SDK exposes it.
  'json-schema-2020-12-preservation': async (client, run) => {
    await connect(client, run);
    const tools = await listTools(client);
    const tool = tools.find((t) => t.name === 'json_schema_2020_12_tool');
    if (tool === undefined) throw new Error('json_schema_2020_12_tool is not listed');
    await call(client, 'json_schema_echo', { schema: tool.inputSchema });
  },

  // SEP-2640 (extension): listing a skill must not fetch any of its files.
  'sep-2640-client-no-prefetch': async (client, run) => {
    await connect(client, run);
    await listSkills(client);
  },

  // SEP-2640 (extension): the SKILL.md served fails its entry's digest, size or frontmatter;
  // the host loads the skill, and must refuse it before reading any other file of it.
  ...Object.fromEntries(
    ['digest', 'size', 'frontmatter'].map((mode): [string, Step] => [
      `sep-2640-client-verify-${mode}`,
      async (client, run) => {
        await connect(client, run);
        for (const skill of await listSkills(client)) await loadSkill(client, skill);
      },
    ]),
  ),

  // 2025-11-25, stateful server with sessions: elicitation whose schema carries defaults.
  'elicitation-sep1034-client-defaults': async (client, run) => {
    await connect(client, run);
    await listTools(client);
    await call(client, 'test_client_elicitation_defaults');
  },

  // 2025-11-25, SEP-1699: the tool's SSE stream closes early; the SDK must resume it.
  'sse-retry': async (client, run) => {
    await connect(client, run);
    await listTools(client);
    await call(client, 'test_reconnection');
  },
};

/**
 * Every `auth/*` scenario: what a host does against a protected server (connect, list, call).
 * Authorization itself (discovery, registration, the code flow, tokens) is the SDK's job; the
 * driver only hands the transport the OAuth provider every client gets (makeAuthProvider).
 */
function stepFor(scenario: string): Step | undefined {
  return steps[scenario] ?? (scenario.startsWith('auth/') ? authFlow : undefined);
}

const authFlow: Step = async (client, run) => {
  await connect(client, run);
  const tools = await listTools(client);
  // A host calls what it lists: scope-step-up answers a tools/call with 403 insufficient_scope.
  for (const tool of tools) await call(client, tool.name, tool.name === 'add_numbers' ? { a: 5, b: 3 } : {});
  // authorization-server-migration needs a second authenticated request after the first.
  await listTools(client);
};

async function main(): Promise<number> {
  const run = readRun();
  log(`scenario ${run.scenario}, revision ${run.revision ?? '(unset)'}, url ${run.url}`);
  const step = stepFor(run.scenario);
  if (step === undefined) {
    log(`no steps for scenario ${run.scenario}`);
    return 1;
  }
  const client = await makeClient(run);
  try {
    await step(client, run);
    log('done');
    return 0;
  } catch (error) {
    const data =
      error !== null && typeof error === 'object' && 'data' in error && error.data !== undefined
        ? ` ${JSON.stringify(error.data)}`
        : '';
    log(`failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}${data}`);
    return 1;
  } finally {
    await client.close().catch(() => {});
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    log(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  },
);
