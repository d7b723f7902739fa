/**
 * The host's skill registry (SEP-2640, Hosts: End-to-End Integration): the union of every open
 * server's `skills/list`, each skill under an exposed name (the rules of tools: `<server>__<name>`,
 * sanitized, collisions suffixed, never dropped), tagged with its origin (the host's label of
 * the server, never its self-reported name) and whether the host trusts that server. Kept
 * current: a server that opens is listed, one that leaves is dropped, and each open server's
 * `notifications/resources/list_changed` (a listen stream) lists it again. Reads are routed to
 * the skill's own server and verified there. Loaded on the first `host.skills()`.
 */
import type { McpClient } from '../../client/client.js';
import type { CallOptions } from '../../wire/callOptions.js';
import type { Skill, SkillFile } from '../../skills/types.js';
import type { Subscription } from '../../subscriptions/types.js';
import { HostRoutingError } from '../catalog/errors.js';
import type { NameAssignment, NameRequest } from '../catalog/exposedNames.js';

/** One skill of one server, as the host exposes it. */
export interface HostSkill {
  /** The name the model and the app use (`<server>__<name>` by default); `host.readSkill` takes it. */
  readonly exposedName: string;
  /** The host's label of the server that lists it (its origin). */
  readonly server: string;
  /** Whether the host's options name this server as trusted for skills (`McpHostOptions.skills.trusted`). */
  readonly trusted: boolean;
  /** `frontmatter.name`. */
  readonly name: string;
  /** `frontmatter.description`. */
  readonly description: string;
  /** The entry exactly as listed. */
  readonly skill: Skill;
}

/** What the registry needs from the host. */
export interface HostSkillsDeps {
  /** The open servers, in host order, with their name prefixes. */
  openServers(): Array<{ server: string; prefix: string }>;
  client(server: string): McpClient | undefined;
  /** Calls `listener` on each server state change; returns the unsubscribe function. */
  onState(listener: (server: string, state: string) => void): () => void;
  trusted(server: string): boolean;
  /** Exposed names by the host's rules (`assignExposedNames` with its separator and prefix mode). */
  assignNames(requests: readonly NameRequest[]): NameAssignment;
  /** The union changed. */
  changed(skills: readonly HostSkill[]): void;
  onError(error: Error, server: string | undefined): void;
}

/** The registry (see the file's opening comment). */
export class HostSkills {
  private readonly perServer = new Map<string, readonly Skill[]>();
  private readonly watches = new Map<string, Subscription>();
  private union: readonly HostSkill[] = [];
  private readonly offState: () => void;
  private closed = false;

  constructor(private readonly deps: HostSkillsDeps) {
    this.offState = deps.onState((server, state) => {
      if (state === 'open') void this.load(server);
      else this.drop(server);
    });
  }

  /** Lists every open server that declares the extension (not yet listed), then returns the union. */
  async start(): Promise<readonly HostSkill[]> {
    await Promise.all(
      this.deps
        .openServers()
        .filter(({ server }) => !this.perServer.has(server))
        .map(({ server }) => this.load(server)),
    );
    return this.union;
  }

  get skills(): readonly HostSkill[] {
    return this.union;
  }

  /** The skill under `exposedName`. @throws HostRoutingError (-33051, `unknown-skill`) */
  find(exposedName: string): HostSkill {
    const found = this.union.find((s) => s.exposedName === exposedName);
    if (found !== undefined) return found;
    throw new HostRoutingError(`no skill named ${JSON.stringify(exposedName)} in the host`, {
      reason: 'unknown-skill',
      name: exposedName,
    });
  }

  /** Reads a file of the skill (default its `SKILL.md`) from its own server, verified. */
  async read(
    exposedName: string,
    ref: string | undefined,
    options: CallOptions,
  ): Promise<{ skill: HostSkill; file: SkillFile }> {
    const skill = this.find(exposedName);
    const client = this.deps.client(skill.server);
    if (client === undefined || client.state !== 'open')
      throw new HostRoutingError(`server ${JSON.stringify(skill.server)} is not open`, {
        reason: 'server-unavailable',
        server: skill.server,
        state: client?.state ?? 'closed',
      });
    return { skill, file: await client.skills.read(skill.skill, ref, options) };
  }

  close(): void {
    this.closed = true;
    this.offState();
    for (const watch of this.watches.values()) void watch.close();
    this.watches.clear();
  }

  private async load(server: string): Promise<void> {
    const client = this.deps.client(server);
    if (client === undefined || this.closed || !client.skills.supported) return;
    try {
      await this.watch(server, client);
      const { skills, invalid } = await client.skills.list({ skipInvalid: true });
      for (const entry of invalid)
        this.deps.onError(new Error(`skills/list entry #${entry.index} left out: ${entry.reason}`), server);
      if (this.closed || client.state !== 'open') return;
      this.perServer.set(server, skills);
      this.rebuild();
    } catch (error) {
      this.deps.onError(error instanceof Error ? error : new Error(String(error)), server);
    }
  }

  /** One listen stream per server for its resources list changes; each change lists it again. */
  private async watch(server: string, client: McpClient): Promise<void> {
    if (this.watches.has(server) || client.serverCapabilities?.resources?.listChanged !== true) return;
    const subscription = await client.subscribe({ resourcesListChanged: true });
    if (this.closed) return void subscription.close();
    this.watches.set(server, subscription);
    subscription.on((event) => {
      if (event.type === 'resourcesListChanged' || event.type === 'resync') void this.load(server);
    });
  }

  private drop(server: string): void {
    const watch = this.watches.get(server);
    if (watch !== undefined) void watch.close();
    this.watches.delete(server);
    if (this.perServer.delete(server)) this.rebuild();
  }

  private rebuild(): void {
    const order = this.deps.openServers();
    const rows: Array<{ server: string; prefix: string; skill: Skill }> = [];
    for (const { server, prefix } of order)
      for (const skill of this.perServer.get(server) ?? []) rows.push({ server, prefix, skill });
    // Names are labels, not identifiers: two skills of one server may share one. Those are
    // named by their skill path instead (`acme/billing/refunds`), so neither is dropped.
    const counts = new Map<string, number>();
    for (const r of rows)
      counts.set(
        `${r.server}\u0000${r.skill.frontmatter.name}`,
        (counts.get(`${r.server}\u0000${r.skill.frontmatter.name}`) ?? 0) + 1,
      );
    const { names } = this.deps.assignNames(
      rows.map((r) => ({
        server: r.server,
        prefix: r.prefix,
        name:
          (counts.get(`${r.server}\u0000${r.skill.frontmatter.name}`) ?? 0) > 1
            ? skillPath(r.skill.uri)
            : r.skill.frontmatter.name,
      })),
    );
    this.union = Object.freeze(
      rows.map((r, i) =>
        Object.freeze({
          exposedName: names[i] as string,
          server: r.server,
          trusted: this.deps.trusted(r.server),
          name: r.skill.frontmatter.name,
          description: r.skill.frontmatter.description,
          skill: r.skill,
        }),
      ),
    );
    this.deps.changed(this.union);
  }
}

/** `acme/billing/refunds` of `skill://acme/billing/refunds/SKILL.md`. */
function skillPath(uri: string): string {
  return uri.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/*/, '').replace(/\/SKILL\.md$/, '');
}
