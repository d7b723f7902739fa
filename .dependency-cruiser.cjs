// The import-cycle rule of `npm run lint`: no file imports itself back through others. Type-only
// imports count (`tsPreCompilationDeps`): a circle of types is still a circle to the reader, and
// ESLint's cycle rules skip them.
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
