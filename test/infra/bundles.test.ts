import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, readdir, rm, stat, writeFile, mkdir, chmod } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, RemovalPolicy } from 'aws-cdk-lib';
import { HookgateStack } from '../../infra/lib/hookgate-stack.ts';
import { prepareHooksBundle, HooksHomeBuildError } from '../../infra/lib/hooks-bundle.ts';
import { BUNDLED_HOME_DIR, CHUNKS_DIR } from '../../infra/lib/function-bundling.ts';
import { createHookEngine, type RegistryListing } from '../../src/hooks/create-hook-engine.ts';
import type { RunningEmulators } from '../../src/local/emulators.ts';
import { startTestAws } from '../support/local-aws.ts';
import { stackResourceEnv } from '../support/stack-resource-env.ts';
import { runNode } from '../support/run-node.ts';
import { STRAY_REJECTION_MESSAGE } from '../../functions/support/stray-hook-errors.ts';
import { CDK_JSON_CONTEXT } from '../support/cdk-json-context.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES_HOME = join(REPO, 'examples');
const MiB = 1024 * 1024;

/** Every file under `dir`, `/`-separated and relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/** Runs an ES module script in `cwd` (as Lambda runs the bundle from /var/task) and collects its output. */
function runScriptIn(cwd: string, script: string, env: NodeJS.ProcessEnv) {
  return runNode(['--input-type=module', '-e', script], { cwd, env });
}

/**
 * The source files (from the source maps) of what importing `dir/index.mjs` loads before any
 * dynamic `import()`: index.mjs and the chunks it imports statically, transitively.
 */
async function startupSources(dir: string): Promise<string[]> {
  const sources = await Promise.all(
    (await startupFiles(dir)).map(
      async (f) => (JSON.parse(await readFile(join(dir, `${f}.map`), 'utf8')) as { sources: string[] }).sources,
    ),
  );
  return sources.flat();
}

/** The files importing `dir/index.mjs` loads before any dynamic `import()`, relative to `dir`. */
async function startupFiles(dir: string): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = await readFile(join(dir, file), 'utf8');
    const base = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
    // Static imports of chunks, minified: `import{…}from"./chunks/…"` or `import"./…"` (never `import(`).
    for (const [, spec] of code.matchAll(/\bimport\s*(?:[\w$*{},\s]*?from\s*)?["'](\.{1,2}\/[^"']+)["']/g))
      await visit(
        relative(dir, join(dir, base, spec!))
          .split('\\')
          .join('/'),
      );
  };
  await visit('index.mjs');
  return [...seen];
}

/** What must never reach an asset, planted in a copy of the examples' home. */
const PLANTED = [
  '.env',
  '.env.production',
  '.secret-notes',
  'sessions/s1.json',
  'logs/gateway.log',
  'memories/m.md',
  'node_modules/x/index.js',
  'shell-hooks-allowlist.json',
  '.hookgate/state.json',
  'plugins/tool-audit-log/.env',
  'hooks/activity-logger/sessions/old.json',
];

/**
 * Builds the three real function assets from the examples' hooks home with the stack's own
 * bundling (local esbuild through NodejsFunction), then inspects and imports them.
 */
describe('function bundles', () => {
  let buildDir: string;
  let assets: Record<'gateway' | 'turn' | 'observer', string>;
  let aws: RunningEmulators;
  let home: string;
  let synthOutput: string[];
  let bundledFiles: readonly string[];

  /** A built function's environment in a child process: the emulators for the stack's resources. */
  const functionEnv = (asset: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...stackResourceEnv(aws),
    AWS_REGION: aws.region,
    AWS_ACCESS_KEY_ID: aws.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: aws.credentials.secretAccessKey,
    AWS_ENDPOINT_URL_SQS: aws.sqsEndpoint,
    AWS_ENDPOINT_URL_SNS: aws.snsEndpoint,
    AWS_ENDPOINT_URL_S3: aws.s3Endpoint,
    AWS_ENDPOINT_URL_DYNAMODB: aws.dynamodbEndpoint,
    // As the stack sets it; the bundle finds its home beside itself either way.
    HOOKGATE_HOME: join(asset, BUNDLED_HOME_DIR),
  });

  beforeAll(async () => {
    // Inside the repo, so the bundles' external @aws-sdk imports resolve from node_modules.
    await mkdir(join(REPO, '.hookgate-build'), { recursive: true });
    buildDir = await mkdtemp(join(REPO, '.hookgate-build', 'test-'));
    // The examples' home as an operator's ~/.hermes looks: with secrets, state and history in it.
    home = join(buildDir, 'home');
    await cp(EXAMPLES_HOME, home, { recursive: true });
    for (const planted of PLANTED) {
      await mkdir(join(home, planted, '..'), { recursive: true });
      await writeFile(join(home, planted), 'PLANTED-SECRET sk-planted\n');
    }
    synthOutput = [];
    const hooksBundle = await prepareHooksBundle(home, {
      buildDir: join(buildDir, 'entries'),
      print: (line) => synthOutput.push(line),
      // The example's git-status hook copes without git (it adds nothing); said out loud.
      allowHooksMissingInLambda: ['inject-git-status.sh'],
    });
    bundledFiles = hooksBundle.files;
    const app = new App({ outdir: join(buildDir, 'cdk.out'), context: CDK_JSON_CONTEXT });
    const stack = new HookgateStack(app, 'bundle-test', {
      dataRemovalPolicy: RemovalPolicy.DESTROY,
      telemetrySubscribers: [],
      alarms: 'none',
      hooksBundle,
    });
    const assembly = app.synth();
    const template = assembly.getStackByName(stack.stackName).template as { Resources: Record<string, any> };
    const assetOf = (fragment: string) => {
      const [, fn] = Object.entries(template.Resources).find(
        ([id, r]) => r.Type === 'AWS::Lambda::Function' && id.includes(fragment),
      )!;
      const key = String(fn.Properties.Code.S3Key).replace(/\.zip$/, '');
      return join(buildDir, 'cdk.out', `asset.${key}`);
    };
    assets = { gateway: assetOf('gatewayfn'), turn: assetOf('turnfn'), observer: assetOf('observerfn') };
    aws = await startTestAws();
  }, 180_000);

  afterAll(async () => {
    await aws?.stop();
    if (buildDir) await rm(buildDir, { recursive: true, force: true });
  });

  it('keeps the gateway and observer code within 1.5 MB and the turn code within 3 MB: ESM, code-split, with source maps', async () => {
    const sizes: Record<string, { code: number; index: number }> = {};
    for (const [name, dir] of Object.entries(assets)) {
      const code = (await filesUnder(dir)).filter((f) => f.endsWith('.mjs'));
      expect(code).toContain('index.mjs');
      // Code-split (infra/lib/function-bundling.ts): what only a dynamic import() reaches is a chunk.
      expect(code.filter((f) => f.startsWith(`${CHUNKS_DIR}/`)).length).toBeGreaterThan(0);
      const bytes = await Promise.all(code.map(async (f) => (await stat(join(dir, f))).size));
      sizes[name] = { code: bytes.reduce((a, b) => a + b, 0), index: (await stat(join(dir, 'index.mjs'))).size };
      for (const f of code) {
        expect(await readFile(join(dir, `${f}.map`), 'utf8')).toMatch(/^\{\s*"version": 3,/);
        expect(await readFile(join(dir, f), 'utf8')).not.toMatch(/from\s*["']tsx/); // tsx is only for loading .ts from disk
      }
    }
    console.log('bundle sizes (bytes):', sizes);
    // The AWS SDK is bundled (docs/performance.md#cold-start): most of the gateway's code.
    expect(sizes.gateway!.code).toBeLessThanOrEqual(1.5 * MiB);
    expect(sizes.observer!.code).toBeLessThanOrEqual(1.5 * MiB);
    // The turn function alone carries the shell parser that judges dangerous commands (mvdan-sh, ~1.3 MB).
    expect(sizes.turn!.code).toBeLessThanOrEqual(3 * MiB);
  });

  it('ships only what the hooks use: manifests of enabled plugins and gateway hooks, no source, no disabled plugin, no planted secret, state or allowlist', async () => {
    const enabled = [
      'tool-audit-log',
      'guardrail-context',
      'redact-secrets',
      'dangerous-tool-warning',
      'tool-metrics',
      'memory-recall',
      'memory-sync',
      'response-length',
      'session-cache',
      'session-duration',
      'session-rotation',
      'subagent-log',
      'approval-notifier',
      'summarize-find',
    ];
    const expected = [
      'BOOT.md',
      'config.yaml',
      ...enabled.map((p) => `plugins/${p}/plugin.yaml`),
      ...(await filesUnder(join(EXAMPLES_HOME, 'hooks'))).filter((f) => f.endsWith('/HOOK.yaml')).map((f) => `hooks/${f}`),
    ];
    for (const dir of Object.values(assets)) {
      const shipped = await filesUnder(dir);
      const homeFiles = shipped
        .filter((f) => f.startsWith(`${BUNDLED_HOME_DIR}/`))
        .map((f) => f.slice(BUNDLED_HOME_DIR.length + 1));
      // Beside the bundle itself, only the hooks home.
      const bundle = shipped.filter((f) => !f.startsWith(`${BUNDLED_HOME_DIR}/`));
      const chunks = bundle.filter((f) => new RegExp(`^${CHUNKS_DIR}/[\\w-]+\\.mjs$`).test(f));
      expect(bundle).toEqual(['index.mjs', 'index.mjs.map', ...chunks.flatMap((f) => [f, `${f}.map`])].sort());
      expect(homeFiles).toEqual([...bundledFiles].sort());
      expect(homeFiles).toEqual(expect.arrayContaining(expected));
      // The four example scripts, referenced from the repository: nothing else.
      expect(
        homeFiles
          .filter((f) => !expected.includes(f))
          .map((f) => f.split('/').pop())
          .sort(),
      ).toEqual(['auto-format.sh', 'block-rm-rf.sh', 'inject-git-status.sh', 'log-subagent.sh']);
      for (const planted of PLANTED) expect(homeFiles).not.toContain(planted);
      // Compiled into index.mjs: no plugin or handler source, nothing of a disabled plugin.
      expect(homeFiles.filter((f) => /\.(ts|js|mjs)$/.test(f) && !f.startsWith('bundled-scripts/'))).toEqual([]);
      expect(homeFiles.filter((f) => /plugins\/(ambient-buffer|deny-unauthorised-dms|response-transform)\//.test(f))).toEqual([]);
      for (const file of shipped) expect(await readFile(join(dir, file), 'utf8')).not.toContain('PLANTED-SECRET');
    }
    const summary = synthOutput.join('\n');
    expect(summary).toMatch(new RegExp(`bundled hooks home ${home}: ${bundledFiles.length} files, [0-9.]+ KiB`));
    expect(summary).toContain('config.yaml (');
  });

  it("keeps the shell scripts' exec bits", async () => {
    const scripts = (await filesUnder(join(assets.gateway, BUNDLED_HOME_DIR))).filter((f) => f.endsWith('.sh'));
    expect(scripts).toHaveLength(4);
    for (const script of scripts) {
      const [source, copy] = await Promise.all([
        stat(join(EXAMPLES_HOME, 'agent-hooks', script.split('/').pop()!)),
        stat(join(assets.gateway, BUNDLED_HOME_DIR, script)),
      ]);
      expect(copy.mode & 0o777).toBe(source.mode & 0o777);
      expect(copy.mode & 0o100).toBe(0o100);
    }
  });

  it('registers from the bundle exactly what loading the same home from disk registers', async () => {
    // The function modules build their dependencies at import: give them the emulators, for this
    // test only (files share the worker's process.env), and quiet: their start-up lines are not its output.
    const saved = { ...process.env };
    Object.assign(process.env, { ...functionEnv(EXAMPLES_HOME), HOOKGATE_LOG_LEVEL: 'error', HOOKGATE_HOME: EXAMPLES_HOME });
    try {
      const disk = await createHookEngine({ home, gatewayHooks: true, skippedShellHooksShown: true, print: () => {} });
      const fromDisk: RegistryListing = disk.describeRegistry();
      await disk.close();
      expect(Object.keys(fromDisk.callbacks).length).toBeGreaterThan(0);
      expect(fromDisk.gatewayHooks.length).toBeGreaterThan(0);
      for (const dir of Object.values(assets)) {
        const bundle = (await import(pathToFileURL(join(dir, 'index.mjs')).href)) as {
          handler: unknown;
          describeBundledRegistry: (home: string) => Promise<RegistryListing>;
        };
        expect(typeof bundle.handler).toBe('function');
        expect(await bundle.describeBundledRegistry(home)).toEqual(fromDisk);
      }
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  }, 120_000); // three ~1 MB bundles imported and started in this process: slow on a loaded machine

  it('fails the build on a hooks home that does not exist, with the message; an empty one bundles', async () => {
    const missing = join(buildDir, 'no-such-home');
    await expect(prepareHooksBundle(missing, { buildDir: join(buildDir, 'missing-entries'), print: () => {} })).rejects.toThrow(
      new HooksHomeBuildError(`hooks home ${missing} does not exist (-c hooksHome)`),
    );
    const empty = await mkdtemp(join(buildDir, 'empty-home-'));
    const bundle = await prepareHooksBundle(empty, { buildDir: join(buildDir, 'empty-entries'), print: () => {} });
    expect(bundle.files).toEqual([]);
    expect(await readFile(bundle.registerModule, 'utf8')).toContain('registerBundledHooks({');
  });

  it('fails the build on a bad HOOK.yaml, naming file and line', async () => {
    const bad = await mkdtemp(join(buildDir, 'bad-home-'));
    await mkdir(join(bad, 'hooks', 'broken'), { recursive: true });
    await writeFile(join(bad, 'hooks', 'broken', 'HOOK.yaml'), 'events: agent:start\n');
    await writeFile(join(bad, 'hooks', 'broken', 'handler.mjs'), 'export function handle() {}\n');
    const attempt = prepareHooksBundle(bad, { buildDir: join(buildDir, 'bad-entries'), print: () => {} });
    await expect(attempt).rejects.toBeInstanceOf(HooksHomeBuildError);
    await expect(attempt).rejects.toThrow(
      `${join(bad, 'hooks', 'broken', 'HOOK.yaml')}:1: [hooks] Skipping broken: 'events' must be a list`,
    );
  });

  it("blocks rm -rf from the built turn asset run in its own directory, once approved in the stack's allowlist", async () => {
    const env = functionEnv(assets.turn);
    const guard = `
      const bundle = await import('./index.mjs');
      const decide = (command) => bundle.invokeBundledHook('pre_tool_call', { tool_name: 'terminal', args: { command }, task_id: 't', session_id: 's' });
      console.log(JSON.stringify({ rm: await decide('rm -rf /'), ls: await decide('ls -la') }));
    `;
    // Nothing approved yet: a deployment never takes consent from a local file.
    const before = await runScriptIn(assets.turn, guard, env);
    expect(before.stderr).not.toMatch(/Error/);
    expect(JSON.parse(before.stdout.trim().split('\n').pop()!)).toEqual({ rm: { action: 'allow' }, ls: { action: 'allow' } });

    // Approved as the operator would, with the command as config.yaml writes it.
    const approve = await runScriptIn(
      REPO,
      `const { runCli } = await import(${JSON.stringify(pathToFileURL(join(REPO, 'src/cli/main.ts')).href)});
       process.exitCode = await runCli(['hooks', 'approve', 'pre_tool_call', 'examples/agent-hooks/block-rm-rf.sh', '--table', ${JSON.stringify(aws.tableName)}, '--yes', '--home', ${JSON.stringify(home)}]);`,
      { ...env, NODE_OPTIONS: '--import tsx' },
    );
    expect(approve.code, approve.stdout + approve.stderr).toBe(0);

    const after = await runScriptIn(assets.turn, guard, env);
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout.trim().split('\n').pop()!)).toEqual({
      rm: { action: 'block', message: 'blocked: rm -rf / is not permitted' },
      ls: { action: 'allow' },
    });
  });

  it("keeps each built function's instance going after a stray rejection, under a runtime that would end it, and leaves hookgate's own uncaught exception to the runtime", async () => {
    // What Lambda's Node.js runtime does: it listens before it loads the function, and ends the
    // process on an unhandled rejection or an uncaught exception, failing the invocation in flight.
    // A hook's left-behind throw is test/hooks/stray-hook-errors.test.ts's (no example hook throws).
    const script = `
      process.on('unhandledRejection', () => { console.log('runtime: exit 128'); process.exit(128); });
      process.on('uncaughtException', (error) => { console.log('runtime: exit 129, ' + error.message); process.exit(129); });
      await import('./index.mjs');
      Promise.reject(new Error('left behind by a hook, key sk-strayRejectionSecret0123456789'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      console.log('still serving');
      setTimeout(() => { throw new Error('a fault of hookgate itself'); });
    `;
    for (const [name, dir] of Object.entries(assets)) {
      const run = await runScriptIn(dir, script, { ...functionEnv(dir), AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001' });
      expect(run.code, `${name}: ${run.stdout}${run.stderr}`).toBe(129);
      const lines = run.stdout.trim().split('\n');
      expect(lines.slice(-2), name).toEqual(['still serving', 'runtime: exit 129, a fault of hookgate itself']);
      const stray = lines.filter((l) => l.includes(STRAY_REJECTION_MESSAGE)).map((l) => JSON.parse(l) as Record<string, string>);
      expect(stray, name).toEqual([
        expect.objectContaining({ level: 'ERROR', event: 'stray_rejection', service: `hookgate-${name}` }),
      ]);
      expect(stray[0]!.reason).toContain('left behind by a hook');
      // The reason is a hook's text: redacted as any hook output in a log line.
      expect(run.stdout).not.toContain('sk-strayRejectionSecret0123456789');
    }
  });

  it('starts from the home described at build: no YAML parser, no classic zod or JSON Schema code, no ES import of node:http or node:readline (nor, in the gateway, the console, a platform adapter or the model transport) in what a cold start loads, and the shipped config.yaml is not read again', async () => {
    for (const [name, dir] of Object.entries(assets)) {
      const sources = await startupSources(dir);
      expect(
        sources.some((s) => s.includes('node_modules/zod/')),
        name,
      ).toBe(true); // the walk reads real maps
      expect(
        sources.filter((s) => s.includes('node_modules/yaml/')),
        name,
      ).toEqual([]);
      // zod/mini only (src/validation/zod.ts): classic zod costs each cold start ≈ 13 ms before its first schema.
      // Nor zod's JSON Schema code, nor the JSON Schema compiler that checks rewritten tool arguments:
      // with classic zod anywhere in a function, even behind a dynamic import, esbuild put zod's
      // files it shares with zod/mini (JSON Schema output included) in the startup chunk, ≈ 75 KB.
      expect(
        sources.filter((s) =>
          /node_modules\/(zod\/v4\/classic\/|zod\/v4\/core\/(to-json-schema|json-schema-\w+)\.js|ajv\/)/.test(s),
        ),
        name,
      ).toEqual([]);
      expect(
        sources.filter((s) => s.includes('node_modules/zod/v4/locales/')).map((s) => s.split('/').pop()),
        name,
      ).toEqual(['en.js']);
    }
    // The gateway loads the console only where it is served, a platform's adapter (with its
    // verification library) only when the platform is enabled (src/gateway/gateway-adapters.ts),
    // and the model transport (with its wire schemas) with the first prompt hook it judges.
    const gatewayStartup = await startupSources(assets.gateway);
    expect(
      gatewayStartup.filter((s) =>
        /src\/console\/|src\/platforms\/\w+\/\w+-adapter\.ts$|node_modules\/(jose|discord-interactions)\/|src\/agent\/model\/(openai-transport|chat-wire)\.ts$/.test(
          s,
        ),
      ),
    ).toEqual([]);

    // The shell-hook machinery (parser, consent, spawn pool) loads with the first config that has a
    // hooks: section (src/hooks/create-hook-engine.ts), so neither function's import compiles it.
    for (const name of ['gateway', 'observer'] as const) {
      expect(
        (await startupSources(assets[name])).filter((s) => s.includes('src/hooks/shell/')),
        name,
      ).toEqual([]);
    }

    // No function imports `node:http` as an ES module at cold start: on Node 22 that loads undici
    // (docs/performance.md#cold-start). The SDK imports `node:https` for AWS's endpoints. Nor
    // `node:readline`, which only the consent prompt on a terminal uses.
    for (const [name, dir] of Object.entries(assets)) {
      const code = await Promise.all((await startupFiles(dir)).map((f) => readFile(join(dir, f), 'utf8')));
      const httpImports = code.flatMap((c) => [
        ...c.matchAll(/\bimport\s*(?:[\w$*{},\s]*?from\s*)?["'](?:node:)?(?:http|readline)["']/g),
      ]);
      expect(
        httpImports.map((m) => m[0]),
        name,
      ).toEqual([]);
      expect(
        code.some((c) => /["']node:https["']/.test(c)),
        name,
      ).toBe(true); // the scan reads the real imports
    }

    // The build validated the home and described it (the next tests: a bad file fails the synth);
    // the function runs from that description, so a file changed in the asset afterwards is not
    // what it runs, and is not parsed at cold start.
    const changed = join(buildDir, 'changed-asset');
    await cp(assets.observer, changed, { recursive: true });
    await writeFile(join(changed, BUNDLED_HOME_DIR, 'config.yaml'), 'hooks: [this is: not, {valid yaml\n');
    const { code, stderr } = await runScriptIn(changed, `await import('./index.mjs');`, functionEnv(changed));
    expect(code, stderr).toBe(0);
  });

  it('fails the build on an invalid config.yaml, naming file, line and reason', async () => {
    const bad = await mkdtemp(join(buildDir, 'bad-config-'));
    await writeFile(
      join(bad, 'config.yaml'),
      'hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n      timeout: soon\n  pre_tol_call: []\n',
    );
    const attempt = prepareHooksBundle(bad, { buildDir: join(buildDir, 'bad-entries'), print: () => {} });
    await expect(attempt).rejects.toBeInstanceOf(HooksHomeBuildError);
    await expect(attempt).rejects.toThrow(`${join(bad, 'config.yaml')}:4: hooks.pre_tool_call[0].timeout must be an int`);
    await expect(attempt).rejects.toThrow(`${join(bad, 'config.yaml')}:5: unknown shell hook event 'pre_tol_call'`);
    await writeFile(join(bad, 'config.yaml'), 'hooks:\n  pre_tool_call: [\n');
    await expect(prepareHooksBundle(bad, { buildDir: join(buildDir, 'bad-entries'), print: () => {} })).rejects.toThrow(
      new RegExp(`${join(bad, 'config.yaml')}:\\d+: not valid YAML`),
    );
  });

  it('refuses a home whose shell-hook script is missing or not executable', async () => {
    const bad = await mkdtemp(join(buildDir, 'bad-scripts-'));
    await mkdir(join(bad, 'agent-hooks'));
    await writeFile(join(bad, 'agent-hooks', 'guard.sh'), '#!/bin/sh\necho {}\n');
    await chmod(join(bad, 'agent-hooks', 'guard.sh'), 0o644);
    await writeFile(
      join(bad, 'config.yaml'),
      'hooks:\n  pre_tool_call:\n    - command: agent-hooks/guard.sh\n    - command: agent-hooks/missing.sh\n    - command: bash agent-hooks/guard.sh\n',
    );
    const attempt = prepareHooksBundle(bad, { buildDir: join(buildDir, 'bad-entries'), print: () => {}, searchDirs: [] });
    await expect(attempt).rejects.toThrow(/agent-hooks\/guard\.sh is not executable/);
    await expect(attempt).rejects.toThrow(/script agent-hooks\/missing\.sh not found/);
    await expect(attempt).rejects.not.toThrow(/bash agent-hooks\/guard\.sh/); // an interpreter only needs to read it
  });

  it('ships approvals only when asked at synth, and never hooks_auto_accept', async () => {
    const approving = await mkdtemp(join(buildDir, 'approve-'));
    await cp(EXAMPLES_HOME, approving, { recursive: true });
    await writeFile(
      join(approving, 'config.yaml'),
      `${await readFile(join(EXAMPLES_HOME, 'config.yaml'), 'utf8')}\nhooks_auto_accept: true\n`,
    );
    const lines: string[] = [];
    const allowHooksMissingInLambda = ['inject-git-status.sh'];
    const plain = await prepareHooksBundle(approving, {
      buildDir: join(buildDir, 'approve-none'),
      print: (l) => lines.push(l),
      allowHooksMissingInLambda,
    });
    const plainModule = await readFile(plain.registerModule, 'utf8');
    expect(plainModule).not.toContain('hooks_auto_accept');
    expect(plainModule).not.toContain('approvedShellHooks');
    expect(lines.join('\n')).toContain('hooks_auto_accept in');
    const shipped: string[] = [];
    const all = await prepareHooksBundle(approving, {
      buildDir: join(buildDir, 'approve-all'),
      print: (l) => shipped.push(l),
      approveShellHooks: 'all',
      allowHooksMissingInLambda,
    });
    expect(all.fingerprint).not.toBe(plain.fingerprint);
    // Each approval printed with the hash it pins, so that the operator can check it against the reviewed script.
    const guardSha = createHash('sha256')
      .update(await readFile(join(EXAMPLES_HOME, 'agent-hooks', 'block-rm-rf.sh')))
      .digest('hex');
    expect(shipped).toContain(
      `hookgate: shipping approval of shell hook pre_tool_call: examples/agent-hooks/block-rm-rf.sh (sha256 ${guardSha})`,
    );
    expect(await readFile(all.registerModule, 'utf8')).toContain(
      '"approvedShellHooks":[{"event":"pre_tool_call","command":"examples/agent-hooks/block-rm-rf.sh"',
    );
  });
});
