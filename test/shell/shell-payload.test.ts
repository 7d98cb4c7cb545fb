import { describe, expect, it } from 'vitest';
import { renderShellPayload } from '../../src/hooks/shell/shell-payload.ts';
import { PayloadSerialisationError } from '../../src/hooks/shell/spawn/shell-errors.ts';

describe('renderShellPayload (§3.6)', () => {
  it('renders the spec example byte for byte', () => {
    const kwargs = {
      tool_name: 'terminal',
      args: { command: 'ls -la' },
      task_id: 't-1',
      session_id: 's-1',
      tool_call_id: 'c-1',
      turn_id: '',
      api_request_id: '',
      middleware_trace: [],
      telemetry_schema_version: 'hermes.observer.v1',
    };
    expect(renderShellPayload('pre_tool_call', kwargs, '/home/u/proj')).toBe(
      '{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls -la"}, "session_id": "s-1", "cwd": "/home/u/proj", "extra": {"task_id": "t-1", "tool_call_id": "c-1", "turn_id": "", "api_request_id": "", "middleware_trace": [], "telemetry_schema_version": "hermes.observer.v1"}}',
    );
  });

  it('an own __proto__ key (from JSON.parse) stays a key of extra, in its place', () => {
    const kwargs = JSON.parse('{"tool_name": "t", "a": 1, "__proto__": {"x": 1}, "z": 2}') as Record<string, unknown>;
    expect(renderShellPayload('pre_tool_call', kwargs, '/w')).toBe(
      '{"hook_event_name": "pre_tool_call", "tool_name": "t", "tool_input": null, "session_id": "", "cwd": "/w", "extra": {"a": 1, "__proto__": {"x": 1}, "z": 2}}',
    );
  });

  it('subagent_stop: session from parent_session_id, never in extra; null tool fields', () => {
    const out = renderShellPayload(
      'subagent_stop',
      {
        parent_session_id: 'parent-sess',
        child_role: null,
        child_summary: 'Résumé ✓',
        child_status: 'completed',
        duration_ms: 1234,
      },
      '/w',
    );
    expect(out).toBe(
      '{"hook_event_name": "subagent_stop", "tool_name": null, "tool_input": null, "session_id": "parent-sess", "cwd": "/w", "extra": {"child_role": null, "child_summary": "Résumé ✓", "child_status": "completed", "duration_ms": 1234}}',
    );
  });

  it('non-object args give null tool_input; odd values become strings; cycles fail', () => {
    const odd = { toString: () => '<weird>' };
    Object.setPrototypeOf(odd, { toString: () => '<weird>' });
    expect(renderShellPayload('post_tool_call', { tool_name: 't', args: [1], session_id: '', x: odd }, '')).toBe(
      '{"hook_event_name": "post_tool_call", "tool_name": "t", "tool_input": null, "session_id": "", "cwd": "", "extra": {"x": "<weird>"}}',
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => renderShellPayload('post_llm_call', { cyclic }, '/')).toThrow(PayloadSerialisationError);
  });
});
