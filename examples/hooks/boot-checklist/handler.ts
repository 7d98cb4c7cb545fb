import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

function hooksHome(): string {
  return process.env.HOOKGATE_HOME || process.env.HERMES_HOME || join(homedir(), '.hermes');
}

/**
 * The checklist comes first: a real model reads the instructions after it just as well, and
 * the built-in stand-in model (which only acts on leading `run: …` lines) can then work
 * through a checklist written as such lines.
 */
function buildPrompt(content: string): string {
  return [
    content,
    '',
    '---',
    'You are running a startup boot checklist. Follow the instructions above exactly.',
    'Execute each instruction. If nothing needs attention and there is nothing to report, reply with ONLY: [SILENT]',
  ].join('\n');
}

type RunOneShotAgent = (options: {
  prompt: string;
  maxIterations?: number;
  platform?: string;
}) => Promise<{ outcome: string; response: string | null }>;

/**
 * hookgate's one-shot agent: from this repository's source when the hook sits in the
 * repository's examples/, else from the installed `hookgate` package. Both are resolved at
 * run time (`.catch` keeps bundlers from failing on them), so a copied hooks home still loads.
 */
async function loadAgent(): Promise<RunOneShotAgent> {
  const fromRepository = new URL('../../../src/agent/one-shot-agent.ts', import.meta.url).href;
  const fromPackage = 'hookgate';
  const agent = (await import(fromRepository).catch(() => import(fromPackage).catch(() => undefined))) as
    | { runOneShotAgent?: RunOneShotAgent }
    | undefined;
  if (!agent?.runOneShotAgent)
    throw new Error("hookgate's agent cannot be imported from this hooks home; install the hookgate package");
  return agent.runOneShotAgent;
}

async function log(line: string): Promise<void> {
  process.stdout.write(`[boot-checklist] ${line}\n`);
  const dir = join(hooksHome(), 'logs');
  await mkdir(dir, { recursive: true });
  await appendFile(join(dir, 'boot-checklist.log'), `${new Date().toISOString()} ${line}\n`);
}

/**
 * On every gateway start, runs `<hooks home>/BOOT.md` with a one-shot agent on the
 * deployment's model (HOOKGATE_MODEL*, else the local stand-in). It runs in the observer
 * consumer, so gateway start-up is not held up. No BOOT.md, or an empty one: nothing happens.
 */
export async function handle(_eventType: string, _context: Record<string, unknown>): Promise<void> {
  let content: string;
  try {
    content = (await readFile(join(hooksHome(), 'BOOT.md'), 'utf8')).trim();
  } catch {
    return;
  }
  if (!content) return;
  await log(`Running BOOT.md (${content.length} chars)`);
  try {
    const runOneShotAgent = await loadAgent();
    const result = await runOneShotAgent({ prompt: buildPrompt(content), maxIterations: 20, platform: 'gateway' });
    const response = result.response ?? '';
    if (response && !response.includes('[SILENT]')) await log(`completed: ${response.slice(0, 200)}`);
    else await log('completed (nothing to report)');
  } catch (error) {
    await log(`agent failed: ${(error as Error).message}`);
  }
}
