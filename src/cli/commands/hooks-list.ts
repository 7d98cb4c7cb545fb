import { join } from 'node:path';
import { scriptDrift } from '../../hooks/shell/consent/script-drift.ts';
import { NOT_RUNNING_TEXT, shellHookRunState } from '../../hooks/shell/consent/shell-hook-run-state.ts';
import { shellWord } from '../../hooks/shell/shell-word.ts';
import type { HooksContext } from './hooks-context.ts';
import { BAD, bold, OK, red, say, WARN } from './hooks-output.ts';
import { listHooksHome, type GatewayHookListing, type PluginListing } from './hooks-home-listing.ts';
import { errorText } from '../../errors/error-text.ts';
import { needsConsent } from '../../hooks/shell/consent/needs-consent.ts';

/**
 * `hookgate hooks list`: the shell hooks exactly as hook-semantics §4.1, §5.4, §5.5 fix it, then
 * the other two systems — the plugins (enabled or not, with the hooks and slash commands they
 * register) and the gateway hooks with their events — then the plugins' slash commands.
 */
export async function listHooks(ctx: HooksContext): Promise<number> {
  await listShellHooks(ctx);
  let listing;
  try {
    listing = await listHooksHome(ctx.home, ctx.logger);
  } catch (error) {
    ctx.logger.warn(`the plugins and gateway hooks could not be listed: ${errorText(error)}`);
    return 0;
  }
  listPlugins(ctx, listing.plugins);
  listGatewayHooks(ctx, listing.gatewayHooks);
  listPluginCommands(listing.plugins);
  return 0;
}

function listPlugins(ctx: HooksContext, plugins: readonly PluginListing[]): void {
  if (plugins.length === 0) {
    say(`No plugins in ${join(ctx.home, 'plugins')}.`);
    say();
    return;
  }
  say(bold(`${plugins.length} plugin(s) in ${join(ctx.home, 'plugins')}:`));
  say();
  for (const p of plugins) {
    const dir = p.dir === p.name ? '' : `  (plugins/${p.dir})`;
    if (p.status === 'not-enabled') {
      say(`  ${p.name}${dir}  ${BAD()} not enabled (list it under plugins.enabled in config.yaml)`);
      continue;
    }
    if (p.status === 'disabled') {
      say(`  ${p.name}${dir}  ${BAD()} disabled (named in plugins.disabled in config.yaml, which wins over plugins.enabled)`);
      continue;
    }
    if (p.status === 'failed') {
      say(`  ${p.name}${dir}  ${BAD()} ${red('not running')}: failed to load: ${p.error ?? 'unknown error'}`);
      continue;
    }
    say(`  ${p.name}${dir}  ${OK()} enabled`);
    for (const h of p.hooks) say(`      ${h.hook}: ${h.callbacks.join(', ')}`);
    if (p.commands.length > 0) say(`      commands: ${p.commands.map((c) => `/${c.name}`).join(', ')}`);
    if (p.hooks.length === 0 && p.commands.length === 0) say('      (registers nothing)');
  }
  say();
}

function listGatewayHooks(ctx: HooksContext, hooks: readonly GatewayHookListing[]): void {
  if (hooks.length === 0) {
    say(`No gateway hooks in ${join(ctx.home, 'hooks')}.`);
    say();
    return;
  }
  const loaded = hooks.filter((h) => 'events' in h).length;
  say(bold(`${loaded} gateway hook(s) in ${join(ctx.home, 'hooks')}:`));
  say();
  for (const h of hooks) {
    if ('events' in h) say(`  ${h.name}${h.dir === h.name ? '' : `  (hooks/${h.dir})`}  events: ${h.events.join(', ')}`);
    else say(`  ${WARN()} ${h.skipped}`);
  }
  say();
}

/** The enabled plugins' slash commands (docs/reference/plugin-commands.md); nothing when there are none. */
function listPluginCommands(plugins: readonly PluginListing[]): void {
  const commands = plugins.flatMap((p) => p.commands);
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
      const consent = needsConsent(entry);
      const approval = consent ? await ctx.allowlist.find(entry.event, entry.command) : undefined;
      const parts = [
        `  ${entry.command}`,
        ...(entry.type && entry.type !== 'command' ? [`type=${entry.type}`] : []),
        ...(entry.model ? [`model=${entry.model}`] : []),
        ...(entry.matcher !== null ? [`matcher='${entry.matcher}'`] : []),
        `timeout=${entry.timeout}s`,
        ...(entry.failClosed ? ['fail_closed'] : []),
        ...(entry.payload === 'claude' ? ['payload=claude'] : []),
        ...(entry.claudeEvent ? [`claude_event=${entry.claudeEvent}`] : []),
        !consent ? `${OK()} needs no approval` : approval ? `${OK()} allowed` : `${BAD()} not allowlisted`,
        ...(entry.enabled ? [] : ['(disabled: enabled: false)']),
      ];
      say(parts.join('  '));
      if (approval && typeof approval.approved_at === 'string' && approval.approved_at !== '') {
        say(`      approved_at: ${approval.approved_at}`);
        // An http hook's URL is its identity: nothing on disk to drift.
        const drift = entry.type === 'http' ? { kind: 'unknown' as const } : scriptDrift(approval, entry.command);
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
      // A guard that is off says so loudly, whatever the reason, after the lines §4.1 fixes.
      const state = shellHookRunState(entry, approval, ctx.onDrift);
      if (!state.running) {
        const hint =
          state.reason === 'not-approved'
            ? `; approve it: hookgate hooks approve ${entry.event} ${shellWord(entry.command)} --home ${shellWord(ctx.home)} --yes`
            : '';
        say(`      ${BAD()} ${red('not running')}: ${NOT_RUNNING_TEXT[state.reason]}${hint}`);
      }
    }
    say();
  }
}
