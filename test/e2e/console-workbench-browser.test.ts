import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumFor, launchHeadlessChromium } from '../support/headless-chromium.ts';
import { startDevChild, type DevChild } from '../support/dev-child.ts';
import { until } from '../support/until.ts';

/**
 * The console as a hook developer's workbench, in a real browser against the real `hookgate
 * dev`: the turn list and its filters, a block in red, a shell row with its stderr, an
 * observer-side hook row, a guard that is off marked "not running", and the page at 360 px.
 */
const available = chromiumFor('console-workbench-browser.test.ts');

/** The browser globals used inside page.evaluate (the suite is type-checked without the DOM library; types are erased). */
type Dom = {
  document: { querySelector(selector: string): unknown; documentElement: { scrollWidth: number } };
  getComputedStyle(element: unknown): { color: string; backgroundColor: string };
};

let root: string;
let home: string;
let dev: DevChild;
let browser: BrowserContext | undefined;

async function say(chat: string, user: string, text: string): Promise<void> {
  const res = await fetch(`${dev.url}/webhooks/local`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ chat_id: chat, user_id: user, text }),
  });
  expect(res.status).toBe(202);
  await until(async () => {
    const listed = (await (await fetch(`${dev.url}/console/api/turns?chat=${chat}`)).json()) as {
      turns: { first_line: string }[];
    };
    return listed.turns.some((t) => t.first_line === text);
  }, `the turn of ${text}`);
}

beforeAll(async () => {
  if (!available) return;
  root = await mkdtemp(join(tmpdir(), 'hookgate-workbench-'));
  home = join(root, 'home');
  await mkdir(join(home, 'plugins', 'guard'), { recursive: true });
  await mkdir(join(home, 'agent-hooks'), { recursive: true });
  await writeFile(join(home, 'plugins', 'guard', 'plugin.yaml'), 'name: guard\n');
  await writeFile(
    join(home, 'plugins', 'guard', 'index.ts'),
    `export function register(ctx: any) {
  ctx.register_hook('pre_tool_call', function no_forbidden({ args }: any) {
    return String(args?.command ?? '').includes('forbidden') ? { action: 'block', message: 'forbidden word' } : null;
  });
  ctx.register_hook('post_tool_call', function watch_tools({ tool_name }: any) { return { watched: tool_name }; });
  ctx.register_hook('transform_tool_result', function stamp({ result }: any) { return String(result) + '\\n[audited]'; });
  ctx.register_hook('pre_llm_call', function add_policy() { return { context: 'Policy: be brief.' }; });
}\n`,
  );
  await writeFile(
    join(home, 'agent-hooks', 'noisy.sh'),
    "#!/bin/sh\ncat > /dev/null\necho 'noisy hook says hi' >&2\necho '{}'\n",
    { mode: 0o755 },
  );
  await writeFile(join(home, 'agent-hooks', 'drifting.sh'), "#!/bin/sh\ncat > /dev/null\necho '{}'\n", { mode: 0o755 });
  await writeFile(
    join(home, 'config.yaml'),
    `plugins:\n  enabled: [guard]\nhooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: ${JSON.stringify(join(home, 'agent-hooks', 'noisy.sh'))}\n  pre_llm_call:\n    - command: ${JSON.stringify(join(home, 'agent-hooks', 'drifting.sh'))}\n`,
  );
  const env: NodeJS.ProcessEnv = { ...process.env, HOOKGATE_LOG_LEVEL: 'warn', HOOKGATE_DEV_STATE: 'memory', TMPDIR: root };
  delete env.HOOKGATE_HOME;
  delete env.HERMES_HOME;
  delete env.HOOKGATE_MODEL_BASE_URL;
  dev = await startDevChild(['--home', home, '--accept-hooks'], {
    cwd: root,
    env,
    ready: (output) => output.includes('hot reload:'),
    timeoutMs: 40_000,
  });
  await say('alpha', 'ann', 'run: echo hello');
  await say('beta', 'bob', 'run: echo forbidden');
  browser = await launchHeadlessChromium(join(root, 'chromium-profile'), { width: 1280, height: 900 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await dev?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe.skipIf(!available)('the console as a workbench (real browser)', () => {
  it('lists turns by what they were and filters them; a block is red; shell rows show stderr; observer-side hooks show', {
    timeout: 90_000,
  }, async () => {
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto(`${dev.url}/console`);
    const turns = page.locator('#sessions a');
    await page.locator('#sessions a', { hasText: 'run: echo forbidden' }).waitFor({ timeout: 30_000 });
    expect(await turns.count()).toBe(2);
    const blocked = page.locator('#sessions a', { hasText: 'run: echo forbidden' });
    expect(await blocked.innerText()).toContain('local:beta · bob');
    expect(await blocked.locator('.badge.block').count()).toBe(1);

    // Filters: by chat, by decision, by free text.
    await page.fill('#turn-filters [name=chat]', 'alpha');
    await until(
      async () => (await turns.count()) === 1 && (await turns.first().innerText()).includes('run: echo hello'),
      'the chat filter',
    );
    await page.fill('#turn-filters [name=chat]', '');
    await page.selectOption('#turn-filters [name=decision]', 'block');
    await until(
      async () => (await turns.count()) === 1 && (await turns.first().innerText()).includes('forbidden'),
      'the decision filter',
    );
    await page.selectOption('#turn-filters [name=decision]', '');
    await page.fill('#turn-filters [name=text]', 'HELLO');
    await until(
      async () => (await turns.count()) === 1 && (await turns.first().innerText()).includes('run: echo hello'),
      'the text filter',
    );
    await page.fill('#turn-filters [name=text]', '');
    await page.fill('#turn-filters [name=hook]', 'guard');
    await until(async () => (await turns.count()) === 2, 'the hook filter (the plugin ran in both)');
    await page.fill('#turn-filters [name=hook]', 'nobody');
    await until(
      async () => (await turns.count()) === 0 || (await page.locator('#sessions li.muted').count()) === 1,
      'no turn for an unknown hook',
    );
    await page.fill('#turn-filters [name=hook]', '');

    // The blocked turn: its pre_tool_call row in red, the plugin named with its callback.
    await page.locator('#sessions a', { hasText: 'run: echo forbidden' }).click();
    const blockRow = page.locator('#timeline tbody tr.block', { hasText: 'guard: no_forbidden' });
    await blockRow.waitFor({ timeout: 30_000 });
    expect(await blockRow.innerText()).toContain('block: forbidden word');
    expect(await blockRow.evaluate((row) => (globalThis as unknown as Dom).getComputedStyle(row.querySelector('td')).color)).toBe(
      'rgb(170, 17, 17)',
    );

    // The allowed turn: the shell hook's row with exit code and stderr; the observer-side plugin row.
    await page.locator('#sessions a', { hasText: 'run: echo hello' }).click();
    const shellRow = page.locator('#timeline tbody tr[data-system=shell]', { hasText: 'noisy.sh' });
    await shellRow.waitFor({ timeout: 30_000 });
    expect(await shellRow.innerText()).toContain('exit 0');
    expect(await shellRow.innerText()).toContain('stderr: noisy hook says hi');
    await until(async () => {
      await page.locator('#sessions a', { hasText: 'run: echo hello' }).click();
      return (await page.locator('#timeline tbody tr', { hasText: 'guard: watch_tools' }).count()) > 0;
    }, 'the observer-side row');
    const observerRow = page.locator('#timeline tbody tr', { hasText: 'guard: watch_tools' });
    expect(await observerRow.innerText()).toContain('observed (observer side)');
    // A click may land while an earlier click's timeline is still being drawn: click until the detail shows.
    const detail = page.locator('#timeline tr.detail', { hasText: '"watched": "terminal"' });
    await until(async () => {
      if ((await detail.count()) > 0) return true;
      await observerRow.click();
      return (await detail.count()) > 0;
    }, "the observer-side row's detail");
    // The replay button: the hooks did not change, so every call decides as before.
    await page.click('#replay');
    await page.locator('#replay-status', { hasText: 'every call decides as before' }).waitFor({ timeout: 30_000 });
    if (process.env.HOOKGATE_CONSOLE_SCREENSHOT) {
      await page.locator('#sessions a', { hasText: 'run: echo forbidden' }).click();
      await page.locator('#timeline tbody tr.block').waitFor();
      await page.screenshot({ path: process.env.HOOKGATE_CONSOLE_SCREENSHOT, fullPage: true });
    }
    expect(errors).toEqual([]);
  });

  it('marks a guard edited after approval "not running", and the reload says so', { timeout: 90_000 }, async () => {
    const page = await browser!.newPage();
    await page.goto(`${dev.url}/console`);
    const row = page.locator('#shell-hooks tbody tr', { hasText: 'drifting.sh' });
    await row.waitFor({ timeout: 30_000 });
    expect(await row.locator('.not-running').count()).toBe(0);
    await writeFile(join(home, 'agent-hooks', 'drifting.sh'), '#!/bin/sh\ncat > /dev/null\necho \'{"context": "edited"}\'\n', {
      mode: 0o755,
    });
    await until(() => dev.output().includes('guard off: [pre_llm_call]'), 'the guard-off line from the reload', {
      timeoutMs: 40_000,
    });
    expect(dev.output()).toMatch(/✗ guard off: \[pre_llm_call\] .*drifting\.sh does not run now: script changed since approval/);
    await page.locator('#shell-hooks tbody tr .not-running').waitFor({ timeout: 30_000 });
    // The header says it too, in a banner of its own.
    await page.locator('#guard-banner.not-running', { hasText: 'guard off: [pre_llm_call]' }).waitFor({ timeout: 30_000 });
    expect(await row.innerText()).toContain('script changed since approval');
    // Red, loudly (the panel re-renders on each reload event, so the style is read once it settles).
    await until(
      async () =>
        (await page.evaluate(() => {
          const dom = globalThis as unknown as Dom;
          const marker = dom.document.querySelector('#shell-hooks .not-running');
          return marker ? dom.getComputedStyle(marker).backgroundColor : '';
        })) === 'rgb(204, 34, 34)',
      'the red not-running marker',
    );
  });

  it("shows a transform's before/after as a diff and the prompt the model got with the context hooks added", {
    timeout: 60_000,
  }, async () => {
    const page = await browser!.newPage();
    await page.goto(`${dev.url}/console`);
    await page.locator('#sessions a', { hasText: 'run: echo hello' }).click();
    const row = page.locator('#timeline tbody tr[data-hook=transform_tool_result]').first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    await page.locator('pre.diff').waitFor({ timeout: 10_000 });
    // The tool's text stays (unmarked), the added line is marked as inserted.
    expect(await page.locator('pre.diff .ins').innerText()).toBe('+ [audited]\n');
    expect(await page.locator('pre.diff .del').count()).toBe(0);
    const prompt = page.locator('#turn-prompt pre.prompt');
    await prompt.waitFor({ timeout: 10_000 });
    expect(await prompt.innerText()).toBe('run: echo hello\n\nPolicy: be brief.');
    expect(await page.locator('#turn-prompt .ins').getAttribute('title')).toBe('added by plugin guard: add_policy');
    // Per hook over the whole session (the server adds up its turns).
    await page.locator('#session-stats h2', { hasText: 'Per hook in this session' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('#session-stats').innerText()).toContain('pre_tool_call · guard: no_forbidden');
    // And over every chat's turns of the last hour.
    await page.locator('#hour-stats h2', { hasText: 'Per hook in the last hour' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('#hour-stats').innerText()).toContain('pre_tool_call · guard: no_forbidden');
  });

  it('fits a 360 px wide window', { timeout: 60_000 }, async () => {
    const page = await browser!.newPage();
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`${dev.url}/console`);
    await page.locator('#sessions a').first().waitFor({ timeout: 30_000 });
    await page.locator('#sessions a').first().click();
    await page.locator('#timeline tbody tr[data-hook]').first().waitFor({ timeout: 30_000 });
    const width = await page.evaluate(() => (globalThis as unknown as Dom).document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360);
    if (process.env.HOOKGATE_CONSOLE_SCREENSHOT_NARROW)
      await page.screenshot({ path: process.env.HOOKGATE_CONSOLE_SCREENSHOT_NARROW, fullPage: true });
  });
});
