import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMemoryLogger } from '../../src/hooks/hook-logger.ts';
import { parseShellHooks, registrationKey } from '../../src/hooks/shell/config/parse-config.ts';
import { VALID_HOOK_NAMES_TEXT } from '../../src/hooks/catalogue.ts';

function parseYaml(text: string) {
  const logger = createMemoryLogger();
  const entries = parseShellHooks(parse(text), logger);
  return { entries, warnings: logger.lines.filter((l) => l.level === 'warn').map((l) => l.message) };
}

describe('parseShellHooks (§3.2)', () => {
  it.each([['hooks: null'], ['hooks: "x"'], ['hooks: [1, 2]'], ['other: 1'], ['']])(
    'a non-mapping hooks (%s) means zero hooks, silently',
    (text) => {
      const logger = createMemoryLogger();
      expect(parseShellHooks(parse(text) ?? {}, logger)).toEqual([]);
      expect(logger.lines).toEqual([]);
    },
  );

  it('keeps YAML order, trims the command, defaults timeout 60, no matcher', () => {
    const { entries, warnings } = parseYaml(`
hooks:
  post_tool_call:
    - command: "  /h/b.sh  "
  pre_tool_call:
    - command: /h/a.sh
      matcher: terminal
      timeout: 30
`);
    expect(warnings).toEqual([]);
    expect(entries.map((e) => [e.event, e.command, e.matcher, e.timeout, e.enabled, e.failClosed])).toEqual([
      ['post_tool_call', '/h/b.sh', null, 60, true, false],
      ['pre_tool_call', '/h/a.sh', 'terminal', 30, true, false],
    ]);
  });

  it('unknown events warn with a did-you-mean, or list the valid names', () => {
    const { entries, warnings } = parseYaml(`
hooks:
  pre_tools_call: [{command: /a}]
  PreToolUse: [{command: /b}]
`);
    expect(entries).toEqual([]);
    expect(warnings[0]).toContain("'pre_tools_call'");
    expect(warnings[0]).toContain("did you mean 'pre_tool_call'?");
    expect(warnings[1]).toContain("'PreToolUse'");
    expect(warnings[1]).toContain(VALID_HOOK_NAMES_TEXT);
  });

  it('null entries skip silently; non-list entries and bad entries warn and skip', () => {
    const { entries, warnings } = parseYaml(`
hooks:
  on_session_start: null
  on_session_end: "/h/x.sh"
  post_llm_call: {command: /h/y.sh}
  pre_llm_call:
    - "/h/z.sh"
    - {matcher: x}
    - {command: "   "}
    - {command: 5}
    - {command: /h/ok.sh}
`);
    expect(entries.map((e) => e.command)).toEqual(['/h/ok.sh']);
    expect(warnings).toHaveLength(6);
    expect(warnings[0]).toContain('hooks.on_session_end must be a list of hook definitions');
    expect(warnings[0]).toContain('str');
    expect(warnings[1]).toContain('hooks.post_llm_call must be a list');
    expect(warnings[1]).toContain('dict');
    expect(warnings[2]).toContain("hooks.pre_llm_call[0] must be a mapping with a 'command' key");
    expect(warnings[2]).toContain('str');
    for (const i of [1, 2, 3])
      expect(warnings[2 + i]).toContain(`hooks.pre_llm_call[${i}] is missing a non-empty 'command' field`);
  });

  it('matcher rules: non-string ignored, other events dropped with a warning, blank = none', () => {
    const { entries, warnings } = parseYaml(`
hooks:
  pre_tool_call:
    - {command: /a, matcher: 5}
    - {command: /b, matcher: "   "}
    - {command: /c, matcher: "\\n"}
    - {command: /d, matcher: " terminal|file "}
  on_session_start:
    - {command: /e, matcher: ""}
`);
    expect(entries.map((e) => e.matcher)).toEqual([null, null, null, 'terminal|file', null]);
    expect(warnings[0]).toContain('hooks.pre_tool_call[0].matcher must be a string regex');
    expect(warnings[1]).toContain('will be ignored at runtime');
    expect(warnings[1]).toContain('only honored for pre_tool_call / post_tool_call');
    expect(warnings[1]).toContain("matcher='' will");
    expect(warnings[1]).toContain('every on_session_start event');
    expect(warnings).toHaveLength(2);
    const d = entries[3]!;
    expect([d.matches('terminal'), d.matches('file'), d.matches('file_read'), d.matches('web'), d.matches(undefined)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(entries[0]!.matches(undefined)).toBe(true); // no matcher: always
  });

  it('an invalid regex warns and falls back to literal equality', () => {
    const { entries, warnings } = parseYaml(`
hooks:
  post_tool_call:
    - {command: /a, matcher: "foo[bar"}
    - {command: /b, matcher: "(?i)x"}
`);
    expect(warnings[0]).toContain('foo[bar');
    expect(warnings[0]).toContain('literal');
    expect(entries[0]!.matches('foo[bar')).toBe(true);
    expect(entries[0]!.matches('foob')).toBe(false);
    expect(entries[1]!.matches('(?i)x')).toBe(true);
  });

  it.each([
    ['30', 30, null],
    ['5.9', 5, null],
    ['true', 1, null],
    ['"30"', 30, null],
    ['" 30 "', 30, null],
    ['"+30"', 30, null],
    ['"1_000"', 300, 'exceeds the maximum of 300'],
    ['301', 300, 'exceeds the maximum of 300'],
    ['300', 300, null],
    ['1', 1, null],
    ['0', 60, 'must be >= 1'],
    ['-0.5', 60, 'must be >= 1'],
    ['-5', 60, 'must be >= 1'],
    ['false', 60, 'must be >= 1'],
    ['"thirty"', 60, 'must be an int'],
    ['"30.0"', 60, 'must be an int'],
    ['"1__0"', 60, 'must be an int'],
    ['null', 60, 'must be an int'],
    ['[1]', 60, 'must be an int'],
    ['{a: 1}', 60, 'must be an int'],
    ['.inf', 60, 'must be an int (got float inf)'],
    ['-.inf', 60, 'must be an int (got float -inf)'],
    ['.nan', 60, 'must be an int (got float nan)'],
  ])('timeout %s → %d', (raw, expected, warning) => {
    const { entries, warnings } = parseYaml(`hooks:\n  pre_llm_call:\n    - {command: /a, timeout: ${raw}}\n`);
    expect(entries[0]!.timeout).toBe(expected);
    if (warning === null) expect(warnings).toEqual([]);
    else {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(warning);
      expect(warnings[0]).toContain('hooks.pre_llm_call[0].timeout');
    }
  });

  it('enabled and fail_closed (§5.1, §5.4)', () => {
    const { entries, warnings } = parseYaml(`
hooks:
  pre_tool_call:
    - {command: /a, enabled: false}
    - {command: /b, enabled: "no"}
    - {command: /c, fail_closed: true}
    - {command: /d, failClosed: true}
    - {command: /e, fail_closed: false, failClosed: true}
    - {command: /f, fail_closed: "yes"}
  post_tool_call:
    - {command: /g, fail_closed: true}
`);
    expect(entries.map((e) => [e.command, e.enabled, e.failClosed])).toEqual([
      ['/a', false, false],
      ['/b', true, false],
      ['/c', true, true],
      ['/d', true, true],
      ['/e', true, false],
      ['/f', true, false],
      ['/g', true, false],
    ]);
    expect(warnings[0]).toContain('enabled must be a boolean');
    expect(warnings[1]).toContain('fail_closed must be a boolean');
    expect(warnings[2]).toContain('only honoured for pre_tool_call');
    expect(warnings).toHaveLength(3);
  });

  it('registration keys: same command with different matchers differ; addition keys do not count', () => {
    const { entries } = parseYaml(`
hooks:
  pre_tool_call:
    - {command: /a, matcher: x}
    - {command: /a, matcher: y}
    - {command: " /a", matcher: " x", timeout: 5, fail_closed: true}
`);
    const keys = entries.map(registrationKey);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[0]).toBe(keys[2]);
  });
});
