import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { devEnginePrinter } from '../../src/local/dev-engine-printer.ts';

/** hookgate dev's `[hooks] …` lines (hook-semantics §2.1, §0.5): plain on stdout; a reload leaves out its Loaded lines. */
describe('devEnginePrinter', () => {
  const lines = [
    "[hooks] Loaded hook 'log' for events: ['agent:start']",
    '[hooks] Skipping quiet: no events declared',
    "[hooks] Error loading hook broken: SyntaxError: Unexpected token ':'",
  ];
  const printed = (options: { reload?: boolean }): string => {
    const stream = new PassThrough();
    const print = devEnginePrinter(options, stream);
    for (const line of lines) print(line);
    return stream.read()?.toString() ?? '';
  };

  it('prints every line as it is at start, each starting with [hooks]', () => {
    expect(printed({})).toBe(`${lines.join('\n')}\n`);
  });

  it('redacts secrets and escapes control characters, as in every log line', () => {
    const stream = new PassThrough();
    devEnginePrinter(
      {},
      stream,
    )("[hooks] Error in handler for 'agent:start': bad token sk-abcdefghijklmnopqrstuvwxyz0123\nforged");
    const text = stream.read()?.toString() ?? '';
    expect(text).not.toContain('abcdefghijklmnop');
    expect(text.split('\n')).toHaveLength(2);
    expect(text.startsWith("[hooks] Error in handler for 'agent:start': bad token ")).toBe(true);
  });

  it('leaves out a reload’s Loaded lines, never its skips and errors', () => {
    expect(printed({ reload: true })).toBe(`${lines.slice(1).join('\n')}\n`);
  });
});
