import { afterEach, expect, it, vi } from 'vitest';
import { createStderrLogger } from '../../src/hooks/hook-logger.ts';
import { createHookgateLogger } from '../../src/logging/hookgate-logger.ts';

const TOKEN = 'fake-api-token-for-the-logger-test';
const saved = process.env.HOOKGATE_API_TOKEN;
afterEach(() => {
  vi.restoreAllMocks();
  if (saved === undefined) delete process.env.HOOKGATE_API_TOKEN;
  else process.env.HOOKGATE_API_TOKEN = saved;
});

it("the functions' structured logger redacts every string of a line: message, attributes, error message and stack", () => {
  process.env.HOOKGATE_API_TOKEN = TOKEN;
  const out: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  const logger = createHookgateLogger('test', 'info');
  logger.info(`token ${TOKEN}`, { header: `Bearer ${TOKEN}`, nested: { b64: Buffer.from(TOKEN).toString('base64') } });
  logger.error('failed', { error: new Error(`boom ${TOKEN}`) });
  const text = out.join('\n');
  expect(text).toContain('token ***');
  expect(text).toContain('boom ***');
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(Buffer.from(TOKEN).toString('base64').slice(4, 30));
});

it('the engine’s stderr logger redacts its lines', () => {
  process.env.HOOKGATE_API_TOKEN = TOKEN;
  const lines: string[] = [];
  createStderrLogger('debug', (line) => void lines.push(line), 'text').warn(`x ${TOKEN} y`);
  createStderrLogger('debug', (line) => void lines.push(line), 'json').warn(`x ${TOKEN} y`);
  expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}x \*\*\* y\n$/);
  expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'WARN', message: 'x *** y', service: 'hookgate' });
  expect(lines.join('')).not.toContain(TOKEN);
});
