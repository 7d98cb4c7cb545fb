import { resolve } from 'node:path';
import { discoverHooksHome } from '../../hooks/discover-hooks-home.ts';
import { createMemoryLogger } from '../../hooks/hook-logger.ts';
import { resolveHooksHome } from '../../hooks/hooks-home.ts';
import { parseShellHooks } from '../../hooks/shell/config/parse-config.ts';
import { createFileAllowlistStore } from '../../hooks/shell/consent/file-allowlist-store.ts';
import { shellWord } from '../../hooks/shell/shell-word.ts';
import { SCAFFOLD_HOOK, SCAFFOLD_PLUGIN, scaffoldCommand, scaffoldHookEntryYaml, writeScaffold } from '../hooks-home-scaffold.ts';
import type { CommandInstaller } from '../main.ts';
import { errorText } from '../../errors/error-text.ts';

/**
 * `hookgate init [DIR]`: a new hooks home in DIR (default: the home every command uses —
 * $HOOKGATE_HOME, $HERMES_HOME, ~/.hermes) with a commented config.yaml and shell hook, a
 * plugin and a gateway hook. Existing files are left alone and named.
 *
 * @example
 * installInitCommand(program, flags); // then: hookgate init ./my-hooks
 */
export const installInitCommand: CommandInstaller = (program) => {
  program
    .command('init')
    .description('scaffold a hooks home: config.yaml with a shell hook, a plugin, a gateway hook (never overwrites)')
    .argument('[dir]', 'where (default: $HOOKGATE_HOME, $HERMES_HOME, ~/.hermes)')
    .action(async (dir: string | undefined) => {
      const home = resolve(dir ?? resolveHooksHome());
      let result;
      try {
        result = await writeScaffold(home);
      } catch (error) {
        process.stderr.write(`hookgate init: ${errorText(error)}\n`);
        process.exitCode = 1;
        return;
      }
      const out = (line = '') => process.stdout.write(`${line}\n`);
      out(`hookgate init: hooks home ${home}`);
      for (const path of result.created) out(`  created ${path}`);
      for (const path of result.skipped) out(`  skipped ${path} (exists; left as it is)`);
      // A home that already had a config.yaml (a Hermes user's ~/.hermes, the usual case) keeps
      // it, so the plugin and the shell hook just written are off until it names them: say what
      // to add, rather than print an approve line for a hook that config.yaml does not have.
      if (result.skipped.includes('config.yaml')) for (const line of await missingFromConfig(home)) out(line);
      // Every command printed runs as printed, pasted into a shell: quoted words, the home
      // named even when it is the default (an env var may differ in the next shell), and
      // approve's --yes (its prompt needs a terminal).
      const homeFlag = ` --home ${shellWord(home)}`;
      out();
      out('Next:');
      // Run a second time, the hook may be approved already: say so rather than ask for it again.
      const command = scaffoldCommand(resolve(home));
      const approved = await createFileAllowlistStore(home, createMemoryLogger())
        .find(SCAFFOLD_HOOK.event, command)
        .catch(() => undefined);
      if (approved) out(`  hookgate hooks list${homeFlag}       # what is there; the shell hook is approved`);
      else {
        out(`  hookgate hooks list${homeFlag}       # what is there; the shell hook is not approved yet`);
        out(`  hookgate hooks approve ${SCAFFOLD_HOOK.event} ${shellWord(command)}${homeFlag} --yes`);
      }
      out(`  hookgate dev${homeFlag}              # then: hookgate chat, or open /console`);
    });
};

/**
 * What an existing config.yaml lacks for the scaffold to run: `hello` in `plugins.enabled`, the
 * `pre_tool_call` entry of the shell hook. Empty when it has both (a second `hookgate init`).
 *
 * @example
 * await missingFromConfig('/home/me/.hermes') // ['', 'config.yaml was there already…', …]
 */
async function missingFromConfig(home: string): Promise<string[]> {
  const description = await discoverHooksHome(home);
  const command = scaffoldCommand(home);
  const pluginOn = description.plugins.some((p) => p.name === SCAFFOLD_PLUGIN && p.enabled);
  const hookOn = parseShellHooks(description.config, createMemoryLogger()).some(
    (e) => e.event === SCAFFOLD_HOOK.event && e.command === command,
  );
  if (pluginOn && hookOn) return [];
  const lines = ['', 'config.yaml was there already, so what init wrote does not run until you add to it:'];
  if (!pluginOn) lines.push(`  the plugin: ${SCAFFOLD_PLUGIN} under plugins.enabled`);
  if (!hookOn) {
    lines.push(
      `  the shell hook, under hooks.${SCAFFOLD_HOOK.event} (then approve it as below):`,
      ...scaffoldHookEntryYaml(home),
    );
  }
  return lines;
}
