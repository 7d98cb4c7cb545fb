#!/usr/bin/env node
/**
 * `npm install` step: compiles native/hook-spawn.c into build/Release/hook-spawn.node, the
 * spawner that lets shell hooks start straight from Node's process (see
 * src/hooks/shell/hook-spawn-addon.ts). One C file against the N-API headers that Node ships,
 * so a plain compiler call does it: node-gyp would fetch headers over the network unless
 * `nodedir` is configured. Never fails the install: without a compiler or headers (or off
 * Linux) it says so and shell hooks use the /bin/sh driver instead.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'native', 'hook-spawn.c');
const target = join(root, 'build', 'Release', 'hook-spawn.node');

function skip(reason) {
  console.log(`hookgate: native hook spawner not built (${reason}); shell hooks will use the /bin/sh driver.`);
  process.exit(0);
}

if (process.platform !== 'linux') skip(`${process.platform} is not Linux`);
if (!existsSync(source)) skip('native/hook-spawn.c is not in this package');
const includeDir = [process.env.npm_config_nodedir, join(dirname(dirname(process.execPath)))]
  .filter(Boolean)
  .map((prefix) => join(prefix, 'include', 'node'))
  .find((dir) => existsSync(join(dir, 'node_api.h')) && existsSync(join(dir, 'uv.h')));
if (!includeDir) skip("Node's headers (include/node/node_api.h) were not found");

const compiler = process.env.CC || 'cc';
mkdirSync(dirname(target), { recursive: true });
const args = ['-O2', '-fPIC', '-shared', '-Wall', '-Wextra', '-Werror', '-I', includeDir, source, '-o', target];
const result = spawnSync(compiler, args, { stdio: ['ignore', 'inherit', 'inherit'] });
if (result.error) skip(`${compiler}: ${result.error.message}`);
if (result.status !== 0) skip(`${compiler} exited with ${result.status ?? result.signal}`);
console.log(`hookgate: built ${target.slice(root.length + 1)}`);
