import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import { parseClaudeSettings, ClaudeSettingsError } from '../../hooks/shell/config/claude-settings.ts';
import { planClaudeImport, type ClaudeImportRow } from '../../hooks/shell/config/plan-claude-import.ts';
import { BAD, bold, clip, OK, say, WARN } from './hooks-output.ts';
import { errorText } from '../../errors/error-text.ts';

export interface ImportOptions {
  home: string;
  dryRun: boolean;
}

/**
 * `hookgate hooks import --from-claude FILE [--home DIR] [--dry-run]`: reads a Claude Code
 * settings file's `hooks` block, prints what becomes of each handler, and appends the
 * importable ones to `<home>/config.yaml` with `payload: claude` — comments, order and the
 * rest of the file kept (the `yaml` Document API). Entries already there are left alone;
 * nothing is approved. Exit 0 done (also with nothing to import), 2 invalid input (settings
 * unreadable, not JSON, not Claude Code's shape; config.yaml not parseable).
 *
 * @example
 * await importClaudeHooks('/repo/.claude/settings.json', { home: '/home/me/.hermes', dryRun: true });
 */
export async function importClaudeHooks(file: string, options: ImportOptions): Promise<number> {
  const settingsPath = resolve(file);
  let settings;
  try {
    settings = parseClaudeSettings(await readFile(settingsPath, 'utf8'));
  } catch (error) {
    const reason = errorText(error);
    process.stderr.write(
      `hookgate hooks import: ${settingsPath} is not a usable Claude Code settings file:\n  ${reason.replace(/\n/g, '\n  ')}\n`,
    );
    return 2;
  }
  const configPath = join(options.home, 'config.yaml');
  const original = await readFile(configPath, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const doc = parseDocument(original);
  if (doc.errors.length > 0) {
    process.stderr.write(
      `hookgate hooks import: ${configPath} cannot be parsed (${doc.errors[0]!.message}); fix it first, nothing was changed\n`,
    );
    return 2;
  }
  const top: unknown = doc.toJS();
  if (top !== null && top !== undefined && (typeof top !== 'object' || Array.isArray(top))) {
    process.stderr.write(`hookgate hooks import: ${configPath} is not a mapping; fix it first, nothing was changed\n`);
    return 2;
  }
  const projectDir = projectDirOf(settingsPath);
  const rows = refuseUnwritable(planClaudeImport(settings, projectDir, (top as Record<string, unknown> | null)?.hooks), doc);

  say(bold(`Claude Code hooks in ${settingsPath} (project directory ${projectDir}):`));
  say();
  printTable(rows);
  say();
  const imported = rows.filter((r) => r.status === 'imported');
  const present = rows.filter((r) => r.status === 'present').length;
  const refused = rows.filter((r) => r.status === 'not-imported').length;
  say(`${imported.length} imported, ${present} already in config.yaml, ${refused} not imported.`);
  if (imported.length === 0) return 0;
  if (options.dryRun) {
    say(`Dry run: ${configPath} was not changed.`);
    return 0;
  }
  for (const row of imported) appendEntry(doc, row);
  await writeAtomically(configPath, doc.toString());
  say(`${OK()} Wrote ${imported.length} entr${imported.length === 1 ? 'y' : 'ies'} to ${configPath}.`);
  say(`${WARN()} Commands and http hooks run only once approved: \`hookgate hooks approve <event> <command or url>\` for each`);
  say(
    '  (or start with --accept-hooks); prompt hooks need no approval. `hookgate hooks list` shows their status, `hookgate hooks doctor` checks them.',
  );
  return 0;
}

/** `<dir>/.claude/settings*.json` belongs to the project `<dir>`; any other file to its own directory. */
function projectDirOf(settingsPath: string): string {
  const dir = dirname(settingsPath);
  return basename(dir) === '.claude' ? dirname(dir) : dir;
}

/** An event whose `hooks.<event>` in config.yaml is not a list (or `hooks:` not a mapping) is not touched. */
function refuseUnwritable(rows: ClaudeImportRow[], doc: Document): ClaudeImportRow[] {
  const hooks = doc.get('hooks', true);
  const hooksUsable =
    hooks === undefined || (isScalar(hooks) && (hooks.value === null || hooks.value === undefined)) || isMap(hooks);
  return rows.map((row) => {
    if (row.status !== 'imported') return row;
    if (!hooksUsable) return { ...row, status: 'not-imported', note: '`hooks:` in config.yaml is not a mapping; fix it first' };
    const list = isMap(hooks) ? hooks.get(row.event!, true) : undefined;
    if (list === undefined || isSeq(list) || (isScalar(list) && (list.value === null || list.value === undefined))) return row;
    return { ...row, status: 'not-imported', note: `hooks.${row.event} in config.yaml is not a list; fix it first` };
  });
}

function appendEntry(doc: Document, row: ClaudeImportRow): void {
  const hooks = doc.get('hooks', true);
  if (!isMap(hooks)) doc.set('hooks', doc.createNode({}));
  const map = doc.get('hooks', true);
  if (!isMap(map)) throw new ClaudeSettingsError('hooks: in config.yaml could not be created');
  const list = map.get(row.event!, true);
  if (!isSeq(list)) map.set(row.event!, doc.createNode([]));
  const seq = map.get(row.event!, true);
  if (!isSeq(seq)) throw new ClaudeSettingsError(`hooks.${row.event} in config.yaml could not be created`);
  seq.add(doc.createNode({ ...row.entry }));
}

function printTable(rows: readonly ClaudeImportRow[]): void {
  if (rows.length === 0) {
    say('  (no hooks in the file)');
    return;
  }
  const table = [
    ['CLAUDE CODE EVENT', 'MATCHER', 'COMMAND', 'RESULT'],
    ...rows.map((row) => [row.claudeEvent, row.claudeMatcher ?? '-', clip(row.claudeCommand, 60), result(row)]),
  ];
  const widths = [0, 1, 2].map((col) => Math.max(...table.map((cells) => cells[col]!.length)));
  for (const cells of table) say(`  ${cells.map((cell, col) => (col < 3 ? cell.padEnd(widths[col]!) : cell)).join('  ')}`);
}

function result(row: ClaudeImportRow): string {
  const target = row.entry ? `${row.event}${row.entry.matcher ? ` matcher='${row.entry.matcher}'` : ''}` : '';
  const note = row.note ? ` (${row.note})` : '';
  if (row.status === 'imported') return `${OK()} imported as ${target}${note}`;
  if (row.status === 'present') return `${WARN()} already in config.yaml as ${target}; left as it is`;
  return `${BAD()} not imported: ${row.note}`;
}

/** Temp file beside the target, then rename: config.yaml is never half-written; its mode is kept. */
async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const mode = await stat(path)
    .then((s) => s.mode & 0o777)
    .catch(() => 0o644);
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { mode });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
