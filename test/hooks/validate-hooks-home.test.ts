import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { loadHookEngine } from '../../src/hooks/create-hook-engine.ts';
import { findHooksConfigProblems, formatProblem } from '../../src/hooks/validate-hooks-home.ts';
import { bundledRunCommands, joinShellWords } from '../../src/hooks/shell/config/bundled-shell-command.ts';
import { splitShellWords } from '../../src/hooks/shell/spawn/shell-words.ts';
import { planHooksHomeFiles } from '../../infra/lib/hooks-home-files.ts';
import { parseShellHooks } from '../../src/hooks/shell/config/parse-config.ts';
import { readHooksConfig } from '../../src/hooks/config-file.ts';
import { tempHome, type TempHome } from './support/temp-home.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = join(REPO, 'examples');

let home: TempHome | undefined;
// Every home a test made (a test may make several), removed after it.
const made: TempHome[] = [];
afterEach(async () => {
  await Promise.all([home, ...made.splice(0)].map((h) => h?.remove()));
  home = undefined;
});

const problemsOf = async (files: Record<string, string>) => {
  home = await tempHome(files);
  made.push(home);
  return (await findHooksConfigProblems(home.path)).map((p) => formatProblem(p).slice(home!.path.length + 1));
};

describe('strict validation of a hooks home (synth, cold start, hookgate dev)', () => {
  it('finds nothing wrong with the examples, nor with an empty or missing home', async () => {
    expect(await findHooksConfigProblems(EXAMPLES)).toEqual([]);
    expect(await problemsOf({})).toEqual([]);
    expect(await problemsOf({ 'config.yaml': '' })).toEqual([]);
  });

  it('reports unparseable YAML with its line', async () => {
    expect(await problemsOf({ 'config.yaml': 'plugins:\n  enabled: [a\nhooks: {}\n' })).toEqual([
      expect.stringMatching(/^config\.yaml:\d+: not valid YAML: /),
    ]);
    expect(await problemsOf({ 'config.yaml': 'a: 1\na: 2\n' })).toEqual([
      expect.stringMatching(/^config\.yaml:2: not valid YAML: Map keys must be unique/),
    ]);
  });

  it("reports every shape the shell-hook and plugins parsers would skip or repair, at the key's line", async () => {
    const problems = await problemsOf({
      'config.yaml': [
        'plugins:',
        '  enabled: audit', // 2: not a list
        'hooks:',
        '  pre_tool_call:',
        '    - matcher: terminal', // 5: no command
        '    - command: ./guard.sh',
        '      timeout: 999', // 7: clamped
        '      fail_closed: "yes"', // 8: not a boolean
        '  on_session_strat:', // 9: typo
        '    - command: ./x.sh',
        '  post_tool_call: ./y.sh', // 11: not a list
        '',
      ].join('\n'),
    });
    expect(problems).toEqual([
      'config.yaml:2: config.yaml: plugins.enabled must be a list of plugin names; ignoring it',
      "config.yaml:5: hooks.pre_tool_call[0] is missing a non-empty 'command' field; skipping it",
      'config.yaml:7: hooks.pre_tool_call[1].timeout=999s exceeds the maximum of 300s; clamping it to 300s',
      'config.yaml:8: hooks.pre_tool_call[1].fail_closed must be a boolean (got str); ignoring it',
      "config.yaml:9: unknown shell hook event 'on_session_strat' in hooks: config — did you mean 'on_session_start'? Skipping it.",
      'config.yaml:11: hooks.post_tool_call must be a list of hook definitions (got str); skipping it',
    ]);
  });

  it('reports a top level that is not a mapping', async () => {
    expect(await problemsOf({ 'config.yaml': '- hooks\n' })).toEqual([
      'config.yaml:1: config.yaml must be a mapping of settings',
    ]);
  });

  it('reports plugin.yaml and HOOK.yaml that discovery would skip, with file and line', async () => {
    const problems = await problemsOf({
      'plugins/p/plugin.yaml': 'description: fine\nprovides_hooks: pre_tool_call\n',
      'plugins/p/index.mjs': 'export function register() {}\n',
      'plugins/q/plugin.yaml': 'name: [q\n',
      'plugins/q/index.mjs': 'export function register() {}\n',
      'hooks/h/HOOK.yaml': 'name: h\nevents:\n  - agent:start\n  - 7\n',
      'hooks/h/handler.mjs': 'export function handle() {}\n',
      'hooks/g/HOOK.yaml': 'name: g\n',
      'hooks/g/handler.mjs': 'export function handle() {}\n',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^plugins\/p\/plugin\.yaml:2: skipping plugin p: invalid .*field 'provides_hooks'/),
      expect.stringMatching(/^plugins\/q\/plugin\.yaml:\d+: not valid YAML/),
      expect.stringMatching(/^hooks\/h\/HOOK\.yaml:4: gateway hook h .*events\[1\] is not a non-empty string/),
      'hooks/g/HOOK.yaml:1: [hooks] Skipping g: no events declared',
    ]);
  });

  it('agrees with the lenient parser: a valid config gives the parser no warning', async () => {
    home = await tempHome({
      'config.yaml': 'hooks:\n  pre_tool_call:\n    - command: ./a.sh\n      matcher: "terminal|patch"\n      timeout: 5\n',
    });
    const log = createMemoryLogger();
    parseShellHooks((await readHooksConfig(home.path)).config, log);
    expect(log.lines.filter((l) => l.level === 'warn')).toEqual([]);
    expect(await findHooksConfigProblems(home.path)).toEqual([]);
  });

  it("the library entry keeps Hermes's warn-and-ignore: an unparseable config.yaml is empty, with a warning", async () => {
    home = await tempHome({ 'config.yaml': 'hooks: [\n' });
    const log = createMemoryLogger();
    const engine = await loadHookEngine({ home: home.path, logger: log, print: () => {} });
    expect(engine.describeRegistry().callbacks).toEqual({});
    expect(log.lines).toContainEqual(
      expect.objectContaining({ level: 'warn', message: expect.stringMatching(/treating it as empty/) }),
    );
    await engine.close();
  });
});

describe('deployed shell-hook commands', () => {
  it('maps a repository-relative command to its script inside the home, and outside scripts to bundled-scripts/', () => {
    const entries = parseShellHooks(
      {
        hooks: {
          pre_tool_call: [
            { command: 'examples/agent-hooks/block-rm-rf.sh' },
            { command: 'node bin/hookgate.js --x' },
            { command: 'jq .' },
          ],
        },
      },
      createMemoryLogger(),
    );
    const plan = planHooksHomeFiles(EXAMPLES, entries, [REPO], { allowMissingInLambda: ['jq'] });
    expect(plan.shellCommands).toEqual({
      'examples/agent-hooks/block-rm-rf.sh': {
        words: ['examples/agent-hooks/block-rm-rf.sh'],
        scriptWord: 0,
        script: 'agent-hooks/block-rm-rf.sh',
      },
      'node bin/hookgate.js --x': {
        words: ['node', 'bin/hookgate.js', '--x'],
        scriptWord: 1,
        script: 'bundled-scripts/1/hookgate.js',
      },
    });
    expect(plan.files.map((f) => f.target)).toEqual(
      expect.arrayContaining(['agent-hooks/block-rm-rf.sh', 'bundled-scripts/1/hookgate.js', 'config.yaml', 'BOOT.md']),
    );
    const run = bundledRunCommands('/var/task/hooks-home', plan.shellCommands);
    expect(run.get('examples/agent-hooks/block-rm-rf.sh')).toBe('/var/task/hooks-home/agent-hooks/block-rm-rf.sh');
    expect(run.get('node bin/hookgate.js --x')).toBe('node /var/task/hooks-home/bundled-scripts/1/hookgate.js --x');
  });

  it('quotes words so that they split back unchanged', () => {
    const words = ['/opt/my hooks/a.sh', "it's", '', '$HOME', 'plain-word_1.sh'];
    expect(splitShellWords(joinShellWords(words))).toEqual(words);
  });
});
