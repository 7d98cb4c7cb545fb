import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { createMemoryLogger } from './hook-logger.ts';
import { discoverHooksHome } from './discover-hooks-home.ts';
import { PluginManifestSchema } from './plugins/plugin-manifest.ts';
import { readPluginsConfig } from './plugins/plugins-config.ts';
import { isPlainObject } from './python-truthiness.ts';
import { parseShellHooks } from './shell/config/parse-config.ts';
import { HookgateError } from '../errors/hookgate-error.ts';
import { errorText } from '../errors/error-text.ts';

/** One thing wrong with a hooks-home file, where an editor can jump to it. */
export interface HooksConfigProblem {
  /** Absolute path of the file. */
  readonly file: string;
  /** 1-based line (1 when the whole file is at fault). */
  readonly line: number;
  readonly reason: string;
}

/**
 * A hooks home whose config.yaml, plugin.yaml or HOOK.yaml the engine would ignore in part
 * or whole. Where the configuration is deployed or served (synth, Lambda cold start,
 * `hookgate dev`) that is an error: a typo must not silently turn a guard off.
 */
export class InvalidHooksConfigError extends HookgateError {
  override readonly name = 'InvalidHooksConfigError';
  constructor(readonly problems: readonly HooksConfigProblem[]) {
    super(`invalid hooks configuration:\n  ${problems.map(formatProblem).join('\n  ')}`);
  }
}

/** `path:line: reason`, the form compilers use. */
export function formatProblem(problem: HooksConfigProblem): string {
  return `${problem.file}:${problem.line}: ${problem.reason}`;
}

/**
 * Finds everything in a hooks home that loading would warn about and then skip or repair:
 * config.yaml that does not parse or is not a mapping, `hooks:` entries the shell-hook
 * parser rejects or repairs (unknown event, missing command, bad timeout, …), bad
 * `plugins:` lists, and plugin.yaml / HOOK.yaml manifests discovery would skip. The
 * runtime's own parsers decide what is wrong, so strict and lenient loading never
 * disagree; this only adds the file and line. A missing file is never a problem.
 *
 * The library entry (`loadHookEngine`) does not call this: there, as in Hermes, a file that
 * cannot be parsed is treated as empty with a warning (hook-semantics §0.1).
 *
 * @example
 * const problems = await findHooksConfigProblems('/home/me/.hermes');
 * // [{ file: '/home/me/.hermes/config.yaml', line: 7, reason: "hooks.pre_tool_call[0] is missing a non-empty 'command' field; skipping it" }]
 */
export async function findHooksConfigProblems(home: string): Promise<HooksConfigProblem[]> {
  const root = resolve(home);
  const problems: HooksConfigProblem[] = [];
  problems.push(...(await configProblems(join(root, 'config.yaml'))));
  const description = await discoverHooksHome(root, { gatewayHooks: true });
  problems.push(...(await manifestProblems(root, description.notices, description.gatewayHooks)));
  return problems;
}

/** Throws {@link InvalidHooksConfigError} when {@link findHooksConfigProblems} finds anything. */
export async function assertValidHooksConfig(home: string): Promise<void> {
  const problems = await findHooksConfigProblems(home);
  if (problems.length > 0) throw new InvalidHooksConfigError(problems);
}

interface ParsedYaml {
  readonly doc?: Document.Parsed;
  readonly lines: LineCounter;
  readonly problems: HooksConfigProblem[];
}

async function readYaml(file: string): Promise<ParsedYaml | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { lines: new LineCounter(), problems: [{ file, line: 1, reason: `cannot read: ${errorText(error)}` }] };
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const problems = doc.errors.map((error) => ({
    file,
    line: error.linePos?.[0].line ?? lines.linePos(error.pos[0]).line,
    reason: `not valid YAML: ${error.message.split('\n')[0]}`,
  }));
  return { doc, lines, problems };
}

type PathKey = string | number;

/** The line of the deepest node along `path` (the key's line for a mapping entry). */
function lineOf(parsed: ParsedYaml, path: readonly PathKey[]): number {
  let node: unknown = parsed.doc?.contents;
  let line = 1;
  const at = (offset: number | undefined) => (offset === undefined ? line : parsed.lines.linePos(offset).line);
  if (node && typeof node === 'object' && 'range' in node) line = at((node as { range?: [number] }).range?.[0]);
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(key));
      if (!pair) return line;
      line = at(isScalar(pair.key) ? pair.key.range?.[0] : undefined);
      node = pair.value;
    } else if (isSeq(node) && typeof key === 'number') {
      const item = node.items[key];
      if (!item || typeof item !== 'object' || !('range' in item)) return line;
      line = at((item as { range?: [number] }).range?.[0]);
      node = item;
    } else {
      return line;
    }
  }
  return line;
}

/**
 * Where a runtime warning about config.yaml points. The shell-hook and plugins parsers name
 * the key they reject (`hooks.pre_tool_call[0].timeout`, `plugins.enabled[1]`,
 * `unknown shell hook event 'x'`); anything else points at the top of its section.
 */
function pathOfWarning(message: string): PathKey[] {
  const unknownEvent = /unknown shell hook event '([^']*)'/.exec(message);
  if (unknownEvent) return ['hooks', unknownEvent[1]!];
  const keyed = /\b(hooks|plugins)\.([A-Za-z0-9_:*-]+)(?:\[(\d+)\])?(?:\.([A-Za-z_]+))?/.exec(message);
  if (keyed) {
    const path: PathKey[] = [keyed[1]!, keyed[2]!];
    if (keyed[3] !== undefined) path.push(Number(keyed[3]));
    if (keyed[4] !== undefined) path.push(keyed[4]);
    return path;
  }
  return message.includes('plugins') ? ['plugins'] : ['hooks'];
}

async function configProblems(file: string): Promise<HooksConfigProblem[]> {
  const parsed = await readYaml(file);
  if (!parsed) return [];
  if (parsed.problems.length > 0) return parsed.problems;
  const value: unknown = parsed.doc?.toJS();
  if (value === null || value === undefined) return [];
  if (!isPlainObject(value)) return [{ file, line: lineOf(parsed, []), reason: 'config.yaml must be a mapping of settings' }];
  const log = createMemoryLogger();
  readPluginsConfig(value, log);
  parseShellHooks(value, log);
  return log.lines
    .filter(({ level }) => level === 'warn' || level === 'error')
    .map(({ message }) => ({ file, line: lineOf(parsed, pathOfWarning(message)), reason: message }));
}

async function manifestProblems(
  home: string,
  notices: readonly { level: string; message: string }[],
  gatewayHooks: Awaited<ReturnType<typeof discoverHooksHome>>['gatewayHooks'],
): Promise<HooksConfigProblem[]> {
  const problems: HooksConfigProblem[] = [];
  // Plugins discovery skipped (its warning names the manifest) and gateway-hook event items it dropped.
  for (const notice of notices) {
    if (notice.level !== 'warn' && notice.level !== 'error') continue;
    const manifest = /([^\s()]+\/(?:plugin|HOOK)\.yaml)/.exec(notice.message)?.[1];
    if (!manifest) continue;
    const parsed = await readYaml(manifest);
    if (!parsed) continue;
    if (parsed.problems.length > 0) {
      problems.push(...parsed.problems);
      continue;
    }
    const value: unknown = parsed.doc?.toJS();
    const schemaIssue = manifest.endsWith('plugin.yaml')
      ? PluginManifestSchema.safeParse(value ?? {}).error?.issues[0]
      : undefined;
    const itemIndex = /events\[(\d+)\]/.exec(notice.message)?.[1];
    const path: PathKey[] = schemaIssue
      ? (schemaIssue.path as PathKey[])
      : itemIndex !== undefined
        ? ['events', Number(itemIndex)]
        : [];
    problems.push({ file: manifest, line: lineOf(parsed, path), reason: notice.message });
  }
  for (const hook of gatewayHooks) {
    if (hook.kind !== 'skip') continue;
    const manifest = join(home, 'hooks', hook.dir, 'HOOK.yaml');
    const parsed = await readYaml(manifest);
    if (parsed && parsed.problems.length > 0) {
      problems.push(...parsed.problems);
      continue;
    }
    problems.push({
      file: manifest,
      line: parsed ? lineOf(parsed, /events/.test(hook.line) ? ['events'] : []) : 1,
      reason: hook.line,
    });
  }
  return problems;
}
