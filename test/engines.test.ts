import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** The part of semver this test uses (the package ships no types). */
interface Semver {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
}
const semver = createRequire(import.meta.url)('semver') as Semver;

interface Lockfile {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
}

const read = (file: string): unknown => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));

describe('engines', () => {
  // README promises Node 22 or Node 20 "as engines says", and the first command a newcomer runs is
  // `npm install`: a locked package whose own engines leave out one of those Nodes makes it print
  // EBADENGINE warnings there (OpenTelemetry 3.x, >= 22.15, did on Node 20). Each supported line is
  // checked at its lowest version, the one engines admits first.
  it('every locked package accepts the lowest version of each Node line engines names', () => {
    const ours = (read('package.json') as { engines: { node: string } }).engines.node;
    const lowest = ours.split('||').map((range) => semver.minVersion(range.trim())?.version ?? range);
    expect(lowest).toEqual(['20.20.0', '22.23.0']);

    const refused: string[] = [];
    for (const [path, entry] of Object.entries((read('package-lock.json') as Lockfile).packages)) {
      // Old lockfile entries may carry engines as an array of strings, which npm does not check.
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (path === '' || range === undefined) continue;
      for (const node of lowest) {
        if (!semver.satisfies(node, range)) refused.push(`${path}@${entry.version}: node ${range} (not ${node})`);
      }
    }
    expect(refused).toEqual([]);
  });
});
