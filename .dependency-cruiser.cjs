// The import rules of `npm run lint` (`lint:cycles`). Type-only imports count
// (`tsPreCompilationDeps`): a circle of types is still a circle to the reader, and ESLint's cycle
// rules skip them.
//
// Floors: the folders of src/, bottom up. A folder imports only from the floors below it; folders
// on one floor do not import each other. The entries (src/*.ts) stand above every folder but cli/.
// docs/design.md draws the same order.
const FLOORS = [
  ['util'],
  ['errors'],
  ['wire'],
  ['resilience'],
  ['transport'],
  ['jsonrpc'],
  ['cache', 'pagination', 'inputRequired', 'resources', 'completion', 'auth'],
  ['observability'],
  ['subscriptions'],
  ['tasks', 'era', 'skills', 'apps', 'events'],
  ['reconnect'],
  ['client'],
  ['host'],
  ['frameworks', 'devtools'],
  ['(entries)'],
  ['cli'],
];

/** The path pattern of one floor's folder (the entries are the files directly in src/). */
const pathOf = (folder) => (folder === '(entries)' ? '^src/[^/]+$' : `^src/${folder}/`);

const floorRules = FLOORS.flatMap((floor, level) =>
  floor.flatMap((folder) => {
    const above = FLOORS.slice(level + 1).flat();
    const peers = floor.filter((other) => other !== folder);
    if (above.length + peers.length === 0) return [];
    return {
      name: `floors: ${folder}`,
      severity: 'error',
      comment: `${folder}/ is on floor ${level} of .dependency-cruiser.cjs and imports only from the floors below it: move the shared part down (wire/, util/, errors/) or the importer up.`,
      from: { path: pathOf(folder) },
      to: { path: [...above, ...peers].map(pathOf) },
    };
  }),
);

// Floors inside host/ (the second product: docs/design.md, "The host"), bottom up, by the same
// rule: a folder of host/ imports only from the host floors below it (and from any src/ floor
// below host/); the files directly in host/ (McpHost, its assembly, views, the app bridge) stand
// above all of them.
const HOST_FLOORS = [
  ['state'],
  ['catalog'],
  ['policy'],
  ['models'],
  ['skills', 'userInput', 'events'],
  ['contextBudget'],
  ['servers'],
  ['scopes'],
  ['(host)'],
];

/** The path pattern of one host floor's folder (`(host)`: the files directly in host/). */
const hostPathOf = (folder) => (folder === '(host)' ? '^src/host/[^/]+$' : `^src/host/${folder}/`);

const hostFloorRules = HOST_FLOORS.flatMap((floor, level) =>
  floor.flatMap((folder) => {
    const above = HOST_FLOORS.slice(level + 1).flat();
    const peers = floor.filter((other) => other !== folder);
    if (above.length + peers.length === 0) return [];
    return {
      name: `host floors: ${folder}`,
      severity: 'error',
      comment: `host/${folder === '(host)' ? '' : folder + '/'} is on host floor ${level} of .dependency-cruiser.cjs and imports only from the host floors below it: move the shared part down (catalog/ is the bottom) or the importer up.`,
      from: { path: hostPathOf(folder) },
      to: { path: [...above, ...peers].map(hostPathOf) },
    };
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other in a circle: move what both need to a leaf file that imports neither.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'floors: unknown folder',
      severity: 'error',
      comment: 'Every folder of src/ has a floor in .dependency-cruiser.cjs: add the new one to FLOORS.',
      from: { path: '^src/', pathNot: FLOORS.flat().map(pathOf) },
      to: {},
    },
    {
      name: 'floors: import of an unknown folder',
      severity: 'error',
      comment: 'Every folder of src/ has a floor in .dependency-cruiser.cjs: add the new one to FLOORS.',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: FLOORS.flat().map(pathOf) },
    },
    ...floorRules,
    {
      name: 'host floors: unknown folder',
      severity: 'error',
      comment: 'Every folder of src/host/ has a floor in HOST_FLOORS of .dependency-cruiser.cjs: add the new one.',
      from: { path: '^src/host/', pathNot: HOST_FLOORS.flat().map(hostPathOf) },
      to: {},
    },
    ...hostFloorRules,
    {
      name: 'frameworks: one framework per folder',
      severity: 'error',
      comment:
        'frameworks/aiSdk/ and frameworks/langchain/ each import their own framework only: what both need lives in the files directly in frameworks/.',
      from: { path: '^src/frameworks/(aiSdk|langchain)/' },
      to: { path: '^src/frameworks/(aiSdk|langchain)/', pathNot: '^src/frameworks/$1/' },
    },
    {
      name: 'frameworks: the shared files import no framework',
      severity: 'error',
      comment:
        'The files directly in frameworks/ are shared by every adapter: they import neither `ai` nor `@langchain/*`.',
      from: { path: '^src/frameworks/[^/]+$' },
      to: { path: '(^|/)node_modules/(ai|@langchain/[^/]+)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

// Parts loaded on first use (docs/design.md, "Features on demand"): the module a dynamic
// `import()` names is a `*.lazy.ts` file, and nothing else in src/ imports it but by type or by
// `import()`. A static import would put the part, and everything it holds, in the initial load
// of every program that reaches the importer.
module.exports.forbidden.push({
  name: 'lazy: static import of a part loaded on first use',
  severity: 'error',
  comment:
    'A *.lazy.ts file is loaded only by import() (or imported by type): load it with onDemand(), import its types with `import type`, or move what the importer needs into an eager file beside it.',
  from: { path: '^src/', pathNot: '\\.lazy\\.ts$' },
  to: { path: '\\.lazy\\.ts$', dependencyTypesNot: ['dynamic-import', 'type-only'] },
});

// The transport brings its own links (`Transport.links`, docs/design.md "Request middleware"):
// the client speaks to every transport through the contract in transport/transport.ts and knows
// nothing of one family's inside. Session renewal and `Mcp-Param-*` headers live in
// transport/http/requestLinks.ts, reached only through the transport the program passes.
module.exports.forbidden.push({
  name: 'client: no transport family',
  severity: 'error',
  comment:
    'client/ reaches a transport only through transport/transport.ts: what one family needs on a request belongs in its Transport.links(); what the client needs of it, in the contract.',
  from: { path: '^src/client/' },
  to: { path: '^src/transport/(http|stdio|websocket)/' },
});
