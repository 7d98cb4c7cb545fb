/**
 * session-webhook — the seed's "session start webhook" gateway hook.
 *
 * Hooks: the `session:start` and `session:reset` gateway events (hook-semantics §2.4): a chat's
 * first message in a new session, and `/new` or `/reset`.
 * Enable: gateway hooks need no switch; set SESSION_WEBHOOK_URL to the receiving endpoint, e.g.
 * `SESSION_WEBHOOK_URL=https://your-service.example.com/hermes-events`.
 * Sends: `POST $SESSION_WEBHOOK_URL` with the JSON body `{"event": "<event>", ...context}`
 * (`platform`, `user_id`, `session_key`, and `session_id` on `session:start`), 5 s timeout.
 * Without SESSION_WEBHOOK_URL nothing is sent: one line says so on stdout, once per process.
 * Writes no file.
 *
 * A failed POST throws: hookgate logs `[hooks] Error in handler for …` and carries on; the chat
 * is never held up (gateway hooks run in the observer consumer).
 */
import type { GatewayHandler } from '../../../src/index.ts';

let saidUnset = false;

export const handle: GatewayHandler = async (eventType, context) => {
  const url = process.env.SESSION_WEBHOOK_URL;
  if (!url) {
    if (!saidUnset) process.stdout.write('[session-webhook] SESSION_WEBHOOK_URL is not set: no session events are sent\n');
    saidUnset = true;
    return;
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event: eventType, ...context }),
    signal: AbortSignal.timeout(5_000),
  });
  if (!response.ok) throw new Error(`session webhook answered ${response.status}`);
};
