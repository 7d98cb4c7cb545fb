// The tools λ: one sandboxed tool call per invocation (tenant isolation, tenant id = session id). Wiring only; the parts are in src/.
import { createToolsFunction } from '../src/runtime/tools-function.ts';

export const handler = createToolsFunction();
