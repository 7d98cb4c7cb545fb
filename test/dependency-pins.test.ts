import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface PackageJson {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
interface Lockfile {
  packages: Record<string, { version?: string }>;
}

const read = <T>(file: string): T => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')) as T;
const manifest = read<PackageJson>('package.json');
const pinned = { ...manifest.dependencies, ...manifest.devDependencies };
const locked = read<Lockfile>('package-lock.json').packages;

/** Every version of each package the lockfile installs, nested copies included. */
function lockedVersions(): Map<string, Set<string>> {
  const versions = new Map<string, Set<string>>();
  for (const [path, entry] of Object.entries(locked)) {
    const at = path.lastIndexOf('node_modules/');
    if (at < 0 || entry.version === undefined) continue;
    const name = path.slice(at + 'node_modules/'.length);
    versions.set(name, (versions.get(name) ?? new Set()).add(entry.version));
  }
  return versions;
}

/**
 * The families whose packages are released together and must move together (a bump of one
 * client alone loads a second copy of the SDK's core into every function's bundle). OpenTelemetry
 * versions its JS packages on tracks of their own (the API 1.x, the semantic conventions 1.x, the
 * stable SDK 2.x, the experimental 0.x exporters and logs); each track is one line.
 */
const FAMILIES: Record<string, (name: string) => string | undefined> = {
  'AWS SDK v3': (name) => (name.startsWith('@aws-sdk/client-') || name.startsWith('@aws-sdk/lib-') ? 'clients' : undefined),
  'Powertools for AWS Lambda': (name) => (name.startsWith('@aws-lambda-powertools/') ? 'all' : undefined),
  OpenTelemetry: (name) =>
    !name.startsWith('@opentelemetry/')
      ? undefined
      : name === '@opentelemetry/api' || name === '@opentelemetry/semantic-conventions'
        ? name.slice('@opentelemetry/'.length)
        : /exporter|otlp|logs|instrumentation|sdk-node/.test(name)
          ? 'experimental'
          : 'stable',
};

describe('dependency pins', () => {
  it('pins every direct dependency to an exact version, and the lockfile installs that version', () => {
    const loose = Object.entries(pinned).filter(([, version]) => !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version));
    expect(loose).toEqual([]);
    const drift = Object.entries(pinned)
      .filter(([name, version]) => locked[`node_modules/${name}`]?.version !== version)
      .map(([name, version]) => `${name}: pinned ${version}, locked ${locked[`node_modules/${name}`]?.version}`);
    expect(drift).toEqual([]);
  });

  it('keeps one version line per package family, nested copies included', () => {
    const versions = lockedVersions();
    const lines: Record<string, Set<string>> = {};
    for (const [name, found] of versions) {
      for (const [family, track] of Object.entries(FAMILIES)) {
        const line = track(name);
        if (line === undefined) continue;
        const key = `${family} (${line})`;
        for (const version of found) (lines[key] ??= new Set()).add(`${version}`);
      }
    }
    const split = Object.entries(lines)
      .filter(([, found]) => found.size > 1)
      .map(([key, found]) => `${key}: ${[...found].join(', ')}`);
    expect(split).toEqual([]);
    // Each family is there at all (a rename of the check's prefixes must not pass it vacuously).
    expect(Object.keys(lines).sort()).toEqual(
      [
        'AWS SDK v3 (clients)',
        'OpenTelemetry (api)',
        'OpenTelemetry (experimental)',
        'OpenTelemetry (semantic-conventions)',
        'OpenTelemetry (stable)',
        'Powertools for AWS Lambda (all)',
      ].sort(),
    );
    // No package of these families is installed twice.
    const twice = [...versions]
      .filter(([name, found]) => found.size > 1 && Object.values(FAMILIES).some((track) => track(name) !== undefined))
      .map(([name, found]) => `${name}: ${[...found].join(', ')}`);
    expect(twice).toEqual([]);
  });

  it('tests with vite 8.3.8 and vitest 4.1.12', () => {
    expect([pinned.vite, pinned.vitest]).toEqual(['8.3.8', '4.1.12']);
  });
});
