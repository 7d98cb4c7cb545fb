import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatIsoMicros, parseIsoMicros } from '../../src/hooks/shell/consent/iso-timestamp.ts';
import {
  isRunnableAsConfigured,
  resolveScriptPath,
  scriptMtime,
  scriptSha256,
} from '../../src/hooks/shell/consent/script-path.ts';

describe('resolveScriptPath (§3.10 table)', () => {
  it.each([
    ['/path/hook.sh', '/path/hook.sh'],
    ['/bin/echo hi', '/bin/echo'],
    ['~/hook.sh', '~/hook.sh'],
    ['hook.sh', 'hook.sh'],
    ['python3 /path/hook.py', '/path/hook.py'],
    ['bash /path/hook.sh', '/path/hook.sh'],
    ['bash ~/hook.sh', '~/hook.sh'],
    ['python3 -u /path/hook.py', '/path/hook.py'],
    ['nice -n 10 /path/hook.sh', '/path/hook.sh'],
    ['/usr/bin/env python3 /path/hook.py', '/path/hook.py'],
    ['/usr/bin/env bash /path/hook.sh', '/path/hook.sh'],
    ['my-binary --verbose', 'my-binary'],
    ["python3 -c 'print(1)'", 'python3'],
    ["python3 'unterminated", "python3 'unterminated"],
    ['', ''],
    ['node /x/HOOK.MJS', '/x/HOOK.MJS'],
  ])('%j → %j', (command, path) => {
    expect(resolveScriptPath(command)).toBe(path);
  });
});

const dir = mkdtempSync(join(tmpdir(), 'hookgate-path-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('executable check, mtime and fingerprint (§3.10, §5.5)', () => {
  const py = join(dir, 'hook.py');
  writeFileSync(py, 'print("{}")\n');
  chmodSync(py, 0o644);

  it('a readable, non-executable script passes only through an interpreter', () => {
    expect(isRunnableAsConfigured(`python3 ${py}`)).toBe(true);
    expect(isRunnableAsConfigured(`/usr/bin/env python3 ${py}`)).toBe(true);
    expect(isRunnableAsConfigured(py)).toBe(false);
    chmodSync(py, 0o755);
    expect(isRunnableAsConfigured(py)).toBe(true);
    expect(isRunnableAsConfigured('my-binary --verbose')).toBe(false); // PATH-only: fails by design
    expect(isRunnableAsConfigured(dir)).toBe(false);
    expect(isRunnableAsConfigured('')).toBe(false);
  });

  it('mtime with microseconds, `~` from HOME, null when missing; sha256 of the bytes', () => {
    utimesSync(py, 1_772_366_320.25, 1_772_366_320.25);
    expect(scriptMtime(`python3 ${py}`)).toBe('2026-03-01T11:58:40.250000Z');
    utimesSync(py, 1_772_366_320, 1_772_366_320);
    expect(scriptMtime(py)).toBe('2026-03-01T11:58:40Z');
    expect(scriptMtime('~/hook.py', { HOME: dir })).toBe('2026-03-01T11:58:40Z');
    expect(scriptMtime(join(dir, 'missing.sh'))).toBeNull();
    // sha256('print("{}")\n'), computed independently
    expect(scriptSha256(py)).toBe(createHash('sha256').update('print("{}")\n').digest('hex'));
    expect(scriptSha256(py)).toMatch(/^[0-9a-f]{64}$/);
    expect(scriptSha256(`python3 ${dir}`)).toBeNull();
    expect(scriptSha256(join(dir, 'missing.py'))).toBeNull();
  });
});

describe('allowlist timestamps (§3.9)', () => {
  it('formats UTC with 6 fraction digits only when non-zero', () => {
    expect(formatIsoMicros(1_772_366_405_123_456n)).toBe('2026-03-01T12:00:05.123456Z');
    expect(formatIsoMicros(1_772_366_405_000_000n)).toBe('2026-03-01T12:00:05Z');
    expect(formatIsoMicros(1_772_366_405_000_001n)).toBe('2026-03-01T12:00:05.000001Z');
  });

  it('parses instants for comparison, whatever the fraction length', () => {
    expect(parseIsoMicros('2026-03-01T12:00:05Z')).toBe(parseIsoMicros('2026-03-01T12:00:05.000000Z'));
    expect(parseIsoMicros('2026-03-01T12:00:05.5Z')! > parseIsoMicros('2026-03-01T12:00:05Z')!).toBe(true);
    // as strings, "…05.5Z" < "…05Z"; as instants it is later (§5.7)
    expect('2026-03-01T12:00:05.5Z' < '2026-03-01T12:00:05Z').toBe(true);
    expect(parseIsoMicros('2026-03-01T12:00:05+00:00')).toBe(parseIsoMicros('2026-03-01T12:00:05Z'));
    expect(parseIsoMicros('yesterday')).toBeUndefined();
    expect(parseIsoMicros(null)).toBeUndefined();
  });
});
