import { describe, expect, it } from 'vitest';
import {
  postProcessTerminalOutput,
  redactSecrets,
  stripAnsi,
  TERMINAL_OUTPUT_LIMIT,
  truncateOutput,
} from '../../src/agent/tools/terminal-output.ts';
import { toolCallStatusOf } from '../../src/agent/turn/tool-call-status.ts';

describe('terminal output post-processing', () => {
  it('truncates past 50 KB keeping head and tail around a marker', () => {
    const out = truncateOutput(`HEAD${'x'.repeat(60_000)}TAIL`);
    expect(out.startsWith('HEAD')).toBe(true);
    expect(out.endsWith('TAIL')).toBe(true);
    expect(out).toMatch(/\[output truncated: \d+ characters omitted\]/);
    expect(truncateOutput('short')).toBe('short');
    expect(truncateOutput('y'.repeat(TERMINAL_OUTPUT_LIMIT))).toBe('y'.repeat(TERMINAL_OUTPUT_LIMIT));
  });

  it('strips ANSI colour and cursor escapes', () => {
    expect(stripAnsi('\u001b[1;31mred\u001b[0m \u001b[2Kline\u001b]0;title\u0007')).toBe('red line');
    // Control strings, in their 7-bit and C1 forms, whatever their payload: APC, DCS, PM, SOS, OSC 52 (a clipboard write).
    expect(
      stripAnsi(
        'A\u001b_Gapc\u001b\\B\u009d52;c;aGk=\u0007C\u001bP1$r0m\u001b\\D\u001b^pm\u0007E\u0098sos\u009cF\u001b]52;c;a b\u001b\\G',
      ),
    ).toBe('ABCDEFG');
  });

  it.each([
    ['key sk-proj-abcdefghijklmnop1234', 'key ***'],
    ['AKIAIOSFODNN7EXAMPLE id', '*** id'],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'token ***'],
    ['xoxb-1234-5678-abcdefgh and xoxp-99999999999-x', '*** and ***'],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig', 'Authorization: Bearer ***'],
    ['nothing secret here: sk-short', 'nothing secret here: sk-short'],
  ])('redacts %j', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('redacts secrets that were coloured (ANSI is stripped first)', () => {
    expect(postProcessTerminalOutput('\u001b[32msk-abcdefghijklmnopqrstuv\u001b[0m')).toBe('***');
  });
});

describe('post_tool_call status (§1.6)', () => {
  it.each([
    ['{"error": "boom"}', { status: 'error', error_type: 'tool_error', error_message: 'boom' }],
    ['{"error": {"code": 2}}', { status: 'error', error_type: 'tool_error', error_message: '{"code": 2}' }],
    ['{"error": ""}', { status: 'ok', error_type: null, error_message: null }],
    ['{"error": []}', { status: 'ok', error_type: null, error_message: null }],
    ['not json', { status: 'ok', error_type: null, error_message: null }],
    ['["error"]', { status: 'ok', error_type: null, error_message: null }],
  ])('%j', (result, expected) => {
    expect(toolCallStatusOf(result)).toEqual(expected);
  });
});

describe('truncation is by UTF-8 size (the 50 KB limit; issue #14 item 3)', () => {
  it('cuts 60 KB of two-byte text like 60 KB of ASCII, between characters', () => {
    const text = `${'é'.repeat(30 * 1024)}😀END`;
    const out = truncateOutput(text);
    expect(out).toMatch(/\[output truncated: \d+ characters omitted\]/);
    expect(Buffer.byteLength(out, 'utf8')).toBeLessThanOrEqual(TERMINAL_OUTPUT_LIMIT + 100);
    expect(out.endsWith('😀END')).toBe(true);
    expect(/[\uD800-\uDFFF]/u.test(out)).toBe(false); // no pair cut in half
  });

  it('a 60 KB transform_terminal_output replacement is truncated, stripped and redacted (§1.8)', () => {
    const replacement = `\u001b[31mstart\u001b[0m ${'x'.repeat(60 * 1024)} AKIAABCDEFGHIJKLMNOP`;
    const out = postProcessTerminalOutput(replacement);
    expect(out.startsWith('start ')).toBe(true);
    expect(out).toContain('[output truncated:');
    expect(out.endsWith(' ***')).toBe(true);
  });
});
