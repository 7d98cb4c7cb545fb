import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';

/**
 * The top-level folders of src/ (hooks, gateway, agent, pipeline, store, …) depend on each
 * other in one direction only: no cycle between two folders, type-only imports included.
 * dependency-cruiser reads the imports; the folder graph and its cycles are computed here.
 */

/** `src/gateway/app.ts` → `gateway`; files directly under src/ (index.ts) are not a folder. */
function topFolderOf(path: string): string | undefined {
  return /^src\/([^/]+)\//.exec(path)?.[1];
}

/** The folder graph: folder → the folders its files import, with one import as evidence per edge. */
function folderGraph(result: ICruiseResult): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const module of result.modules) {
    const from = topFolderOf(module.source);
    if (from === undefined) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const dependency of module.dependencies) {
      const to = topFolderOf(dependency.resolved);
      if (to === undefined || to === from || edges.has(to)) continue;
      edges.set(to, `${module.source} → ${dependency.resolved}`);
    }
  }
  return graph;
}

/** Every cycle of the graph, once each, as the folders on it (depth-first search from each folder). */
function cyclesOf(graph: Map<string, Map<string, string>>): string[][] {
  const cycles = new Map<string, string[]>();
  const walk = (start: string, path: string[]): void => {
    const last = path[path.length - 1] as string;
    for (const next of graph.get(last)?.keys() ?? []) {
      if (next === start) {
        // One key per cycle whatever folder it was found from.
        const key = [...path].sort().join(',');
        if (!cycles.has(key)) cycles.set(key, [...path, start]);
      } else if (!path.includes(next) && next > start) {
        walk(start, [...path, next]);
      }
    }
  };
  for (const folder of [...graph.keys()].sort()) walk(folder, [folder]);
  return [...cycles.values()];
}

/** A cycle with the import behind each of its edges, for the failure message. */
function describeCycle(graph: Map<string, Map<string, string>>, cycle: string[]): string {
  const lines = [cycle.join(' → ')];
  for (let i = 0; i + 1 < cycle.length; i++) {
    lines.push(`  ${graph.get(cycle[i] as string)?.get(cycle[i + 1] as string)}`);
  }
  return lines.join('\n');
}

/** The folders in the order of docs/architecture.md §2: each may import only folders before it. */
const ORDER = [
  'errors',
  'validation',
  'secrets',
  'logging',
  'hooks',
  'store',
  'messaging',
  'platforms',
  'pipeline',
  'config',
  'telemetry',
  'gateway',
  'agent',
  'runtime',
  'console',
  'local',
  'cli',
];

describe('src/ folder dependencies', () => {
  it('has no import cycle between top-level folders, type-only imports included', async () => {
    const { output } = await cruise(['src'], {
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: 'node_modules' },
    });
    const result = output as ICruiseResult;
    const graph = folderGraph(result);
    // The graph is real: the folders are there and known edges are seen.
    expect([...graph.keys()]).toEqual(expect.arrayContaining(['hooks', 'gateway', 'agent', 'pipeline', 'store']));
    expect(graph.get('gateway')?.has('pipeline')).toBe(true);
    expect(result.modules.some((m) => m.dependencies.some((d) => d.couldNotResolve && d.resolved.startsWith('.')))).toBe(false);

    const cycles = cyclesOf(graph).map((cycle) => describeCycle(graph, cycle));
    expect(cycles, cycles.join('\n\n')).toEqual([]);

    // The documented order holds, and every folder is in it.
    expect([...graph.keys()].sort()).toEqual([...ORDER].sort());
    const against: string[] = [];
    for (const [from, edges] of graph) {
      for (const [to, evidence] of edges)
        if (ORDER.indexOf(to) > ORDER.indexOf(from)) against.push(`${from} → ${to}: ${evidence}`);
    }
    expect(against).toEqual([]);
  });
});
