import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { EnvelopeParseError, parseEnvelope } from '../../src/pipeline/envelope.ts';
import { ENVELOPE_SCHEMA_PATH, renderEnvelopeSchema } from '../../scripts/write-envelope-schema.ts';

const inline = {
  v: 1,
  id: 'e1',
  type: 'post_tool_call',
  occurred_at: '2026-01-01T00:00:00.000Z',
  session_id: 's1',
  turn_id: null,
  payload: { tool_name: 'terminal' },
};

describe('envelope v1', () => {
  it('docs/envelope.schema.json is the JSON Schema generated from the zod schema (npm run schema)', async () => {
    expect(await readFile(ENVELOPE_SCHEMA_PATH, 'utf8')).toBe(renderEnvelopeSchema());
  });

  it('parses inline and offloaded envelopes and tolerates keys a later v1 adds', () => {
    expect(parseEnvelope(JSON.stringify(inline))).toEqual(inline);
    const offloaded = {
      ...inline,
      payload: null,
      payload_ref: { store: 's3', bucket: 'b', key: 'k', bytes: 3, sha256: 'a'.repeat(64) },
    };
    expect(parseEnvelope(JSON.stringify(offloaded))).toEqual(offloaded);
    expect(parseEnvelope(JSON.stringify({ ...inline, trace_id: 'x' }))).toEqual(inline);
  });

  it('rejects what is not an envelope v1 with a clear message', () => {
    expect(() => parseEnvelope('nope')).toThrow(EnvelopeParseError);
    expect(() => parseEnvelope(JSON.stringify({ ...inline, v: 2 }))).toThrow(/not an envelope v1/);
    expect(() => parseEnvelope(JSON.stringify({ ...inline, payload: null }))).toThrow(EnvelopeParseError);
    expect(() => parseEnvelope(JSON.stringify({ ...inline, occurred_at: 'yesterday' }))).toThrow(/occurred_at/);
  });
});
