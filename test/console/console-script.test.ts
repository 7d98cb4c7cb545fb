import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { CONSOLE_SCRIPT_PATH, compileConsoleScript, renderConsoleScriptModule } from '../../scripts/write-console-script.ts';
import { CONSOLE_SCRIPT } from '../../src/console/console-script.ts';

describe('the served console script (src/console/console-script.ts)', () => {
  it('is what npm run console-script makes of src/console/browser/console.ts now (run it after editing console.ts)', async () => {
    expect(await readFile(CONSOLE_SCRIPT_PATH, 'utf8')).toBe(await renderConsoleScriptModule());
  });

  it('exports the compiled browser code exactly, backslashes, backticks and ${ included', async () => {
    const compiled = await compileConsoleScript();
    expect(CONSOLE_SCRIPT).toBe(compiled);
    // The code has template literals and regular expressions: the escaping is exercised.
    expect(compiled).toContain('`');
    expect(compiled).toContain('${');
    expect(compiled).toContain('\\s+');
  });
});
