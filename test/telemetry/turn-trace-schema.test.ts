import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderTurnTraceSchema, TURN_TRACE_SCHEMA_PATH } from '../../scripts/write-turn-trace-schema.ts';

describe('the turn-trace payload schema', () => {
  it('docs/turn-trace.schema.json is the JSON Schema generated from the zod schema (npm run schema)', async () => {
    expect(await readFile(TURN_TRACE_SCHEMA_PATH, 'utf8')).toBe(renderTurnTraceSchema());
  });
});
