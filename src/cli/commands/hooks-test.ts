import { readFileSync } from 'node:fs';
import { isHookName, VALID_HOOK_NAMES_TEXT } from '../../hooks/catalogue.ts';
import { isPlainObject } from '../../hooks/python-truthiness.ts';
import { fireShellHook } from '../../hooks/shell/shell-hook-callback.ts';
import { renderWireJson } from '../../hooks/wire-json.ts';
import type { HooksContext } from './hooks-context.ts';
import { testPayload } from './hooks-payloads.ts';
import { BAD, bold, clip, green, red, say, seconds } from './hooks-output.ts';

export const EXPECTATIONS = ['block', 'allow', 'context'] as const;
export type Expectation = (typeof EXPECTATIONS)[number];

export interface TestHooksOptions {
  forTool?: string;
  payloadFile?: string;
  expect?: string;
}

/**
 * `hookgate hooks test <event>` (hook-semantics §4.2, §5.6): fires the configured hooks of
 * one event once on a synthetic payload — un-allowlisted ones too — and shows each outcome.
 * Exit status 0, or with `--expect`: 0 met, 1 not met, 2 invalid input.
 */
export async function testHooks(ctx: HooksContext, event: string, options: TestHooksOptions): Promise<number> {
  const expectation = options.expect;
  const invalid = expectation !== undefined ? 2 : 0;
  if (expectation !== undefined && !(EXPECTATIONS as readonly string[]).includes(expectation)) {
    say(`Invalid --expect value: '${expectation}' (expected one of: ${EXPECTATIONS.join(', ')})`);
    return 2;
  }
  if (!isHookName(event)) {
    say(`Unknown event: '${event}'`);
    say(`Valid events: ${VALID_HOOK_NAMES_TEXT}`);
    return invalid;
  }

  const kwargs = testPayload(event);
  if (options.forTool !== undefined) kwargs.tool_name = options.forTool;
  if (options.payloadFile !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(options.payloadFile, 'utf8'));
    } catch (error) {
      say(`Error reading payload file: ${(error as Error).message}`);
      return invalid;
    }
    if (isPlainObject(parsed)) Object.assign(kwargs, parsed);
    else say(`Warning: ${options.payloadFile} is not a JSON object; ignoring`);
  }

  const forEvent = ctx.entries.filter((e) => e.event === event);
  const matching = forEvent.filter(
    (e) => options.forTool === undefined || !(e.event === 'pre_tool_call' || e.event === 'post_tool_call') || e.matches(options.forTool),
  );
  const disabled = matching.filter((e) => !e.enabled).length;
  const selected = matching.filter((e) => e.enabled);
  if (disabled > 0) say(`Skipping ${disabled} disabled hook(s) (enabled: false).`);
  if (selected.length === 0) {
    say(`No shell hooks configured for event: ${event}`);
    if (options.forTool !== undefined) say(`(with matcher filter --for-tool=${options.forTool})`);
    return expectation !== undefined ? finish(expectation, false, 'no hook was selected') : 0;
  }

  say(bold(`Firing ${selected.length} hook(s) for event '${event}':`));
  say();
  let blocked = false;
  let context = false;
  let failedOpen = false;
  for (const entry of selected) {
    say(`→ ${entry.command}`);
    const { run, result, failedClosed } = await fireShellHook(entry, kwargs, ctx.logger, {
      path: 'exact',
      environment: ctx.environment,
      http: ctx.http,
      ...(ctx.judge ? { judge: ctx.judge } : {}),
    });
    if (run.error !== null || run.timed_out) {
      say(run.error !== null ? `  ${BAD()} error: ${run.error}` : `  ${BAD()} timed out after ${seconds(run.elapsed_seconds)}s`);
      if (!failedClosed) failedOpen = true;
      if (failedClosed && result) say(`  parsed (Hermes wire shape): ${renderWireJson(result, { asciiOnly: true })}`);
    } else {
      say(`  exit=${run.returncode}  elapsed=${seconds(run.elapsed_seconds)}s`);
      if (run.stdout.trim() !== '') say(`  stdout: ${clip(run.stdout.trim(), 400)}`);
      if (run.stderr.trim() !== '') say(`  stderr: ${clip(run.stderr.trim(), 400)}`);
      say(
        result
          ? `  parsed (Hermes wire shape): ${renderWireJson(result, { asciiOnly: true })}`
          : '  parsed: <none — hook contributed nothing to the dispatcher>',
      );
    }
    if (result && 'action' in result) blocked = true;
    if (result && 'context' in result) context = true;
    say();
  }
  if (expectation === undefined) return 0;
  if (failedOpen) return finish(expectation, false, 'a hook failed open (spawn error or timeout)');
  const met = expectation === 'block' ? blocked : expectation === 'allow' ? !blocked : context;
  return finish(expectation, met);
}

function finish(expectation: string, met: boolean, why?: string): number {
  say(met ? green(`Expectation '${expectation}' met.`) : red(`Expectation '${expectation}' NOT met${why ? `: ${why}` : ''}.`));
  return met ? 0 : 1;
}
