import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { envelopeJsonSchema } from '../src/pipeline/envelope.ts';

/**
 * `npm run schema`: regenerates docs/envelope.schema.json from the zod schema (a test fails
 * when the file is out of date).
 */
export const ENVELOPE_SCHEMA_PATH = fileURLToPath(new URL('../docs/envelope.schema.json', import.meta.url));

export const renderEnvelopeSchema = (): string => `${JSON.stringify(envelopeJsonSchema(), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(ENVELOPE_SCHEMA_PATH, renderEnvelopeSchema());
  process.stdout.write(`wrote ${ENVELOPE_SCHEMA_PATH}\n`);
}
