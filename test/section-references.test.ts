import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every `§N` cited in code and docs points at a section that exists in the repository:
 * "hook-semantics §N" → docs/reference/hook-semantics.md, "architecture §N" → docs/architecture.md,
 * "docs/<page>.md §N" → that page. A bare "§N" means the last page named on its line, else
 * hook-semantics (docs/reference/README.md), except in architecture.md itself.
 */

const PAGES: Record<string, string> = {
  'hook-semantics': 'docs/reference/hook-semantics.md',
  architecture: 'docs/architecture.md',
};

/** The numbers of a page's numbered headings (`## 1.`, `### 1.13`, `#### 1.13.1`). */
function sectionsOf(page: string): Set<string> {
  const sections = new Set<string>();
  for (const line of readFileSync(page, 'utf8').split('\n')) {
    const m = /^#+ (\d+(?:\.\d+)*)[. ]/.exec(line);
    if (m) sections.add(m[1]!);
  }
  return sections;
}

function pageOf(name: string): string | undefined {
  if (PAGES[name]) return PAGES[name];
  const path = name.startsWith('docs/') ? name : `docs/${name}`;
  const short = name.replace(/^.*\//, '').replace(/\.md$/, '');
  return PAGES[short] ?? (existsSync(path) ? path : undefined);
}

describe('section references', () => {
  it('every § in code and docs names a section that exists in the repository', () => {
    const files = execFileSync(
      'git',
      ['ls-files', 'src', 'functions', 'infra', 'bench', 'test', 'examples', 'docs', 'README.md'],
      {
        encoding: 'utf8',
      },
    )
      .split('\n')
      .filter((f) => /\.(ts|md|yaml|sh|py)$/.test(f) && existsSync(f));
    const cache = new Map<string, Set<string>>();
    const broken: string[] = [];
    let seen = 0;
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          let named: string | undefined;
          for (const m of line.matchAll(/(hook-semantics|architecture|[\w./-]+\.md)?\)?\s?§\s?(\d+(?:\.\d+)*)/g)) {
            if (m[1]) named = m[1];
            const name = named ?? (file === 'docs/architecture.md' ? 'architecture' : 'hook-semantics');
            const page = pageOf(name);
            seen++;
            if (page === undefined) {
              broken.push(`${file}:${i + 1}: no page ${name}`);
              continue;
            }
            if (!cache.has(page)) cache.set(page, sectionsOf(page));
            if (!cache.get(page)!.has(m[2]!)) broken.push(`${file}:${i + 1}: ${page} has no §${m[2]}`);
          }
        });
    }
    expect(seen).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });

  it('nothing cites a file outside the repository', () => {
    // git grep exits 1 when nothing matches.
    let hits = '';
    try {
      hits = execFileSync(
        'git',
        [
          'grep',
          '-n',
          '-E',
          String.raw`shared/(spec|seed)|\.\./shared/`,
          '--',
          'src',
          'docs',
          'README.md',
          'functions',
          'infra',
          'examples',
          'bench',
        ],
        {
          encoding: 'utf8',
        },
      );
    } catch (error) {
      if ((error as { status?: number }).status !== 1) throw error;
    }
    expect(hits).toBe('');
  });
});
