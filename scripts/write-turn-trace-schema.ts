import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { TurnTracePayloadSchema } from '../src/telemetry/turn-trace-event.ts';

/**
 * `npm run schema` (second part): regenerates docs/turn-trace.schema.json, the payload of the
 * `hookgate:turn_trace` envelope, from the zod schema (a test fails when the file is out of date).
 */
export const TURN_TRACE_SCHEMA_PATH = fileURLToPath(new URL('../docs/turn-trace.schema.json', import.meta.url));

/** The JSON Schema text; input side, so a consumer accepts keys a later version adds. */
export const renderTurnTraceSchema = (): string =>
  `${JSON.stringify(z.toJSONSchema(TurnTracePayloadSchema, { target: 'draft-2020-12', io: 'input' }), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(TURN_TRACE_SCHEMA_PATH, renderTurnTraceSchema());
  process.stdout.write(`wrote ${TURN_TRACE_SCHEMA_PATH}\n`);
}
