/**
 * approval-notifier — the seed's approval examples: a notification when a dangerous command
 * waits for the user's approval (the seed pops a macOS notification), and a log of the answer.
 *
 * Hooks (hook-semantics §1.15, observers: they cannot answer the approval):
 * - `pre_approval_request`, just before the approval prompt goes to the chat:
 *   `POST $APPROVAL_NOTIFIER_URL` with `{"event": "pre_approval_request", "title": "Hermes needs
 *   approval", "body": "<description>: <command, first 80 chars>", "session_key", "pattern_key"}`
 *   (5 s timeout). Point it at a push service, a Slack/Teams webhook relay, a desktop notifier.
 * - `post_approval_response`, after `/approve`, `/deny` or the timeout: the same POST with
 *   `"event": "post_approval_response"` and `"choice"` (`once`, `session`, `always`, `deny`,
 *   `timeout`), so the notifier can dismiss its notification; and the line
 *   `approval <choice>: <command, first 60 chars> for session <session_key>` appended to
 *   `<hooks home>/logs/approvals.log` (`examples/logs/` from the examples).
 * Enable: `plugins.enabled: [approval-notifier]` in config.yaml (on in examples/config.yaml) and
 * APPROVAL_NOTIFIER_URL. Without it nothing is sent (one log line, once); decisions are still
 * logged. Try it with the stand-in model: send `run: git push --force`, then `/deny`.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PluginContext } from '../../../src/index.ts';

export function register(ctx: PluginContext): void {
  let saidUnset = false;
  const notify = async (body: Record<string, unknown>) => {
    const url = process.env.APPROVAL_NOTIFIER_URL;
    if (!url) {
      if (!saidUnset) ctx.logger.info('approval-notifier: APPROVAL_NOTIFIER_URL is not set, approvals are only logged');
      saidUnset = true;
      return;
    }
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) throw new Error(`approval notifier answered ${response.status}`);
  };

  ctx.register_hook('pre_approval_request', async function notifyApproval({ command, description, session_key, pattern_key }) {
    await notify({
      event: 'pre_approval_request',
      title: 'Hermes needs approval',
      body: `${String(description)}: ${String(command).slice(0, 80)}`,
      session_key,
      pattern_key,
    });
  });

  ctx.register_hook('post_approval_response', async function logDecision({ command, choice, session_key, pattern_key }) {
    await mkdir(join(ctx.home, 'logs'), { recursive: true });
    await appendFile(
      join(ctx.home, 'logs', 'approvals.log'),
      `${new Date().toISOString()} approval ${String(choice)}: ${String(command).slice(0, 60)} for session ${String(session_key)}\n`,
    );
    await notify({ event: 'post_approval_response', choice, session_key, pattern_key });
  });
}
