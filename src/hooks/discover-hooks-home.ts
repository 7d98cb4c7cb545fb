import { access, readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { compareCodePoints } from './code-point-order.ts';
import { readHooksConfig } from './config-file.ts';
import { parseYaml } from './parse-yaml.ts';
import { errorText } from '../errors/error-text.ts';
import type {
  DiscoveryNotice,
  GatewayHookDescription,
  HooksHomeDescription,
  PluginDescription,
} from './hooks-home-description.ts';
import { createMemoryLogger } from './hook-logger.ts';
import { describeManifestIssues, PluginManifestSchema } from './plugins/plugin-manifest.ts';
import { readPluginsConfig } from './plugins/plugins-config.ts';
import { isPlainObject, isTruthy } from './python-truthiness.ts';
import { pythonRepr } from './python-repr.ts';

const PLUGIN_ENTRIES = ['index.ts', 'index.js', 'index.mjs'] as const;
const HANDLER_FILES = ['handler.ts', 'handler.js', 'handler.mjs'] as const;

export interface DiscoverHooksHomeOptions {
  /** Also discover `hooks/*` gateway event hooks (the gateway does, the CLI never does). */
  gatewayHooks?: boolean;
}

/**
 * Reads a hooks home into a plain, serialisable {@link HooksHomeDescription}: config.yaml,
 * the plugin candidates in load order with their validated manifests and enablement, and
 * (optionally) the gateway hooks with every §2.1 decision already taken except those that
 * need the handler module. Never throws for bad content; reports it in `notices` / skips.
 *
 * @example
 * const description = await discoverHooksHome('/home/me/.hermes', { gatewayHooks: true });
 * const engine = await createHookEngine({ description, modules }); // no disk reads of manifests
 */
export async function discoverHooksHome(home: string, options: DiscoverHooksHomeOptions = {}): Promise<HooksHomeDescription> {
  const root = resolve(home);
  const log = createMemoryLogger();
  const configFile = await readHooksConfig(root);
  if (configFile.warning) log.warn(configFile.warning);
  const plugins = await discoverPlugins(root, configFile.config, log);
  const gatewayHooks = options.gatewayHooks ? await discoverGatewayHooks(root, log) : [];
  const notices: DiscoveryNotice[] = log.lines.map(({ level, message }) => ({ level, message }));
  return { home: root, config: configFile.config, plugins, gatewayHooks, notices };
}

async function sortedDirectories(parent: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(parent, { withFileTypes: true });
  } catch {
    return []; // no directory: nothing loaded, nothing printed
  }
  const names: string[] = [];
  for (const entry of entries) {
    // A symlinked plugin or hook directory counts, as in the reference (Path.is_dir follows links).
    const isDir =
      entry.isDirectory() ||
      (entry.isSymbolicLink() &&
        (await stat(join(parent, entry.name)).then(
          (s) => s.isDirectory(),
          () => false,
        )));
    if (isDir) names.push(entry.name);
  }
  return names.sort(compareCodePoints);
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

async function firstExisting(dir: string, names: readonly string[]): Promise<string | undefined> {
  for (const name of names) if (await exists(join(dir, name))) return name;
  return undefined;
}

async function discoverPlugins(
  home: string,
  config: Record<string, unknown>,
  log: ReturnType<typeof createMemoryLogger>,
): Promise<PluginDescription[]> {
  const { enabled, disabled } = readPluginsConfig(config, log);
  const found: PluginDescription[] = [];
  for (const dir of await sortedDirectories(join(home, 'plugins'))) {
    const dirPath = join(home, 'plugins', dir);
    const manifestPath = join(dirPath, 'plugin.yaml');
    const entry = await firstExisting(dirPath, PLUGIN_ENTRIES);
    if (entry === undefined || !(await exists(manifestPath))) continue;
    let raw: unknown;
    try {
      raw = await parseYaml(await readFile(manifestPath, 'utf8'));
    } catch (error) {
      log.warn(`skipping plugin ${dir}: cannot parse ${manifestPath}: ${errorText(error)}`);
      continue;
    }
    if (raw === null || raw === undefined) raw = {};
    if (!isPlainObject(raw)) {
      log.warn(`skipping plugin ${dir}: ${manifestPath} must be a mapping, got ${pythonRepr(raw).slice(0, 80)}`);
      continue;
    }
    const parsed = PluginManifestSchema.safeParse(raw);
    if (!parsed.success) {
      log.warn(`skipping plugin ${dir}: invalid ${manifestPath}: ${describeManifestIssues(parsed.error)}`);
      continue;
    }
    const name = parsed.data.name ?? dir;
    found.push({
      dir,
      name,
      entry: `plugins/${dir}/${entry}`,
      manifest: raw,
      enabled: enabled.includes(name) && !disabled.includes(name),
      disabled: disabled.includes(name),
    });
  }
  return found;
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (value === null) return 'null';
  if (isPlainObject(value)) return 'mapping';
  return typeof value;
}

async function discoverGatewayHooks(home: string, log: ReturnType<typeof createMemoryLogger>): Promise<GatewayHookDescription[]> {
  const found: GatewayHookDescription[] = [];
  for (const dir of await sortedDirectories(join(home, 'hooks'))) {
    const dirPath = join(home, 'hooks', dir);
    const manifestPath = join(dirPath, 'HOOK.yaml');
    const handler = await firstExisting(dirPath, HANDLER_FILES);
    if (handler === undefined || !(await exists(manifestPath))) continue; // silently (§2.1 step 1)
    let manifest: unknown;
    try {
      manifest = await parseYaml(await readFile(manifestPath, 'utf8'));
    } catch (error) {
      found.push({ kind: 'skip', dir, line: `[hooks] Error loading hook ${dir}: ${errorText(error)}` });
      continue;
    }
    if (!isTruthy(manifest) || !isPlainObject(manifest)) {
      found.push({ kind: 'skip', dir, line: `[hooks] Skipping ${dir}: invalid HOOK.yaml` });
      continue;
    }
    const name = manifest.name === undefined || manifest.name === null ? dir : String(manifest.name);
    const events = manifest.events;
    if (!isTruthy(events)) {
      found.push({ kind: 'skip', dir, line: `[hooks] Skipping ${name}: no events declared` });
      continue;
    }
    if (!Array.isArray(events)) {
      // The reference iterates a string per character; hookgate registers nothing (§5.7).
      found.push({
        kind: 'skip',
        dir,
        line: `[hooks] Skipping ${name}: 'events' must be a list of event names, got ${typeName(events)} ${pythonRepr(events).slice(0, 80)}`,
      });
      continue;
    }
    const valid: string[] = [];
    events.forEach((item, index) => {
      if (typeof item === 'string' && item !== '') valid.push(item);
      else
        log.warn(
          `gateway hook ${name} (${manifestPath}): events[${index}] is not a non-empty string (${pythonRepr(item).slice(0, 80)}); ignoring it`,
        );
    });
    if (valid.length === 0) {
      found.push({ kind: 'skip', dir, line: `[hooks] Skipping ${name}: no events declared` });
      continue;
    }
    found.push({
      kind: 'hook',
      dir,
      name,
      description: manifest.description ?? '',
      events: valid,
      handler: `hooks/${dir}/${handler}`,
    });
  }
  return found;
}
