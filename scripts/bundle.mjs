#!/usr/bin/env node
// Builds the artefact a controller ships as: `dist/main.mjs` (an ES module with every JavaScript dependency inside;
// what it imports only when needed, `import()` of a controller the manager runs, is a chunk beside it) and, when the controller uses the ZooKeeper client, `dist/zookeeper.node` (its native addon) beside it. A package
// with static files in `web/` (the console's page) gets them copied to `dist/web/` as they are, where its bundle
// serves them from. `dist/` is the whole program: the image copies it and runs `node main.mjs`, the bed's node agent
// runs the same file.
//
// Usage, from a deployable's directory (its `build` script): node ../../scripts/bundle.mjs (the console: ../scripts)
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, cp, mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';

const packageDir = process.cwd();
const outDir = join(packageDir, 'dist');
const require = createRequire(join(packageDir, 'package.json'));

/**
 * The zookeeper package finds its addon at run time with `node-gyp-build(<package dir>)`, which no bundler can follow.
 * This plugin copies the addon node-gyp-build would load on this machine into dist/ and makes that call load the copy.
 */
const zookeeperAddon = {
  name: 'zookeeper-addon',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^node-gyp-build$/ }, (args) =>
      args.importer.includes(`${'/node_modules/'}zookeeper/`) ? { path: 'zookeeper-addon', namespace: 'zookeeper-addon' } : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'zookeeper-addon' }, async () => {
      const zookeeperDir = dirname(require.resolve('zookeeper/package.json'));
      const addon = require('node-gyp-build').resolve(zookeeperDir);
      await copyFile(addon, join(outDir, 'zookeeper.node'));
      return { contents: 'module.exports = () => require("./zookeeper.node");', loader: 'js' };
    });
    pluginBuild.onResolve({ filter: /^\.\/zookeeper\.node$/ }, () => ({ path: './zookeeper.node', external: true }));
  },
};

/**
 * client-node's index re-exports every generated API and model, and its package does not say its modules are free of
 * side effects (they are, but for polyfill.js, which sets a global File for Node 18), so a bundle kept them all although
 * the controllers use KubeConfig and a few enums: marking them side-effect free lets esbuild drop those nothing
 * imports (the manager's shared chunk: 3.29 -> 2.43 MB).
 */
const clientNodeWithoutSideEffects = {
  name: 'client-node-side-effects',
  setup(pluginBuild) {
    // Its files import the same few modules from the same directories thousands of times: each resolved once.
    const resolutions = new Map();
    const resolveOnce = (args) => {
      const key = `${args.kind}\0${args.resolveDir}\0${args.path}`;
      let resolution = resolutions.get(key);
      if (resolution === undefined) {
        resolution = pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { clientNode: true } });
        resolutions.set(key, resolution);
      }
      return resolution;
    };
    // Only what can name a module of client-node: a relative import (from one of its files) or the package itself. Every
    // import the filter lets through is a call from esbuild into this process (about 1 ms each).
    pluginBuild.onResolve({ filter: /^(\.\.?\/|@kubernetes\/client-node(\/|$))/ }, async (args) => {
      if (args.pluginData?.clientNode === true || !(args.importer.includes('/@kubernetes/client-node/') || args.path === '@kubernetes/client-node')) return undefined;
      const resolved = await resolveOnce(args);
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      if (!resolved.path.includes('/@kubernetes/client-node/') || resolved.path.endsWith('/polyfill.js')) return undefined;
      return { ...resolved, sideEffects: false };
    });
  },
};

/**
 * A bundle's source text stays in the heap for the life of the process, and a module's top level runs at load even
 * when nothing calls into it. Two dependencies load far more than the controllers run:
 * - undici's index loads fetch, WebSocket, the caches, the mocks and every kind of dispatcher (945 KB of the manager's
 *   shared chunk). The controllers and client-node's KubeConfig use an Agent, a ProxyAgent and a dispatcher's request
 *   method; `undici` resolves to a module with those alone, so a bundle that imports anything else fails to build.
 *   client-node's Watch and typed clients import fetch, which no controller calls: it loads the whole of undici, in a
 *   chunk of its own, on its first call.
 * - zod's locales index holds every language's messages (290 KB); zod registers English itself, and no controller
 *   sets another.
 */
const onlyWhatRuns = {
  name: 'only-what-runs',
  setup(pluginBuild) {
    const undiciDir = dirname(require.resolve('undici/package.json'));
    pluginBuild.onResolve({ filter: /^undici$/ }, () => ({ path: 'undici', namespace: 'undici-dispatch' }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'undici-dispatch' }, () => ({
      resolveDir: undiciDir,
      loader: 'js',
      contents: [
        "import Dispatcher from './lib/dispatcher/dispatcher.js';",
        "import api from './lib/api/index.js';",
        // What undici's index does for every dispatcher: the request, stream and pipeline methods.
        'Object.assign(Dispatcher.prototype, api);',
        "export { default as Agent } from './lib/dispatcher/agent.js';",
        "export { default as ProxyAgent } from './lib/dispatcher/proxy-agent.js';",
        "export { getGlobalDispatcher } from './lib/global.js';",
        "export async function fetch(input, init) { return (await import('./index.js')).fetch(input, init); }",
      ].join('\n'),
    }));
    pluginBuild.onLoad({ filter: /\/zod\/v4\/locales\/index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: 'js' }));
  },
};

await rm(outDir, { recursive: true, force: true });
await mkdir(outDir, { recursive: true });
const started = Date.now();
const result = await build({
  // main.ts, and any other program the image ships beside it (src/<name>-main.ts -> dist/<name>-main.mjs: the backup
  // controller's volume server, which its Jobs run from the same image).
  entryPoints: [resolve(packageDir, 'src/main.ts'), ...readdirSync(join(packageDir, 'src')).filter((name) => name.endsWith('-main.ts')).map((name) => join(packageDir, 'src', name))],
  outdir: outDir,
  outExtension: { '.js': '.mjs' },
  // Chunks beside main.mjs, not below it: the addon's require('./zookeeper.node') is resolved from the chunk's place.
  chunkNames: '[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: 'linked',
  // The program's source text stays in the heap for the life of the process: without comments and indentation it is
  // about half as long, and with no non-ASCII character left (comments of dependencies held some) V8 stores it one
  // byte per character instead of two. Identifiers are kept, so stack traces still name the functions.
  minifyWhitespace: true,
  minifySyntax: true,
  // Bundled CommonJS dependencies use require(), __filename and __dirname, which an ES module does not have.
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      "const __dirname = __filename.slice(0, __filename.lastIndexOf('/'));",
    ].join(' '),
  },
  plugins: [zookeeperAddon, clientNodeWithoutSideEffects, onlyWhatRuns],
  metafile: true,
  logLevel: 'warning',
});
const webDir = join(packageDir, 'web');
if (existsSync(webDir)) await cp(webDir, join(outDir, 'web'), { recursive: true });
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`bundled ${packageDir} into dist/ (${String(Math.round(bytes / 1024))} KiB) in ${String(Date.now() - started)} ms`);
