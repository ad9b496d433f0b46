// dependency-cruiser rules (`npm run lint:deps`): no import cycles, each layer imports only from the layers below it,
// adapters see only the core vocabulary, shared helpers and their own folder. ARCHITECTURE.md explains the layers.
// dependency-cruiser 17 (18 needs Node 22); type-only imports count (tsPreCompilationDeps), so a type cannot open a cycle.

/** Bottom to top. A module may import from its own layer and any layer before it, never one after it. */
const layers = [
  { name: 'core', paths: ['src/core/'] },
  { name: 'util', paths: ['src/util/'] },
  { name: 'home', paths: ['src/home/'] },
  { name: 'secrets, threats', paths: ['src/secrets/', 'src/threats/'] },
  { name: 'log', paths: ['src/log/'] },
  { name: 'config', paths: ['src/config/'] },
  { name: 'store', paths: ['src/store/'] },
  { name: 'memory, skills, search, web, media', paths: ['src/memory/', 'src/skills/', 'src/search/', 'src/web/', 'src/media/'] },
  { name: 'tools', paths: ['src/tools/'] },
  { name: 'mcp', paths: ['src/mcp/'] },
  { name: 'agent', paths: ['src/agent/'] },
  { name: 'jobs', paths: ['src/jobs/'] },
  { name: 'gateway', paths: ['src/gateway/'] },
  { name: 'adapters', paths: ['adapters/'] },
  { name: 'app', paths: ['src/app/', 'src/doctor/'] },
  { name: 'cli', paths: ['src/cli/'] },
];

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const pathsRe = (paths) => `^(${paths.map(escape).join('|')})`;

const layerRules = layers.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.name.replace(/[^a-z]+/g, '-')}`,
  comment: `${layer.name} imports only from itself and the layers below it (${layers.slice(0, index).map((l) => l.name).join(' → ') || 'nothing of the project'})`,
  severity: 'error',
  from: { path: pathsRe(layer.paths) },
  to: { path: pathsRe(layers.slice(index + 1).flatMap((l) => l.paths)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'an import cycle: move the shared part down to where both sides can import it', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'core-imports-no-project-code',
      comment: 'src/core is the shared vocabulary: it imports nothing of the project',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^(src|adapters)/', pathNot: '^src/core/' },
    },
    ...layerRules,
    {
      name: 'adapter-sees-core-util-kit-own-folder',
      comment: 'a platform adapter imports only src/core, src/util, adapters/kit and its own folder',
      severity: 'error',
      from: { path: '^adapters/([^/]+)/', pathNot: '^adapters/kit/' },
      to: { path: '^(src|adapters)/', pathNot: ['^src/core/', '^src/util/', '^adapters/kit/', '^adapters/$1/'] },
    },
    {
      name: 'adapter-kit-sees-core-util',
      comment: 'adapters/kit holds what adapters share: it imports only src/core and src/util',
      severity: 'error',
      from: { path: '^adapters/kit/' },
      to: { path: '^(src|adapters)/', pathNot: ['^src/core/', '^src/util/', '^adapters/kit/'] },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    cache: false,
  },
};
