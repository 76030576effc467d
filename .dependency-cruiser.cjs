/**
 * The layers of src/, bottom to top: web (the kit) < core (the runner) < platform < features
 * (code, mcp, and those to come) < the wiring (service.ts, main.ts, config.ts, cli/). An import may
 * only point down or within its own folder; `npm run lint` fails on any other, and on any cycle.
 */
const FEATURES = '^src/(code|mcp|resources)/';

module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', from: { path: '^src/' }, to: { circular: true } },
    {
      name: 'web-kit-imports-nothing',
      comment: 'The web kit is the bottom layer: it imports no other folder of the application.',
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: '^src/', pathNot: '^src/web/' },
    },
    {
      name: 'core-knows-no-platform-or-feature',
      comment: 'The runner core knows nothing of HTTP routes, accounts or features; it may use the kit (errors, JSON).',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/(core|web)/' },
    },
    {
      name: 'platform-below-features',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: '^src/(platform|core|web)/' },
    },
    {
      name: 'features-do-not-import-each-other',
      comment: 'A feature folder uses the layers below it, never another feature; service.ts wires them.',
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: '^src/(web|core|platform|cli)/' },
      to: { path: FEATURES, pathNot: '^src/$1/' },
    },
    {
      name: 'nothing-imports-the-wiring',
      severity: 'error',
      from: { path: '^src/(web|core|platform|code|mcp|resources)/' },
      to: { path: '^src/(service|main|config)\\.ts$|^src/cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
