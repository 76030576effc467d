/**
 * The layers of src/, bottom to top: web (the kit) < core (the runner) < tier (the runner over the
 * network: api node to runner node) < platform < features (code, mcp, resources, dashboard) < the wiring (service.ts, main.ts, config.ts, cli/). An import may
 * only point down or within its own folder; `npm run lint` fails on any other, and on any cycle.
 */
const FEATURES = '^src/(code|mcp|resources|dashboard)/';

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
      name: 'tier-below-platform',
      comment: 'The runner tier (api node to runner node) uses the runner core and the kit only.',
      severity: 'error',
      from: { path: '^src/tier/' },
      to: { path: '^src/', pathNot: '^src/(tier|core|web)/' },
    },
    {
      name: 'features-do-not-import-each-other',
      comment: 'A feature folder uses the layers below it, never another feature; service.ts wires them.',
      severity: 'error',
      from: { path: '^src/([^/]+)/', pathNot: '^src/(web|core|platform|cli)/' },
      to: { path: FEATURES, pathNot: '^src/$1/' },
    },
    {
      name: 'dashboard-client-is-browser-code',
      comment: 'The dashboard client runs in the browser and speaks to the service only over /api/v1: it imports nothing of the server.',
      severity: 'error',
      from: { path: '^src/dashboard/client/' },
      to: { path: '^src/', pathNot: '^src/dashboard/client/' },
    },
    {
      name: 'nothing-imports-the-dashboard-client',
      comment: 'The server bundles the client from its files (src/dashboard/bundle.ts); no server module imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/dashboard/client/' },
      to: { path: '^src/dashboard/client/' },
    },
    {
      name: 'nothing-imports-the-wiring',
      severity: 'error',
      from: { path: '^src/(web|core|tier|platform|code|mcp|resources|dashboard)/' },
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
