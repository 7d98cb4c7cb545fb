import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { ratioOf, type Bench, type Figure } from './harness.ts';

/**
 * `npm run bench [filter]`: runs every `bench/*.bench.ts` (or those whose name contains
 * the filter) and prints each figure as a ratio against its same-run baseline.
 */
// The SDK's notice about Node 20 would interleave with the figures.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const dir = fileURLToPath(new URL('.', import.meta.url));
const filter = process.argv[2] ?? '';
const files = (await readdir(dir)).filter((f) => f.endsWith('.bench.ts') && f.includes(filter)).sort();

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3));
let failed = false;
for (const file of files) {
  const bench = (await import(pathToFileURL(join(dir, file)).href)).default as Bench;
  let figures: Figure[];
  try {
    figures = await bench();
  } catch (error) {
    failed = true;
    console.log(`${file}: FAILED ${(error as Error).stack ?? error}`);
    continue;
  }
  for (const f of figures) {
    const ratio = ratioOf(f);
    console.log(
      `${f.name}: ${fmt(f.value)} ${f.unit} vs ${f.baseline} ${fmt(f.baselineValue)} ${f.unit}` +
        ` → ratio ${ratio.toFixed(2)}x (${f.better} is better)${f.notes ? `; ${f.notes}` : ''}`,
    );
  }
}
process.exitCode = failed ? 1 : 0;
