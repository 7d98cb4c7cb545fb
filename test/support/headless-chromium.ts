import { existsSync } from 'node:fs';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's chromium (`apt-get install -y chromium`), or the one `PLAYWRIGHT_CHROMIUM` names. */
const CHROMIUM = process.env.PLAYWRIGHT_CHROMIUM ?? '/usr/bin/chromium';

/** `.ci/run` installs chromium and names it: there (or with CI set), a missing browser is a failure, not a skip. */
const CHROMIUM_REQUIRED = Boolean(process.env.PLAYWRIGHT_CHROMIUM) || process.env.CI === 'true' || process.env.CI === '1';

/**
 * Whether the browser tests of `testFile` can run: false when there is no chromium and none is
 * required, after saying on stdout that they are skipped and how to get one.
 *
 * @example
 * const available = chromiumFor('console-browser.test.ts');
 * describe.skipIf(!available)('the console in a real browser', () => {});
 */
export function chromiumFor(testFile: string): boolean {
  const available = existsSync(CHROMIUM);
  if (!available && !CHROMIUM_REQUIRED)
    process.stdout.write(
      `${testFile} skipped: no chromium at ${CHROMIUM} (apt-get install -y chromium, or set PLAYWRIGHT_CHROMIUM)\n`,
    );
  return available || CHROMIUM_REQUIRED;
}

/**
 * A headless chromium with a fresh profile in `profileDir` (--user-data-dir), nothing of its own
 * on the network (no sync, updates or QUIC), at `viewport` when given.
 *
 * @example
 * const browser = await launchHeadlessChromium(join(root, 'chromium-profile'), { width: 1280, height: 860 });
 */
export function launchHeadlessChromium(
  profileDir: string,
  viewport?: { width: number; height: number },
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    ...(viewport ? { viewport } : {}),
  });
}
