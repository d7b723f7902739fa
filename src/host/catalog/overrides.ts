/**
 * Tool overrides: how the host presents a server's tool to a model (another name, title,
 * description or annotations; arguments it fills itself and hides), and how a model's call is
 * mapped back to exactly what the server listed before it is sent. Pure.
 */
import { InvalidArgumentError } from '../../errors/errors.js';
import { isObject, type JsonObject } from '../../wire/messages.js';
import type { Tool, ToolAnnotations } from '../../wire/protocol.js';

/** How one tool is presented to the model. Every field is optional; absent ones keep the server's. */
export interface ToolOverride {
  /** The name the model sees before the server's prefix (`<prefix>__<name>`); the original goes on the wire. */
  name?: string | undefined;
  title?: string | undefined;
  description?: string | undefined;
  /** Merged over the server's annotations, key by key; written by the host, so trusted as such. */
  annotations?: Readonly<ToolAnnotations> | undefined;
  /** Arguments the host fills in when the model leaves them out (top-level properties). */
  defaults?: Readonly<JsonObject> | undefined;
  /**
   * Arguments the model never sees: they leave the schema sent to the model, and always take
   * their default. `true` hides every argument of `defaults`; a list names some of them.
   * @default false
   */
  hide?: boolean | readonly string[] | undefined;
}

/** Overrides of one server's tools, by original tool name. */
export type ToolOverrides = Readonly<Record<string, ToolOverride>>;

/** The override of `tool` in `overrides`, if any (own keys only). */
export function overrideOf(overrides: ToolOverrides | undefined, tool: string): ToolOverride | undefined {
  return overrides !== undefined && Object.hasOwn(overrides, tool) ? overrides[tool] : undefined;
}

/** The names of the arguments `override` hides. */
export function hiddenArguments(override: ToolOverride): readonly string[] {
  if (override.hide === true) return Object.keys(override.defaults ?? {});
  const hide: boolean | readonly string[] | undefined = override.hide;
  return typeof hide === 'object' ? hide : [];
}

/**
 * The tool as a model is given it: `override`'s name, title, description and annotations over
 * the server's, and the hidden arguments out of `inputSchema` (its `properties` and `required`).
 * Frozen; the server's tool is not changed.
 */
export function overriddenTool(tool: Tool, override: ToolOverride): Tool {
  const hidden = new Set(hiddenArguments(override));
  let inputSchema = tool.inputSchema;
  if (hidden.size > 0 && isObject(inputSchema)) {
    const properties = isObject(inputSchema['properties']) ? inputSchema['properties'] : {};
    const kept = Object.fromEntries(Object.entries(properties).filter(([key]) => !hidden.has(key)));
    const required = Array.isArray(inputSchema['required'])
      ? inputSchema['required'].filter((key) => typeof key !== 'string' || !hidden.has(key))
      : undefined;
    inputSchema = { ...inputSchema, properties: kept, ...(required !== undefined && { required }) };
  }
  const annotations =
    override.annotations === undefined ? tool.annotations : { ...tool.annotations, ...override.annotations };
  return Object.freeze({
    ...tool,
    ...(override.name !== undefined && { name: override.name }),
    ...(override.title !== undefined && { title: override.title }),
    ...(override.description !== undefined && { description: override.description }),
    ...(annotations !== undefined && { annotations }),
    inputSchema,
  });
}

/**
 * The arguments to send for a model's `args`: every default the model left out filled in, and
 * every hidden argument set to its default whatever the model sent. Pure; `args` is not mutated.
 */
export function wireArguments(override: ToolOverride | undefined, args: JsonObject): JsonObject {
  if (override?.defaults === undefined) return args;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(override.defaults)) define(out, key, value);
  const hidden = new Set(hiddenArguments(override));
  for (const [key, value] of Object.entries(args)) if (!hidden.has(key)) define(out, key, value);
  return out;
}

/**
 * Checks the shape of one server's overrides, naming the first bad field as
 * `overrides.<tool>.<field>`.
 * @param fail throws for the field and reason it is given.
 */
export function checkOverrides(value: unknown, fail: (field: string, reason: string, value?: unknown) => never): void {
  if (value === undefined) return;
  if (!isObject(value)) fail('overrides', 'expected an object of overrides by tool name');
  for (const [tool, raw] of Object.entries(value as Record<string, unknown>)) {
    const at = `overrides.${tool}`;
    if (!isObject(raw)) fail(at, 'expected an object');
    const override = raw as Record<string, unknown>;
    for (const key of Object.keys(override))
      if (!OVERRIDE_KEYS.has(key)) fail(`${at}.${key}`, `unknown field; expected ${[...OVERRIDE_KEYS].join(', ')}`);
    for (const key of ['name', 'title', 'description'] as const)
      if (override[key] !== undefined && typeof override[key] !== 'string')
        fail(`${at}.${key}`, 'expected a string', override[key]);
    if (typeof override['name'] === 'string' && override['name'] === '') fail(`${at}.name`, 'is empty', '');
    const annotations = override['annotations'];
    if (annotations !== undefined) {
      if (!isObject(annotations)) fail(`${at}.annotations`, 'expected an object');
      for (const [key, hint] of Object.entries(annotations as Record<string, unknown>)) {
        if (key === 'title' ? typeof hint !== 'string' : typeof hint !== 'boolean')
          fail(`${at}.annotations.${key}`, key === 'title' ? 'expected a string' : 'expected true or false', hint);
      }
    }
    const defaults = override['defaults'];
    if (defaults !== undefined && !isObject(defaults)) fail(`${at}.defaults`, 'expected an object of arguments');
    const hide = override['hide'];
    if (hide === undefined || typeof hide === 'boolean') continue;
    if (!Array.isArray(hide) || !hide.every((name) => typeof name === 'string'))
      fail(`${at}.hide`, 'expected true, false or a list of argument names', hide);
    for (const [i, name] of hide.entries())
      if (!isObject(defaults) || !Object.hasOwn(defaults, name))
        fail(`${at}.hide[${i}]`, `${JSON.stringify(name)} has no default: a hidden argument needs one`, name);
  }
}

const OVERRIDE_KEYS = new Set(['name', 'title', 'description', 'annotations', 'defaults', 'hide']);

/**
 * Checks programmatic overrides (`new McpHost`, `host.add`).
 * @throws InvalidArgumentError (-32602) naming `servers.<server>.overrides.<tool>.<field>`.
 */
export function assertOverrides(server: string, value: unknown): void {
  checkOverrides(value, (field, reason, bad) => {
    throw new InvalidArgumentError(`servers.${server}.${field}`, bad, reason);
  });
}

function define(target: JsonObject, key: string, value: unknown): void {
  if (value === undefined) return;
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
