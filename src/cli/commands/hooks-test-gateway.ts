import { commandDecision } from '../../hooks/aggregate/command-decision.ts';
import { discoverHooksHome } from '../../hooks/discover-hooks-home.ts';
import { GatewayHookRegistry } from '../../hooks/gateway-hooks/gateway-hook-registry.ts';
import { loadGatewayHooks } from '../../hooks/gateway-hooks/load-gateway-hooks.ts';
import type { HookRunRecord } from '../../hooks/hook-engine.ts';
import { moduleSource } from '../../hooks/module-source.ts';
import { GATEWAY_EVENT_NAMES } from '../../gateway/api/observer-event-types.ts';
import type { HooksContext } from './hooks-context.ts';
import { BAD, bold, clip, finishExpectation, jsonOrString, say } from './hooks-output.ts';

/** `command:<name>`: a built-in command's or a plugin's (any name a command can have). */
const COMMAND_EVENT = /^command:[A-Za-z0-9_-]+$/;

/**
 * Whether `hookgate hooks test <event>` is about gateway event hooks rather than plugin/shell
 * hooks: an event the gateway emits (`agent:start`, `session:end`, `command:model`, §2.4).
 * Any other name, `foo:bar` included, is an unknown event (§4.2 step 1).
 */
export function isGatewayEvent(event: string): boolean {
  return (GATEWAY_EVENT_NAMES as readonly string[]).includes(event) || COMMAND_EVENT.test(event);
}

/**
 * The context the gateway gives `event` (hook-semantics §2.4, §2.5), filled with stand-in
 * values: `command:<name>` gets the command's keys, `agent:*` and `session:*` a session.
 */
export function gatewayTestContext(event: string): Record<string, unknown> {
  const [base, name = ''] = event.split(':');
  const source = { platform: 'cli', user_id: 'hooks-test' };
  if (base === 'command') return { ...source, command: name, raw_command: name, args: '', raw_args: '' };
  if (base === 'agent') return { ...source, chat_id: 'hooks-test', session_id: 'hooks-test-session', message: 'hello' };
  if (base === 'session')
    return { ...source, chat_id: 'hooks-test', session_id: 'hooks-test-session', session_key: 'cli:hooks-test' };
  return { ...source };
}

/**
 * `hookgate hooks test <base:name>`: loads the home's gateway hooks (hooks/<name>/HOOK.yaml)
 * and emits the event once to those subscribed (exact, then `base:*`), as the gateway does:
 * each handler's return value or error, and for `command:<name>` the decision the gateway
 * would take (§2.5). `--expect block` is met by a deny or handled decision, `allow` by none.
 */
export async function testGatewayHooks(
  ctx: HooksContext,
  event: string,
  context: Record<string, unknown>,
  expectation: string | undefined,
): Promise<number> {
  const description = await discoverHooksHome(ctx.home, { gatewayHooks: true });
  const lines: string[] = [];
  const runs: HookRunRecord[] = [];
  const registry = new GatewayHookRegistry({ print: (line) => lines.push(line), onRun: (run) => runs.push(run) });
  await loadGatewayHooks(description.gatewayHooks, {
    home: ctx.home,
    registry,
    load: moduleSource(ctx.home),
    print: (line) => lines.push(line),
  });
  // Load failures matter here (a hook that did not load is not being tested); the Loaded lines do not.
  for (const line of lines) if (!line.startsWith('[hooks] Loaded hook')) say(`${BAD()} ${line}`);
  const subscribed = registry.handlersFor(event);
  if (subscribed.length === 0) {
    say(`No gateway hooks subscribed to event: ${event}`);
    return expectation === undefined ? 0 : finishExpectation(expectation, false, 'no hook was selected');
  }
  say(bold(`Emitting '${event}' to ${subscribed.length} gateway hook(s):`));
  say();
  const results = await registry.emitCollect(event, context);
  for (const run of runs) {
    say(`→ gateway hook ${run.callback}  (${Math.round(run.durationMs)} ms)`);
    if (run.error !== undefined) say(`  ${BAD()} error: ${clip(run.error, 400)}`);
    else say(`  returned: ${clip(jsonOrString(run.result), 400)}`);
    say();
  }
  let blocked = false;
  if (event.startsWith('command:')) {
    const decided = commandDecision(results, String(context.raw_command ?? event.slice('command:'.length)));
    blocked = decided.kind === 'deny' || decided.kind === 'handled';
    say(
      `decision: ${
        decided.kind === 'run'
          ? 'run (no hook decided; the command runs)'
          : decided.kind === 'rewrite'
            ? `rewrite → ${decided.text}`
            : `${decided.kind}${decided.reply !== undefined ? ` — reply: ${clip(decided.reply, 400)}` : ' (no reply)'}`
      }`,
    );
  }
  if (expectation === undefined) return 0;
  if (runs.some((r) => r.error !== undefined)) return finishExpectation(expectation, false, 'a hook failed');
  if (expectation === 'context') return finishExpectation(expectation, false, 'gateway hooks add no context');
  return finishExpectation(expectation, expectation === 'block' ? blocked : !blocked);
}
