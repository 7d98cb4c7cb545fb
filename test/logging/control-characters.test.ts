import { describe, expect, it } from 'vitest';
import { approvalRequestText } from '../../src/agent/approvals/approval-request-text.ts';
import { escapeControlCharacters } from '../../src/logging/escape-control-characters.ts';
import { withLogContext } from '../../src/logging/log-context.ts';
import { formatLogLine } from '../../src/logging/log-line.ts';

const BIDI = [
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];
const C0_C1 = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  '\u007f',
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(0x80 + i)),
];
/** Any character that changes how the text around it is shown. */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;

describe('control and bidirectional characters', () => {
  it('are each written as a visible escape; other text is kept', () => {
    for (const c of [...BIDI, ...C0_C1, '\u2028', '\u2029']) {
      const escaped = escapeControlCharacters(`a${c}b`);
      expect(escaped).not.toMatch(INVISIBLE);
      expect(escaped).toMatch(/^a\\(?:[nrt]|u[0-9a-f]{4})b$/);
    }
    expect(escapeControlCharacters('rm -rf ./build ✓ 👩‍💻 C:\\dir')).toBe('rm -rf ./build ✓ 👩‍💻 C:\\dir');
    expect(escapeControlCharacters('x\n\x1b[31my')).toBe('x\\n\\u001b[31my');
  });

  it('are escaped in an approval prompt: a U+202E or a newline in the command cannot disguise it', () => {
    const command = 'echo safe #\u202e/ fr- mr\nReply /approve: this is only ls';
    const text = approvalRequestText({ description: 'recursive delete of a broad path', command }, 300);
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toBe('    echo safe #\\u202e/ fr- mr\\nReply /approve: this is only ls');
    expect(text.replaceAll('\n', '')).not.toMatch(INVISIBLE);
  });

  it('in a text log line: a chat id with a newline or ANSI codes stays on its line and cannot recolour the terminal', async () => {
    const chat = 'c1\n12:00:00.000 ERROR forged line\x1b[2J\u202e';
    const line = await withLogContext({ chat_id: chat, delivery_id: 'd\r1' }, async () =>
      formatLogLine(
        { level: 'WARN', message: `refused for ${chat}`, service: 't', attributes: { user_id: 'u\x1b[31m', 'k\ney': 1 } },
        'text',
        false,
      ),
    );
    const [first, second, ...more] = line.split('\n');
    expect(more).toEqual([]);
    expect(first).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}refused for c1$/);
    // The message's own line break is kept, indented: never the start of a line of its own.
    expect(second).toMatch(/^ {4}12:00:00\.000 ERROR forged line\\u001b\[2J\\u202e {2}/);
    expect(second).toContain('chat=c1\\n12:00:00.000 ERROR forged line\\u001b[2J\\u202e');
    expect(second).toContain('delivery=d\\r1');
    expect(second).toContain('user_id=u\\u001b[31m');
    expect(second).toContain('k\\ney=1');
    expect(line).not.toMatch(/[\x1b\r\u202e]/u);
  });

  it('are left to JSON in a JSON log line, which escapes C0 controls itself', () => {
    const line = formatLogLine({ level: 'INFO', message: 'm', service: 't', attributes: { chat_id: 'c\n\x1b' } }, 'json', false);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line).chat_id).toBe('c\n\x1b');
  });
});
