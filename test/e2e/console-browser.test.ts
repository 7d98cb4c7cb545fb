import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { chromiumFor, launchHeadlessChromium } from '../support/headless-chromium.ts';
import { until } from '../support/until.ts';

const available = chromiumFor('console-browser.test.ts');

let root: string;
let dev: DevChild;
let browser: BrowserContext | undefined;
let url: string;
let shellCommand = '';
let allowlistFile = '';

async function approvedCommands(): Promise<string[]> {
  if (!existsSync(allowlistFile)) return [];
  return (JSON.parse(await readFile(allowlistFile, 'utf8')) as { approvals: { command: string }[] }).approvals.map(
    (e) => e.command,
  );
}

beforeAll(async () => {
  if (!available) return;
  root = await mkdtemp(join(tmpdir(), 'hookgate-console-'));
  const home = join(root, 'home');
  // A plugin with a pre_llm_call hook: it must show in the turn's timeline as a plugin callback.
  await mkdir(join(home, 'plugins', 'greeter'), { recursive: true });
  await writeFile(join(home, 'plugins', 'greeter', 'plugin.yaml'), 'name: greeter\nversion: 1.0.0\n');
  await writeFile(
    join(home, 'plugins', 'greeter', 'index.ts'),
    `export function register(ctx: any) {\n  ctx.register_hook('pre_llm_call', function add_greeting() { return { context: 'be nice' }; });\n}\n`,
  );
  // A shell hook that is not approved yet: the page approves and revokes it.
  await writeFile(join(home, 'noop.sh'), "#!/bin/sh\ncat > /dev/null\necho '{}'\n", { mode: 0o755 });
  await writeFile(
    join(home, 'config.yaml'),
    `plugins:\n  enabled:\n    - greeter\nhooks:\n  post_llm_call:\n    - command: ${JSON.stringify(join(home, 'noop.sh'))}\n`,
  );
  shellCommand = join(home, 'noop.sh');
  allowlistFile = join(home, 'shell-hooks-allowlist.json');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    HOOKGATE_LOG_LEVEL: 'warn',
  };
  delete env.HOOKGATE_HOME;
  delete env.HOOKGATE_MODEL_BASE_URL;
  dev = await startDevChild(['--home', home, '--state', join(root, 'state')], { cwd: root, env, timeoutMs: 40_000 });
  url = dev.url;
  // A fresh profile (--user-data-dir) per run.
  browser = await launchHeadlessChromium(join(root, 'chromium-profile'), { width: 1280, height: 860 });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await dev?.stop('SIGKILL');
  if (root) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!available)('the console in a real browser', () => {
  it('sends a message from the page, shows the reply over SSE and the turn hook timeline', { timeout: 90_000 }, async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${url}/console`);
    await page.locator('#stream-state', { hasText: /^live$/ }).waitFor({ timeout: 30_000 });
    // The hook systems panel lists the plugin (filled in from the API: the page carries no data).
    await page.locator('#plugins', { hasText: 'greeter' }).waitFor({ timeout: 30_000 });
    // The undelivered-replies panel loaded (the local platform never refuses a reply).
    await page.locator('#undelivered', { hasText: 'every reply reached its chat' }).waitFor({ timeout: 30_000 });

    await page.fill('#chat-form [name=text]', 'hello console');
    await page.press('#chat-form [name=text]', 'Enter');
    await page.locator('#chat-log .msg.bot', { hasText: 'You said: hello console' }).waitFor({ timeout: 40_000 });

    // The turn's timeline: the plugin's pre_llm_call callback, with its system and decision.
    const row = page.locator('#timeline tbody tr', { hasText: 'add_greeting' });
    await row.waitFor({ timeout: 40_000 });
    const cells = await row.locator('td').allInnerTexts();
    expect(cells.slice(1, 5)).toEqual(['pre_llm_call', 'plugin', 'greeter: add_greeting', expect.stringMatching(/^context/)]);
    expect(await page.locator('#timeline tbody tr', { hasText: 'on_session_start' }).count()).toBeGreaterThan(0);
    // kwargs and result on demand.
    await row.click();
    expect(await page.locator('#timeline tr.detail').innerText()).toContain('hello console');
    // Observer events arrived live, and the session lists the turn.
    expect(await page.locator('#sessions a').count()).toBeGreaterThan(0);
    // A file goes along with a message (base64 in the JSON body), and the chat shows it.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    await page.setInputFiles('#chat-form input[name=files]', { name: 'dot.png', mimeType: 'image/png', buffer: png });
    await page.fill('#chat-form textarea[name=text]', 'a picture');
    await page.press('#chat-form textarea[name=text]', 'Enter');
    await page.locator('#chat-log .msg.user', { hasText: '📎 dot.png (image/png, 70 bytes)' }).waitFor({ timeout: 30_000 });
    await page.locator('#chat-log .msg.bot', { hasText: 'You said: a picture' }).waitFor({ timeout: 40_000 });
    if (process.env.HOOKGATE_CONSOLE_SCREENSHOT) await page.screenshot({ path: process.env.HOOKGATE_CONSOLE_SCREENSHOT });
    expect(errors).toEqual([]);
  });

  it('writes out a right-to-left override a chat sent instead of letting it reverse the line', { timeout: 90_000 }, async () => {
    const page = await browser!.newPage();
    await page.goto(`${url}/console`);
    await page.locator('#stream-state', { hasText: /^live$/ }).waitFor({ timeout: 30_000 });
    await page.fill('#chat-form [name=text]', 'invoice\u202efdp.exe attached');
    await page.press('#chat-form [name=text]', 'Enter');
    // Shown as `\u202e` (the characters), in the chat and in the list of turns.
    const shown = 'invoice\\u202efdp.exe attached';
    await page.locator('#chat-log .msg.bot', { hasText: `You said: ${shown}` }).waitFor({ timeout: 40_000 });
    await page.locator('#sessions', { hasText: shown }).waitFor({ timeout: 40_000 });
    expect(await page.locator('body').innerText()).not.toContain('\u202e');
  });

  it('approves and revokes a shell hook from the hook systems panel', { timeout: 60_000 }, async () => {
    const page = await browser!.newPage();
    await page.goto(`${url}/console`);
    const row = page.locator('#shell-hooks tbody tr', { hasText: 'noop.sh' });
    expect(await row.innerText()).toContain('not allowlisted');
    expect(await page.locator('#hooks').innerText()).toContain('approving or revoking reloads the hooks at once');
    await row.getByRole('button', { name: 'approve' }).click();
    // The panel reloads after each change, so the allowlist file is what the test waits on.
    await until(async () => (await approvedCommands()).includes(shellCommand), 'the approval in the allowlist file');
    // The allowlist change hot-reloads the hooks: the page says so over SSE, and the panel refreshes in place.
    await page.locator('#reload-banner', { hasText: /^reloaded: .*1 shell hook/ }).waitFor({ timeout: 40_000 });
    await page.locator('#shell-hooks tbody tr', { hasText: 'allowed' }).getByRole('button', { name: 'revoke' }).click();
    await until(async () => (await approvedCommands()).length === 0, 'the revocation in the allowlist file');
    await page.locator('#reload-banner', { hasText: /^reloaded: .*0 shell hooks/ }).waitFor({ timeout: 40_000 });
    await page.locator('#reload-state', { hasText: 'removed: shell hook' }).waitFor({ timeout: 40_000 });
  });

  it('refuses console mutations without its header and other Host names', async () => {
    const mutation = await fetch(`${url}/console/api/dlq/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"queue":"turns"}',
    });
    expect(mutation.status).toBe(403);
    // fetch cannot set Host; a DNS-rebinding page would arrive with its own name in it.
    const withHost = (host: string) =>
      new Promise<number>((resolve, reject) => {
        request(`${url}/console/api/sessions`, { headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    expect(await withHost('evil.example')).toBe(403);
    expect(await withHost('localhost.evil.example')).toBe(403);
    // Host names are case-insensitive, and a trailing dot names the same host.
    expect(await withHost('LocalHost')).toBe(200);
    expect(await withHost('localhost.')).toBe(200);
    expect((await fetch(`${url}/console/api/sessions`)).status).toBe(200);
  });
});
