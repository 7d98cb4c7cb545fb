import { HOOK_NAMES } from '../../catalogue.ts';

/**
 * Similarity of two strings by gestalt (Ratcliff/Obershelp) pattern matching, the ratio
 * Python's `difflib.SequenceMatcher(None, a, b).ratio()` computes (hook-semantics §3.2):
 * `2·M / (len(a) + len(b))`, M the total size of the matching blocks.
 *
 * @example
 * gestaltRatio('pre_tool_call', 'pre_tools_call') // 0.962…
 */
export function gestaltRatio(a: string, b: string): number {
  const total = a.length + b.length;
  return total === 0 ? 1 : (2 * matchingSize(a, 0, a.length, b, 0, b.length)) / total;
}

function matchingSize(a: string, alo: number, ahi: number, b: string, blo: number, bhi: number): number {
  if (alo >= ahi || blo >= bhi) return 0;
  // Longest common block; ties: earliest in a, then earliest in b (strict `>` keeps the first).
  let bestI = alo;
  let bestJ = blo;
  let bestK = 0;
  for (let i = alo; i < ahi; i++) {
    for (let j = blo; j < bhi; j++) {
      let k = 0;
      while (i + k < ahi && j + k < bhi && a[i + k] === b[j + k]) k++;
      if (k > bestK) {
        bestI = i;
        bestJ = j;
        bestK = k;
      }
    }
  }
  if (bestK === 0) return 0;
  return bestK + matchingSize(a, alo, bestI, b, blo, bestJ) + matchingSize(a, bestI + bestK, ahi, b, bestJ + bestK, bhi);
}

/**
 * The closest valid hook name to a mistyped one: ratio ≥ `cutoff` (0.6, difflib's default),
 * highest wins, ties go to the lexicographically greater name (as
 * `difflib.get_close_matches(typed, names, n=1, cutoff)`). Other names take it too (plugin
 * names, the stack's `-c` options, with a stricter cutoff).
 *
 * @example
 * suggestHookName('pre_tools_call') // 'pre_tool_call'
 * suggestHookName('PreToolUse')     // undefined
 */
export function suggestHookName(typed: string, candidates: readonly string[] = HOOK_NAMES, cutoff = 0.6): string | undefined {
  let best: string | undefined;
  let bestRatio = -1;
  for (const candidate of candidates) {
    const ratio = gestaltRatio(candidate, typed);
    if (ratio < cutoff) continue;
    if (ratio > bestRatio || (ratio === bestRatio && best !== undefined && candidate > best)) {
      best = candidate;
      bestRatio = ratio;
    }
  }
  return best;
}
