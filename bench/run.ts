import { readdir, writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { jsonFigures, ratioOf, type Bench, type Figure } from './harness.ts';

/**
 * `npm run bench [-- [--json FILE] [filter]]`: runs every `bench/*.bench.ts` (or those whose
 * name contains the filter), prints each figure as a ratio against its same-run baseline and,
 * with `--json FILE`, writes them all to FILE as `[{id, value, baseline, baselineValue, ratio,
 * better}]` (docs/performance.md).
 */
// The SDK's notice about the Node version would interleave with the figures.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { values: options, positionals } = parseArgs({ options: { json: { type: 'string' } }, allowPositionals: true });
const dir = fileURLToPath(new URL('.', import.meta.url));
const filter = positionals[0] ?? '';
const files = (await readdir(dir)).filter((f) => f.endsWith('.bench.ts') && f.includes(filter)).sort();

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3));
let failed = false;
const all: Figure[] = [];
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
      `[${f.id}] ${f.name}: ${fmt(f.value)} ${f.unit} vs ${f.baseline} ${fmt(f.baselineValue)} ${f.unit}` +
        ` → ratio ${ratio.toFixed(2)}x (${f.better} is better${f.goal ? `; goal ${f.goal}` : ''})${f.notes ? `; ${f.notes}` : ''}`,
    );
    all.push(f);
  }
}
if (options.json !== undefined) {
  const json = jsonFigures(all);
  await writeFile(resolve(options.json), `${JSON.stringify(json, null, 2)}\n`);
  console.log(`wrote ${json.length} figures to ${options.json}`);
}
process.exitCode = failed ? 1 : 0;
