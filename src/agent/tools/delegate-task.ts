import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { renderWireJson } from '../../hooks/wire-json.ts';
import { isPlainObject } from '../../hooks/python-truthiness.ts';
import { ToolInputError, toolSpec, type Tool } from './tool.ts';
import { errorText } from '../../errors/error-text.ts';

/** One child to run, as constructed on the parent side. */
export interface ChildSpec {
  goal: string;
  role: string;
  child_session_id: string;
  child_subagent_id: string;
}

export type ChildStatus = 'completed' | 'failed' | 'interrupted' | 'error';

export interface ChildOutcome {
  status: ChildStatus;
  /** The child's final response, or null when it produced none. */
  summary: string | null;
}

/** Runs one child agent to its end (the turn runtime supplies it). */
export type DelegateRunner = (child: ChildSpec) => Promise<ChildOutcome>;

/** Children of one delegation call, at most. */
export const MAX_CHILDREN = 5;

/**
 * `delegate_task`: runs one child (`goal`) or a batch (`tasks: [{goal, role?}]`) side by
 * side. `subagent_start` fires per child at construction; once all have finished,
 * `subagent_stop` fires once per child, one after another, in result order (§1.14). The
 * model gets each child's goal, status and summary; the role marker used for the hooks is
 * bookkeeping and is not in the result.
 */
export const delegateTaskTool: Tool = {
  spec: toolSpec('delegate_task', 'Hand one task (goal) or several (tasks) to child agents that run side by side.', {
    type: 'object',
    properties: {
      goal: { type: 'string' },
      tasks: {
        type: 'array',
        items: { type: 'object', properties: { goal: { type: 'string' }, role: { type: 'string' } }, required: ['goal'] },
      },
    },
  }),
  async run(args, context) {
    const runner = context.delegate;
    if (!runner) throw new ToolInputError('delegate_task is not available here');
    const tasks = tasksOf(args);
    const { hooks } = context;
    const children: ChildSpec[] = [];
    for (const task of tasks) {
      const child: ChildSpec = {
        goal: task.goal,
        role: task.role ?? 'leaf',
        child_session_id: `${context.session_id}:sub:${randomUUID().slice(0, 8)}`,
        child_subagent_id: `subagent_${randomUUID()}`,
      };
      children.push(child);
      await hooks.observe('subagent_start', {
        parent_session_id: context.session_id,
        parent_turn_id: context.turn_id,
        parent_subagent_id: context.subagent_id ?? null,
        child_session_id: child.child_session_id,
        child_subagent_id: child.child_subagent_id,
        child_role: child.role,
        child_goal: child.goal,
      });
    }
    const finished = await Promise.all(
      children.map(async (child) => {
        const started = performance.now();
        let outcome: ChildOutcome;
        try {
          outcome = await runner(child);
        } catch (error) {
          outcome = { status: 'error', summary: `child failed: ${errorText(error)}` };
        }
        return { child, outcome, durationMs: Math.trunc(performance.now() - started) };
      }),
    );
    // Inline: run here and awaited, so the calls are serialised on the parent (§1.14); through
    // the events queue they could run side by side in the observer consumer.
    for (const { child, outcome, durationMs } of finished) {
      await hooks.observe(
        'subagent_stop',
        {
          parent_session_id: context.session_id,
          parent_turn_id: context.turn_id,
          child_session_id: child.child_session_id,
          child_role: child.role,
          child_summary: outcome.summary,
          child_status: outcome.status,
          duration_ms: durationMs,
        },
        { inline: true },
      );
    }
    return renderWireJson({
      results: finished.map(({ child, outcome, durationMs }, index) => ({
        task_index: index,
        goal: child.goal,
        status: outcome.status,
        summary: outcome.summary,
        duration_seconds: durationMs / 1000,
      })),
    });
  },
};

function tasksOf(args: Record<string, unknown>): { goal: string; role?: string }[] {
  if (Array.isArray(args.tasks) && args.tasks.length > 0) {
    if (args.tasks.length > MAX_CHILDREN) throw new ToolInputError(`delegate_task takes at most ${MAX_CHILDREN} tasks`);
    return args.tasks.map((task, index) => {
      if (!isPlainObject(task) || typeof task.goal !== 'string' || task.goal.trim() === '') {
        throw new ToolInputError(`tasks[${index}] needs a non-empty "goal" string`);
      }
      return { goal: task.goal, ...(typeof task.role === 'string' && task.role ? { role: task.role } : {}) };
    });
  }
  if (typeof args.goal === 'string' && args.goal.trim() !== '') return [{ goal: args.goal }];
  throw new ToolInputError('delegate_task needs a "goal" string or a non-empty "tasks" list');
}
