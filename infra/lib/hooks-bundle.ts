import { createHash } from 'node:crypto';
import { chmod, copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { discoverHooksHome } from '../../src/hooks/discover-hooks-home.ts';
import type { HooksHomeDescription } from '../../src/hooks/hooks-home-description.ts';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { isPlainObject } from '../../src/hooks/python-truthiness.ts';
import { parseShellHooks } from '../../src/hooks/shell/config/parse-config.ts';
import type { ShellHookEntry } from '../../src/hooks/shell/config/shell-hook-entry.ts';
import type { AllowlistEntry } from '../../src/hooks/shell/consent/allowlist-store.ts';
import { findHooksConfigProblems, formatProblem } from '../../src/hooks/validate-hooks-home.ts';
import { BUNDLED_HOME_DIR, type HooksBundle } from './function-bundling.ts';
import {
  findHooksHomeSymlinks,
  HooksHomeFilesError,
  planHooksHomeFiles,
  type HooksHomePlan,
  type ShippedUnit,
} from './hooks-home-files.ts';
import { readPluginsConfig } from '../../src/hooks/plugins/plugins-config.ts';
import { suggestHookName } from '../../src/hooks/shell/config/did-you-mean.ts';
import { HookgateError } from '../../src/errors/hookgate-error.ts';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FUNCTIONS = ['gateway', 'turn', 'observer'] as const;

/** The hooks home has a manifest that would be skipped at run time: the build stops. */
export class HooksHomeBuildError extends HookgateError {
  override readonly name = 'HooksHomeBuildError';
}

/**
 * Discovers a hooks home at synth time and writes what esbuild compiles into each function:
 * a module that imports every enabled plugin and every gateway handler statically and
 * registers them with the description (src/hooks/bundled-hooks.ts), and per function an
 * entry that imports that module first, then the function.
 *
 * The home is validated here: a config.yaml, plugin.yaml or HOOK.yaml the engine would
 * partly ignore fails the build with file, line and reason — a deployed gateway should not
 * find out. Then the deployed home is staged by inclusion (hooks-home-files.ts): what the
 * hooks use, never secrets or state; every shell-hook script must be there and runnable,
 * and each configured command is mapped to its script's bundled place. What ships is printed.
 *
 * @example
 * const bundle = await prepareHooksBundle('~/.hermes'); // then new HookgateStack(app, id, { hooksBundle: bundle, … })
 */
export async function prepareHooksBundle(
  homeArg: string,
  options: {
    buildDir?: string;
    searchDirs?: readonly string[];
    print?: (line: string) => void;
    /** `all`: every enabled shell hook ships approved (context `approveShellHooks`); default: none. */
    approveShellHooks?: 'none' | 'all';
    /** Shell hooks that may ship though Lambda lacks a program they call (context `allowHooksMissingInLambda`). */
    allowHooksMissingInLambda?: readonly string[];
  } = {},
): Promise<HooksBundle> {
  const home = resolve(homeArg.replace(/^~(?=$|\/)/, process.env.HOME ?? '~'));
  // A mistyped -c hooksHome must not deploy an empty home that looks like a choice.
  const found = await stat(home).catch(() => undefined);
  if (!found?.isDirectory()) {
    throw new HooksHomeBuildError(`hooks home ${home} ${found ? 'is not a directory' : 'does not exist'} (-c hooksHome)`);
  }
  // Before anything reads the home: discovery follows links, and a loop would end in a stack trace.
  const links = findHooksHomeSymlinks(home);
  if (links.length > 0) {
    throw new HooksHomeBuildError(
      `hooks home ${home} cannot be bundled:\n  ${links.map((link) => `${link}: symbolic link, not bundled`).join('\n  ')}`,
    );
  }
  const problems = await findHooksConfigProblems(home);
  if (problems.length > 0) {
    throw new HooksHomeBuildError(`hooks home ${home} cannot be bundled:\n  ${problems.map(formatProblem).join('\n  ')}`);
  }
  const discovered = await discoverHooksHome(home, { gatewayHooks: true });
  assertBuildable(discovered);

  const searchDirs = [...new Set(options.searchDirs ?? [process.cwd(), REPO_ROOT])];
  let plan: HooksHomePlan;
  try {
    plan = planHooksHomeFiles(home, shellEntriesWithFiles(discovered.config), searchDirs, {
      units: await shippedUnits(discovered),
      allowMissingInLambda: options.allowHooksMissingInLambda ?? [],
    });
  } catch (error) {
    if (error instanceof HooksHomeFilesError) throw new HooksHomeBuildError(error.message);
    throw error;
  }
  const print = options.print ?? ((line: string) => void process.stderr.write(`${line}\n`));
  // Consent in a deployment is explicit: the stack's allowlist (`hookgate hooks approve
  // --stack`) or approvals shipped on purpose, never a local file's `hooks_auto_accept`.
  const { hooks_auto_accept: autoAccept, ...config } = discovered.config;
  if (autoAccept !== undefined) {
    print(
      `hookgate: hooks_auto_accept in ${join(home, 'config.yaml')} is not deployed; approve with \`hookgate hooks approve … --stack\` or -c approveShellHooks=all`,
    );
  }
  const approvedShellHooks = options.approveShellHooks === 'all' ? await shippedApprovals(home, config, plan) : [];
  for (const entry of approvedShellHooks) {
    const pinned = entry.script_sha256_at_approval ? `sha256 ${entry.script_sha256_at_approval}` : 'no script file to pin';
    print(`hookgate: shipping approval of shell hook ${entry.event}: ${entry.command} (${pinned})`);
  }
  const description: HooksHomeDescription = {
    ...discovered,
    config,
    shellCommands: plan.shellCommands,
    ...(approvedShellHooks.length > 0 ? { approvedShellHooks } : {}),
  };

  const fingerprint = await fingerprintOf(plan, approvedShellHooks);
  const entriesDir = join(options.buildDir ?? join(REPO_ROOT, '.hookgate-build'), fingerprint);
  const stagedHome = join(entriesDir, 'home');
  await rm(stagedHome, { recursive: true, force: true });
  for (const file of plan.files) {
    const target = join(stagedHome, ...file.target.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(file.source, target);
    await chmod(target, (await stat(file.source)).mode & 0o777);
  }
  print(describePlan(home, plan));

  const entries = [
    ...description.plugins.filter((p) => p.enabled).map((p) => p.entry),
    ...description.gatewayHooks.flatMap((h) => (h.kind === 'hook' ? [h.handler] : [])),
  ];
  const registerModule = join(entriesDir, 'register-hooks.ts');
  await mkdir(entriesDir, { recursive: true }); // a home with no file to ship made none above
  const lines = [
    '// Generated by infra/lib/hooks-bundle.ts at synth time. Do not edit.',
    "import { fileURLToPath } from 'node:url';",
    `import { registerBundledHooks } from ${JSON.stringify(join(REPO_ROOT, 'src/hooks/bundled-hooks.ts'))};`,
    ...entries.map((entry, i) => `import * as m${i} from ${JSON.stringify(join(home, entry))};`),
    'registerBundledHooks({',
    // The home ships beside the bundle (index.mjs): /var/task/hooks-home in Lambda.
    `  home: fileURLToPath(new URL(${JSON.stringify(`./${BUNDLED_HOME_DIR}`)}, import.meta.url)),`,
    `  description: ${JSON.stringify(description)},`,
    `  modules: { ${entries.map((entry, i) => `${JSON.stringify(entry)}: m${i}`).join(', ')} },`,
    '});',
    '',
  ];
  await writeFile(registerModule, lines.join('\n'));
  for (const fn of FUNCTIONS) {
    await writeFile(
      join(entriesDir, `${fn}.entry.ts`),
      [
        '// Generated by infra/lib/hooks-bundle.ts. The hooks register before the function loads.',
        "import './register-hooks.ts';",
        `export { handler } from ${JSON.stringify(join(REPO_ROOT, 'functions', `${fn}.ts`))};`,
        `export { describeBundledRegistry, invokeBundledHook } from ${JSON.stringify(join(REPO_ROOT, 'infra/lib/describe-bundled-registry.ts'))};`,
        '',
      ].join('\n'),
    );
  }
  return {
    home,
    stagedHome,
    registerModule,
    entriesDir,
    fingerprint,
    files: plan.files.map((f) => f.target),
    totalBytes: plan.totalBytes,
  };
}

/**
 * One approval per enabled shell hook, fingerprinted with its bundled script, dated by the
 * config file (so the same home gives the same bundle).
 */
async function shippedApprovals(home: string, config: Record<string, unknown>, plan: HooksHomePlan): Promise<AllowlistEntry[]> {
  let approvedAt = new Date(0).toISOString();
  try {
    approvedAt = (await stat(join(home, 'config.yaml'))).mtime.toISOString();
  } catch {
    // no config.yaml: no shell hooks either
  }
  const sources = new Map(plan.files.map((f) => [f.target, f.source]));
  const approvals: AllowlistEntry[] = [];
  for (const entry of shellEntriesWithFiles(config)) {
    if (!entry.enabled || approvals.some((a) => a.event === entry.event && a.command === entry.command)) continue;
    const script = plan.shellCommands[entry.command];
    const source = script ? sources.get(script.script) : undefined;
    approvals.push({
      event: entry.event,
      command: entry.command,
      approved_at: approvedAt,
      script_mtime_at_approval: null,
      script_sha256_at_approval: source
        ? createHash('sha256')
            .update(await readFile(source))
            .digest('hex')
        : null,
    });
  }
  return approvals;
}

/** `bundled hooks home …: N files, X KiB` and one line per file, for the synth output. */
function describePlan(home: string, plan: HooksHomePlan): string {
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  return [
    `hookgate: bundled hooks home ${home}: ${plan.files.length} files, ${kib(plan.totalBytes)}`,
    ...plan.files.map((f) => `  ${f.target} (${f.size} B)`),
  ].join('\n');
}

/** The enabled shell-hook entries, each with the `files:` list of its config.yaml entry. */
function shellEntriesWithFiles(config: Record<string, unknown>): (ShellHookEntry & { files?: unknown })[] {
  const raw = isPlainObject(config.hooks) ? config.hooks : {};
  return parseShellHooks(config, createMemoryLogger()).map((entry) => {
    const list = raw[entry.event];
    const match = Array.isArray(list)
      ? list.find((item) => isPlainObject(item) && typeof item.command === 'string' && item.command.trim() === entry.command)
      : undefined;
    return isPlainObject(match) && match.files !== undefined ? { ...entry, files: match.files } : entry;
  });
}

/** The enabled plugins and the gateway hooks: their manifests and declared files ship, their code is compiled in. */
async function shippedUnits(description: HooksHomeDescription): Promise<ShippedUnit[]> {
  const units: ShippedUnit[] = description.plugins
    .filter((p) => p.enabled)
    .map((p) => ({
      dir: `plugins/${p.dir}`,
      manifest: 'plugin.yaml',
      ...(p.manifest.files !== undefined ? { files: p.manifest.files } : {}),
    }));
  for (const hook of description.gatewayHooks) {
    if (hook.kind !== 'hook') continue;
    // Discovery validated this HOOK.yaml as a mapping; only its `files:` is read here.
    const manifest: unknown = parseYaml(await readFile(join(description.home, 'hooks', hook.dir, 'HOOK.yaml'), 'utf8'));
    const files = isPlainObject(manifest) ? manifest.files : undefined;
    units.push({ dir: `hooks/${hook.dir}`, manifest: 'HOOK.yaml', ...(files !== undefined ? { files } : {}) });
  }
  return units;
}

/** `plugins.enabled` names that no plugin in the home has: each with the closest name there is. */
function unknownEnabledPlugins(description: HooksHomeDescription): string[] {
  const { enabled } = readPluginsConfig(description.config, createMemoryLogger());
  const names = description.plugins.map((p) => p.name);
  return enabled
    .filter((name) => !names.includes(name))
    .map((name) => {
      const suggestion = suggestHookName(name, names);
      return (
        `${join(description.home, 'config.yaml')}: plugins.enabled names '${name}', but no plugin in ${join(description.home, 'plugins')} is called that` +
        (suggestion ? ` — did you mean '${suggestion}'?` : ` (plugins there: ${names.join(', ') || 'none'})`)
      );
    });
}

function assertBuildable(description: HooksHomeDescription): void {
  const problems = [
    ...unknownEnabledPlugins(description),
    ...description.gatewayHooks.flatMap((h) =>
      h.kind === 'skip' ? [`${join(description.home, 'hooks', h.dir, 'HOOK.yaml')}: ${h.line}`] : [],
    ),
    ...description.notices.filter((n) => n.level === 'warn' || n.level === 'error').map((n) => n.message),
  ];
  if (problems.length > 0) {
    throw new HooksHomeBuildError(`hooks home ${description.home} cannot be bundled:\n  ${problems.join('\n  ')}`);
  }
}

/** A content hash of what ships: the same files give the same deployed version. */
async function fingerprintOf(plan: HooksHomePlan, approvals: readonly AllowlistEntry[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of plan.files) {
    hash
      .update(file.target)
      .update('\0')
      .update(String((await stat(file.source)).mode & 0o777))
      .update('\0')
      .update(await readFile(file.source))
      .update('\0');
  }
  hash.update(JSON.stringify(plan.shellCommands)).update(JSON.stringify(approvals));
  return hash.digest('hex').slice(0, 16);
}
