import { appendFile, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Steps before the alert; the seed uses 10. */
const THRESHOLD = Number(process.env.LONG_TASK_ALERT_THRESHOLD ?? 10);

function hooksHome(): string {
  return process.env.HOOKGATE_HOME || process.env.HERMES_HOME || join(homedir(), '.hermes');
}

/**
 * The seed's "long-task alert": when a turn reaches its 10th step, tell yourself. With
 * TELEGRAM_BOT_TOKEN and TELEGRAM_HOME_CHANNEL set, the alert goes to that Telegram chat
 * (TELEGRAM_API_BASE_URL is honoured); it is always written to
 * `<hooks home>/logs/long-task-alert.log` too, so it can be seen locally with no account.
 * With the built-in stand-in model, a message of ten or more `run: …` lines makes ten steps.
 */
export async function handle(_eventType: string, context: Record<string, unknown>): Promise<void> {
  const iteration = typeof context.iteration === 'number' ? context.iteration : 0;
  if (iteration !== THRESHOLD) return;
  const names = Array.isArray(context.tool_names) ? context.tool_names.map(String) : [];
  const text = `⚠️ Agent has been running for ${iteration} steps. Last tools: ${names.join(', ')}`;

  const dir = join(hooksHome(), 'logs');
  await mkdir(dir, { recursive: true });
  await appendFile(
    join(dir, 'long-task-alert.log'),
    `${JSON.stringify({ timestamp: new Date().toISOString(), session_id: context.session_id ?? null, platform: context.platform ?? '', text })}\n`,
  );

  const token = process.env.TELEGRAM_BOT_TOKEN;
  const chatId = process.env.TELEGRAM_HOME_CHANNEL;
  if (token && chatId) {
    const base = (process.env.TELEGRAM_API_BASE_URL ?? 'https://api.telegram.org').replace(/\/+$/, '');
    const response = await fetch(`${base}/bot${token}/sendMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chat_id: chatId, text }),
    });
    if (!response.ok) throw new Error(`Telegram sendMessage answered ${response.status}`);
  }
}
