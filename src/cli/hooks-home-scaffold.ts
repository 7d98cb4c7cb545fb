import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { shellWord } from '../hooks/shell/shell-word.ts';
import { hooksHomeTsconfig } from './hooks-home-tsconfig.ts';

/** One file of the scaffold: its path inside the home, its text, executable or not. */
export interface ScaffoldFile {
  path: string;
  text: string;
  executable?: boolean;
}

/** The shell hook's script, relative to the home (its absolute path goes into config.yaml). */
export const SCAFFOLD_SCRIPT = 'agent-hooks/block-rm-rf.sh';

/** The scaffold's plugin (`plugins/hello/`), which its config.yaml enables. */
export const SCAFFOLD_PLUGIN = 'hello';

/** The scaffold's shell hook entry under `hooks.pre_tool_call`, but for its command (`scaffoldCommand`). */
export const SCAFFOLD_HOOK = { event: 'pre_tool_call', matcher: 'terminal', timeout: 5, failClosed: true } as const;

/**
 * The scaffold's shell hook entry as config.yaml lines, indented as under `hooks.<event>:`:
 * what `hookgate init` asks a config.yaml it did not write to add.
 *
 * @example
 * scaffoldHookEntryYaml('/home/me/.hermes') // ['    - matcher: terminal', '      command: "/home/me/.hermes/agent-hooks/block-rm-rf.sh"', …]
 */
export function scaffoldHookEntryYaml(home: string): string[] {
  return [
    `    - matcher: ${SCAFFOLD_HOOK.matcher}`,
    `      command: ${yamlString(scaffoldCommand(home))}`,
    `      timeout: ${SCAFFOLD_HOOK.timeout}`,
    `      fail_closed: ${SCAFFOLD_HOOK.failClosed}`,
  ];
}

/**
 * The files of a new hooks home: a config.yaml with a plugin enabled and one shell hook, the
 * plugin (`plugins/hello/`), a gateway hook (`hooks/agent-log/`) and the shell hook's script.
 * Every file says in comments what each part does (hook-semantics §1–§3 are the rules).
 *
 * @example
 * for (const f of scaffoldFiles('/home/me/.hermes')) console.log(f.path);
 */
export function scaffoldFiles(home: string): ScaffoldFile[] {
  // config.yaml's command is split like shell words: a home with a space or a quote in its path is quoted.
  const command = scaffoldCommand(home);
  return [
    {
      path: 'config.yaml',
      text: `# A hookgate hooks home (the Hermes layout). hookgate reads it from --home, $HOOKGATE_HOME,
# $HERMES_HOME or ~/.hermes. Every key: docs/writing-hooks.md and docs/shell-hooks.md.

# Plugins (plugins/<name>/) are opt-in: only the names listed here load.
plugins:
  enabled:
    - ${SCAFFOLD_PLUGIN}
  # callback_timeout: 5      # seconds one in-process callback may take before it counts as failed

# Gateway hooks (hooks/<name>/HOOK.yaml + handler.ts) need no entry here: every valid directory loads.

# Shell hooks: any program that reads one JSON object on stdin and may print one on stdout.
hooks:
  ${SCAFFOLD_HOOK.event}:                       # the event (one of the 19 plugin-hook names)
    - matcher: ${SCAFFOLD_HOOK.matcher}                # only for this tool (a regular expression on the tool name)
      command: ${yamlString(command)}
      timeout: ${SCAFFOLD_HOOK.timeout}                       # seconds; a hook that takes longer is killed and ignored
      fail_closed: ${SCAFFOLD_HOOK.failClosed}                # a guard that fails (or was edited since approval) blocks rather than allows
      # enabled: false                 # keep the entry but do not run it
      # payload: claude                # send Claude Code's stdin shape instead of Hermes's

# Consent: a shell hook runs only once its (event, command) pair is approved, so a config.yaml
# someone else edited cannot run a new command on your machine. Approve it once with
#   hookgate hooks approve pre_tool_call ${shellWord(command)} --home ${shellWord(home)} --yes
# (or --accept-hooks, or answer the prompt at a terminal). If the script changes later, it stops
# running until approved again (hooks_on_drift: block). Check everything: hookgate hooks doctor --home ${shellWord(home)}
`,
    },
    {
      path: 'plugins/hello/plugin.yaml',
      text: `# The plugin's manifest. Every field is optional; name defaults to the directory name.
name: hello
version: 0.1.0
description: Adds a line of context to every turn and answers /hello
provides_hooks: [pre_llm_call]
`,
    },
    {
      path: 'plugins/hello/index.ts',
      text: `// A plugin: hookgate imports this file and calls register(ctx) once at start-up.
// The type comes from the hookgate package (type-only: nothing is imported at run time).
import type { PluginContext } from 'hookgate';

export function register(ctx: PluginContext): void {
  // pre_llm_call runs before the model is called, once per turn. Returning { context } adds
  // that text to the user's message the model sees; returning nothing changes nothing.
  // A callback that throws or hangs is logged and skipped: it never stops the turn.
  ctx.register_hook('pre_llm_call', function helloContext({ user_message, platform }) {
    ctx.logger.debug(\`hello: a turn on \${String(platform)} (\${String(user_message).length} chars)\`);
    return { context: 'The user is trying hookgate; keep answers short.' };
  });

  // A slash command: /hello <name> in any chat answers without calling the model.
  ctx.register_command('hello', (args) => \`Hello, \${args || 'there'}!\`, 'say hello', '<name>');
}
`,
    },
    {
      path: 'hooks/agent-log/HOOK.yaml',
      text: `# A gateway hook: handler.ts's handle(event, context) runs for each event listed here.
# In AWS these run in the observer Lambda, after the reply; locally in hookgate dev's observer consumer.
name: agent-log
description: Appends one line per agent event to logs/agent-log.jsonl in the hooks home (in AWS, to the function's log)
events:
  - agent:start     # a turn begins
  - agent:end       # a turn ends (context has the response)
  # - command:*     # every slash command; see docs/writing-hooks.md for all events
`,
    },
    {
      path: 'hooks/agent-log/handler.ts',
      text: `// A gateway hook's handler: handle(event, context). What it returns is ignored; a handler that
// throws is logged ("[hooks] Error in handler for ...") and the other handlers still run.
import { appendFile, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

// hookgate exports the hooks home it runs with as HOOKGATE_HOME.
const home = process.env.HOOKGATE_HOME || process.env.HERMES_HOME || join(homedir(), '.hermes');

export async function handle(event: string, context: Record<string, unknown>): Promise<void> {
  const line = { at: new Date().toISOString(), event, session_id: context.session_id, platform: context.platform };
  // In Lambda the bundled home is read-only: the line goes to the function's log (CloudWatch) instead.
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) return console.log(JSON.stringify({ agent_log: line }));
  await mkdir(join(home, 'logs'), { recursive: true });
  await appendFile(join(home, 'logs', 'agent-log.jsonl'), \`\${JSON.stringify(line)}\\n\`);
}
`,
    },
    {
      // Lets editors and tsc resolve \`import type … from 'hookgate'\` in plugins/ and hooks/.
      path: 'tsconfig.json',
      text: hooksHomeTsconfig(),
    },
    {
      path: SCAFFOLD_SCRIPT,
      executable: true,
      text: `#!/bin/sh
# A shell hook for pre_tool_call (matcher: terminal): refuses \`rm -rf /...\` before it runs.
# stdin: one line of JSON, e.g. {"hook_event_name": "pre_tool_call", "tool_name": "terminal",
#   "tool_input": {"command": "..."}, ...}. stdout: {} to allow, or a block directive.
# Exit 2 also blocks (with stderr as the reason). docs/shell-hooks.md has the whole protocol.
payload=$(cat)
if printf '%s' "$payload" | grep -qE '"command": "[^"]*rm[[:space:]]+-[a-zA-Z]*[rR][a-zA-Z]*f?[[:space:]]+/'; then
  printf '{"decision": "block", "reason": "blocked: rm -rf / is not permitted"}\\n'
else
  printf '{}\\n'
fi
`,
    },
  ];
}

/** A YAML double-quoted scalar (JSON's escaping is valid YAML). */
/**
 * The shell hook's command as config.yaml holds it — and as its consent key, which
 * `hookgate hooks approve` is given: the script's absolute path as one shell word.
 *
 * @example
 * scaffoldCommand('/tmp/my home') // "'/tmp/my home/agent-hooks/block-rm-rf.sh'"
 */
export function scaffoldCommand(home: string): string {
  return shellWord(join(home, SCAFFOLD_SCRIPT));
}

function yamlString(text: string): string {
  return JSON.stringify(text);
}

/**
 * Writes the scaffold into `home`, never over an existing file (`wx`).
 *
 * @example
 * const { created, skipped } = await writeScaffold('/tmp/home');
 */
export async function writeScaffold(home: string): Promise<{ created: string[]; skipped: string[] }> {
  const created: string[] = [];
  const skipped: string[] = [];
  for (const file of scaffoldFiles(home)) {
    const target = join(home, file.path);
    await mkdir(dirname(target), { recursive: true });
    try {
      await writeFile(target, file.text, { flag: 'wx', mode: file.executable ? 0o755 : 0o644 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
        skipped.push(file.path);
        continue;
      }
      throw error;
    }
    // The umask may have taken the executable bits away.
    if (file.executable) await chmod(target, 0o755);
    created.push(file.path);
  }
  return { created, skipped };
}
