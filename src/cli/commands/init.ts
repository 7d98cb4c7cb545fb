import { resolve } from 'node:path';
import { resolveHooksHome } from '../../hooks/hooks-home.ts';
import { shellWord } from '../../hooks/shell/shell-word.ts';
import { scaffoldCommand, writeScaffold } from '../hooks-home-scaffold.ts';
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
      // Every command printed runs as printed, pasted into a shell: quoted words, the home
      // named even when it is the default (an env var may differ in the next shell), and
      // approve's --yes (its prompt needs a terminal).
      const homeFlag = ` --home ${shellWord(home)}`;
      out();
      out('Next:');
      out(`  hookgate hooks list${homeFlag}       # what is there; the shell hook is not approved yet`);
      out(`  hookgate hooks approve pre_tool_call ${shellWord(scaffoldCommand(resolve(home)))}${homeFlag} --yes`);
      out(`  hookgate dev${homeFlag}              # then: hookgate chat, or open /console`);
    });
};
