/**
 * The likely cause of a failure to reach a server, in one line: connection refused, a name that
 * does not resolve, TLS spoken to a plain-HTTP port (or the reverse), HTTP 404 at the URL. The
 * CLI prints it instead of the whole error, whose detail stays for `--debug` and `--json`.
 * Pure: reads the error, its `cause` chain and the era-detection steps in its `data`.
 */

/** What the CLI prints for a failure it recognises. */
export interface Diagnosis {
  /** One line, without the `mcp-live: ` prefix. */
  summary: string;
}

/** System error codes (Node's `code`) found anywhere in the failure, e.g. `ECONNREFUSED`. */
function systemCodes(error: unknown): Set<string> {
  const codes = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > 8) return;
    seen.add(value);
    const record = value as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown; data?: unknown };
    if (typeof record.code === 'string') codes.add(record.code);
    // Transport messages name the system code in parentheses: "cannot reach … (ECONNREFUSED)".
    if (typeof record.message === 'string')
      for (const match of record.message.matchAll(/\b(E[A-Z]{3,}|ERR_[A-Z_]+|HPE_[A-Z_]+)\b/g)) codes.add(match[1]!);
    visit(record.cause, depth + 1);
    if (Array.isArray(record.errors)) for (const inner of record.errors) visit(inner, depth + 1);
    // EraDetectionError: each step's summary (`data.probe`, `data.fallback`, `data.sse`).
    if (typeof record.data === 'object' && record.data !== null)
      for (const step of Object.values(record.data as Record<string, unknown>)) visit(step, depth + 1);
  };
  visit(error, 0);
  return codes;
}

/** HTTP statuses the failure reports (an `HttpError`'s, or each era-detection step's). */
function httpStatuses(error: unknown): number[] {
  const statuses: number[] = [];
  const data = (error as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null) return statuses;
  const record = data as Record<string, unknown>;
  if (typeof record['status'] === 'number') statuses.push(record['status']);
  for (const key of ['probe', 'fallback', 'sse']) {
    const step = record[key] as { status?: unknown } | undefined;
    if (typeof step?.status === 'number') statuses.push(step.status);
  }
  return statuses;
}

/**
 * The one-line reading of `error` when it says the server could not be reached at `target` (a
 * URL, or a command line); `undefined` for any other failure.
 */
export function diagnoseConnection(error: unknown, target: string): Diagnosis | undefined {
  const codes = systemCodes(error);
  const has = (...names: string[]): boolean => names.some((name) => codes.has(name));
  let url: URL | undefined;
  try {
    url = new URL(target);
  } catch {
    url = undefined;
  }
  const at = url === undefined ? target : url.host;
  if (has('ECONNREFUSED')) return { summary: `connection refused at ${at}: is the server running, on that port?` };
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME'))
    return { summary: `cannot resolve the host name ${JSON.stringify(url?.hostname ?? target)}` };
  if (has('ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'))
    return { summary: `no route to ${at} (${[...codes].find((c) => c.startsWith('E'))}): is the address right?` };
  if (url?.protocol === 'https:' || url?.protocol === 'wss:') {
    if (has('EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG'))
      return {
        summary: `TLS failed at ${at}: the port seems to speak plain HTTP; try ${url.protocol === 'https:' ? 'http' : 'ws'}://`,
      };
  } else if (url?.protocol === 'http:' || url?.protocol === 'ws:') {
    // A TLS server resets a connection that opens with plain HTTP (or answers with bytes that are not HTTP).
    if (has('ECONNRESET') || [...codes].some((c) => c.startsWith('HPE_')))
      return {
        summary: `${at} closed the connection without an HTTP reply: if it speaks TLS, try ${url.protocol === 'http:' ? 'https' : 'wss'}://`,
      };
  }
  const statuses = httpStatuses(error);
  if (statuses.length > 0 && statuses.every((status) => status === 404) && url !== undefined) {
    const hint = url.pathname === '/mcp' ? 'is this the server you meant?' : 'the MCP endpoint is often /mcp';
    return { summary: `HTTP 404 at ${url.href}: no MCP endpoint at this path (${hint})` };
  }
  return undefined;
}
