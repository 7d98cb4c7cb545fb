import { delegateTaskTool } from './delegate-task.ts';
import { patchTool } from './patch-file.ts';
import { readFileTool } from './read-file.ts';
import { terminalTool } from './terminal.ts';
import type { Tool } from './tool.ts';
import { writeFileTool } from './write-file.ts';

/** The built-in tools, by name. */
export const BUILTIN_TOOLS: ReadonlyMap<string, Tool> = new Map(
  [terminalTool, readFileTool, writeFileTool, patchTool, delegateTaskTool].map((tool) => [tool.spec.function.name, tool]),
);

/** Children get every tool but delegation, so delegation is one level deep. */
export const CHILD_TOOLS: ReadonlyMap<string, Tool> = new Map([...BUILTIN_TOOLS].filter(([name]) => name !== 'delegate_task'));
