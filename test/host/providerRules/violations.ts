/** What a provider-rule checker found: one line per broken rule, with the JSON Pointer. */
export type Violations = string[];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every subschema of `node` reachable through `keys` (maps, lists and single schemas). */
export function children(
  node: Record<string, unknown>,
  path: string,
  single: readonly string[],
  lists: readonly string[],
  maps: readonly string[],
): Array<[unknown, string]> {
  const out: Array<[unknown, string]> = [];
  for (const key of single)
    if (node[key] !== undefined && !Array.isArray(node[key])) out.push([node[key], `${path}/${key}`]);
  for (const key of lists) {
    const list = node[key];
    if (Array.isArray(list)) list.forEach((item, i) => out.push([item, `${path}/${key}/${i}`]));
  }
  for (const key of maps) {
    const map = node[key];
    if (isRecord(map)) for (const [name, item] of Object.entries(map)) out.push([item, `${path}/${key}/${name}`]);
  }
  return out;
}
