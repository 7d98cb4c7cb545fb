import { scriptDrift } from '../../hooks/shell/consent/script-drift.ts';
import type { HooksContext } from './hooks-context.ts';
import { BAD, bold, OK, say, WARN } from './hooks-output.ts';
import { pluginCommandsOf } from './plugin-command-listing.ts';

/** `hookgate hooks list` (hook-semantics §4.1, §5.4, §5.5), then the plugins' slash commands. */
export async function listHooks(ctx: HooksContext): Promise<number> {
  await listShellHooks(ctx);
  await listPluginCommands(ctx);
  return 0;
}

/** The enabled plugins' slash commands (docs/reference/plugin-commands.md); nothing when there are none. */
async function listPluginCommands(ctx: HooksContext): Promise<void> {
  let commands;
  try {
    commands = await pluginCommandsOf(ctx.home, ctx.logger);
  } catch (error) {
    ctx.logger.warn(`the plugins' commands could not be listed: ${(error as Error).message ?? String(error)}`);
    return;
  }
  if (commands.length === 0) return;
  say(bold(`${commands.length} plugin command(s):`));
  say();
  for (const c of commands) {
    say(`  /${c.name}${c.args_hint ? ` ${c.args_hint}` : ''}  plugin=${c.plugin}${c.description ? `  — ${c.description}` : ''}`);
  }
  say();
}

async function listShellHooks(ctx: HooksContext): Promise<void> {
  if (ctx.entries.length === 0) {
    say(`No shell hooks configured in ${ctx.configPath}.`);
    say('Run `hookgate hooks --help` for the commands, and see docs/shell-hooks.md for the config schema and worked examples.');
    return;
  }
  say(bold(`${ctx.entries.length} shell hook(s) configured in ${ctx.configPath}:`));
  say();
  const events = [...new Set(ctx.entries.map((e) => e.event))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const event of events) {
    say(`[${event}]`);
    for (const entry of ctx.entries.filter((e) => e.event === event)) {
      const approval = await ctx.allowlist.find(entry.event, entry.command);
      const parts = [
        `  ${entry.command}`,
        ...(entry.matcher !== null ? [`matcher='${entry.matcher}'`] : []),
        `timeout=${entry.timeout}s`,
        ...(entry.payload === 'claude' ? ['payload=claude'] : []),
        approval ? `${OK()} allowed` : `${BAD()} not allowlisted`,
        ...(entry.enabled ? [] : ['(disabled: enabled: false)']),
      ];
      say(parts.join('  '));
      if (approval && typeof approval.approved_at === 'string' && approval.approved_at !== '') {
        say(`      approved_at: ${approval.approved_at}`);
        const drift = scriptDrift(approval, entry.command);
        if (drift.kind === 'content-changed') {
          say(
            `      ${WARN()} script content changed since approval (sha256 ${drift.recorded.slice(0, 12)}… → ` +
              `${drift.current.slice(0, 12)}…); run \`hookgate hooks doctor\``,
          );
        } else if (drift.kind === 'mtime-later') {
          say(
            `      ${WARN()} script modified since approval (approved mtime ${drift.recorded}, now ${drift.current}); ` +
              'run `hookgate hooks doctor` to re-validate',
          );
        }
      }
    }
    say();
  }
}
