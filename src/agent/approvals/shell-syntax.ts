/// <reference path="./mvdan-sh.d.ts" />
import type { ShNode, syntax as ShSyntax } from 'mvdan-sh';
import { HookgateError } from '../../errors/hookgate-error.ts';
import { errorText } from '../../errors/error-text.ts';

/**
 * One shell word as far as it can be known without running anything. `text` is the word with
 * quotes removed; expansions (`$X`, `$(…)`, `$((…))`, `<(…)`) and brace expansion make it
 * `dynamic` (their place in `text` is `\u0000`), unquoted `*`, `?`, `[` make it a `glob`.
 * A dynamic word that may become several words at run time (an unquoted expansion, `"$@"`,
 * `"${a[@]}"`, brace expansion) is also `split`: it may hold options and operands alike.
 */
export interface ShellWord {
  readonly text: string;
  readonly dynamic: boolean;
  readonly glob: boolean;
  readonly split?: boolean;
  /** The parameter, when the whole word is one plain expansion of it (`$!`, `"$PID"`, `${X}`). */
  readonly param?: string;
}

/** A shell function defined on the line: its name and the simple commands of its body. */
export interface ShellFunction {
  readonly name: string;
  readonly commands: readonly (readonly ShellWord[])[];
}

/** Where a simple command's standard input comes from, when the command line says so. */
export type StdinSource = { readonly kind: 'pipe'; readonly from: readonly ShellWord[][] } | { readonly kind: 'heredoc' };

/** One simple command (`CallExpr`): its words after assignments, redirections and stdin. */
export interface SimpleCommand {
  readonly words: readonly ShellWord[];
  /** Output redirections' targets (`>`, `>>`, `&>`, `>|`, …). */
  readonly writes: readonly ShellWord[];
  readonly stdin?: StdinSource;
}

/** Every simple command of a command line, in source order, and its shell functions. */
export interface ShellStructure {
  readonly commands: readonly SimpleCommand[];
  /** Functions defined on the line (`f() { …; }`, `function f { …; }`), in source order. */
  readonly functions: readonly ShellFunction[];
}

/** The command line is not valid shell syntax (bash dialect) or the parser could not be loaded. */
export class ShellSyntaxError extends HookgateError {
  override readonly name = 'ShellSyntaxError';
}

interface Parser {
  syntax: typeof ShSyntax;
  parse(source: string): ShNode;
  pipeOps: ReadonlySet<number>;
  writeOps: ReadonlySet<number>;
  heredocOps: ReadonlySet<number>;
}

let parserPromise: Promise<Parser> | undefined;

/** mvdan/sh is 1.5 MB of JavaScript: loaded on the first command line, not at import. */
function loadParser(): Promise<Parser> {
  parserPromise ??= import('mvdan-sh').then((loaded) => {
    const syntax =
      (loaded as { default?: { syntax?: typeof ShSyntax } }).default?.syntax ?? (loaded as { syntax: typeof ShSyntax }).syntax;
    const parser = syntax.NewParser();
    const parse = (source: string) => parser.Parse(source, 'command');
    // Operator token numbers are the Go package's; read them from samples instead of hard-coding them.
    const binaryOp = (source: string) => parse(source).Stmts[0].Cmd.Op as number;
    const redirectOp = (source: string) => parse(source).Stmts[0].Redirs[0].Op as number;
    return {
      syntax,
      parse,
      pipeOps: new Set([binaryOp('a | b'), binaryOp('a |& b')]),
      writeOps: new Set(['a > b', 'a >> b', 'a &> b', 'a &>> b', 'a >| b'].map(redirectOp)),
      heredocOps: new Set(['a <<EOF\nx\nEOF\n', 'a <<-EOF\nx\nEOF\n', 'a <<< b'].map(redirectOp)),
    };
  });
  return parserPromise;
}

/** Words of characters bash gives no meaning to, separated by spaces (`=` only after the first word). */
const PLAIN_LINE = /^ *[A-Za-z0-9_./:,+@%-]+(?: +[A-Za-z0-9_./:,+@%=-]+)* *$/;

/**
 * First words that make a line something other than one simple command: bash's reserved words,
 * and the builtins mvdan/sh parses as clauses of their own (`export`, `let`, …).
 */
const NOT_A_COMMAND_NAME = new Set([
  ...['if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in'],
  ...['function', 'time', 'coproc', 'declare', 'local', 'export', 'readonly', 'typeset', 'nameref', 'let'],
]);

/**
 * The structure of a line of plain words (`ls -la src`, `npm test`, `git status --short`), which
 * needs no parser: one simple command whose words are themselves. Undefined for anything else.
 * Most tool calls are such lines, and the parser (Go compiled to JavaScript) takes ≈ 0.3 ms for
 * even `true`; `parseShellFully` gives the same structure for every line this accepts (its tests).
 *
 * @example
 * plainCommandLine('git status --short')?.commands[0]?.words.map((w) => w.text) // ['git', 'status', '--short']
 * plainCommandLine('rm -rf "$HOME"') // undefined
 */
export function plainCommandLine(source: string): ShellStructure | undefined {
  if (!PLAIN_LINE.test(source)) return undefined;
  const words = source.split(' ').filter((word) => word !== '');
  if (NOT_A_COMMAND_NAME.has(words[0]!)) return undefined;
  return { commands: [{ words: words.map((text) => ({ text, dynamic: false, glob: false })), writes: [] }], functions: [] };
}

/**
 * Parses a command line (bash dialect, with mvdan/sh) into its simple commands: through
 * pipelines, `;`, `&&`, `||`, `&`, subshells, `{ …; }`, `if`/`while`/`for`/`case`, functions,
 * and every `$(…)`, backtick and `<(…)` nested in a word, an assignment or a redirection.
 * A line of plain words takes a shortcut to the same structure (`plainCommandLine`).
 *
 * @example
 * const { commands } = await parseShell('cd x && rm -rf "$(pwd)"/*');
 * commands.map((c) => c.words.map((w) => w.text)); // [['cd', 'x'], ['rm', '-rf', '\u0000/*'], ['pwd']]
 */
export async function parseShell(source: string): Promise<ShellStructure> {
  return plainCommandLine(source) ?? parseShellFully(source);
}

/**
 * `parseShell` always through the parser.
 *
 * @example
 * const { commands } = await parseShellFully('true');
 */
export async function parseShellFully(source: string): Promise<ShellStructure> {
  let parser: Parser;
  try {
    parser = await loadParser();
  } catch (error) {
    parserPromise = undefined;
    throw new ShellSyntaxError(`the shell parser could not be loaded: ${errorText(error)}`);
  }
  let file: ShNode;
  try {
    file = parser.parse(source);
  } catch (error) {
    throw new ShellSyntaxError(goErrorText(error));
  }
  const commands: SimpleCommand[] = [];
  const functions: ShellFunction[] = [];
  const { syntax } = parser;
  const type = (node: ShNode) => syntax.NodeType(node);

  const visitStmts = (stmts: ShNode[] | null | undefined, stdin?: StdinSource) => {
    for (const stmt of stmts ?? []) visitStmt(stmt, stdin);
  };

  const visitStmt = (stmt: ShNode | null | undefined, stdin?: StdinSource): void => {
    if (!stmt) return;
    const writes: ShellWord[] = [];
    let ownStdin = stdin;
    for (const redirect of stmt.Redirs ?? []) {
      visitNested(redirect.Word);
      visitNested(redirect.Hdoc);
      if (parser.writeOps.has(redirect.Op) && redirect.Word) writes.push(wordOf(redirect.Word));
      if (parser.heredocOps.has(redirect.Op)) ownStdin = { kind: 'heredoc' };
    }
    visitCommand(stmt.Cmd, ownStdin, writes);
  };

  const visitCommand = (cmd: ShNode | null | undefined, stdin: StdinSource | undefined, writes: ShellWord[]): void => {
    if (!cmd) return;
    switch (type(cmd)) {
      case 'CallExpr': {
        for (const assign of cmd.Assigns ?? []) visitNested(assign);
        for (const arg of cmd.Args ?? []) visitNested(arg);
        const words = (cmd.Args ?? []).map(wordOf);
        if (words.length > 0 || writes.length > 0) commands.push({ words, writes, ...(stdin ? { stdin } : {}) });
        return;
      }
      case 'BinaryCmd':
        if (parser.pipeOps.has(cmd.Op)) {
          const before = commands.length;
          visitStmt(cmd.X, stdin);
          const upstream = commands.slice(before).map((c) => [...c.words]);
          visitStmt(cmd.Y, { kind: 'pipe', from: upstream });
        } else {
          visitStmt(cmd.X, stdin);
          visitStmt(cmd.Y, stdin);
        }
        return;
      case 'Subshell':
      case 'Block':
        visitStmts(cmd.Stmts, stdin);
        return;
      case 'IfClause':
        for (let clause: ShNode | null = cmd; clause; clause = clause.Else ?? null) {
          visitStmts(clause.Cond);
          visitStmts(clause.Then, stdin);
        }
        return;
      case 'WhileClause':
        visitStmts(cmd.Cond);
        visitStmts(cmd.Do, stdin);
        return;
      case 'ForClause':
        visitNested(cmd.Loop);
        visitStmts(cmd.Do, stdin);
        return;
      case 'CaseClause':
        visitNested(cmd.Word);
        for (const item of cmd.Items ?? []) {
          for (const pattern of item.Patterns ?? []) visitNested(pattern);
          visitStmts(item.Stmts, stdin);
        }
        return;
      case 'FuncDecl': {
        const name = String(cmd.Name?.Value ?? '');
        const before = commands.length;
        visitStmt(cmd.Body, stdin);
        functions.push({ name, commands: commands.slice(before).map((c) => c.words) });
        return;
      }
      case 'TimeClause':
      case 'CoprocClause':
        visitStmt(cmd.Stmt, stdin);
        return;
      default:
        // `declare`/`export`/`local`, `let`, `((…))`, `[[ … ]]`, test expressions: only what they nest.
        visitNested(cmd);
    }
  };

  /** Finds the command substitutions and process substitutions inside a node and visits their statements. */
  const visitNested = (node: ShNode | null | undefined): void => {
    if (!node) return;
    syntax.Walk(node, (child) => {
      if (!child) return true;
      const kind = type(child);
      if (kind === 'CmdSubst' || kind === 'ProcSubst') {
        visitStmts(child.Stmts);
        return false;
      }
      return true;
    });
  };

  const wordOf = (word: ShNode): ShellWord => {
    let text = '';
    let dynamic = false;
    let glob = false;
    let split = false;
    const parts: ShNode[] = word.Parts ?? [];
    for (const part of parts) {
      switch (type(part)) {
        case 'Lit': {
          const raw = String(part.Value);
          // `*`, `?` or a bracket expression with its `]` (a lone `[` is the test command).
          if (/(?:^|[^\\])(?:[*?]|\[[^\]]+\])/.test(raw)) glob = true;
          // Unquoted brace expansion (`{rm,-rf,/}`, `{1..3}`) makes several words out of one.
          if (/\{[^}]*(,|\.\.)[^}]*\}/.test(raw)) dynamic = split = true;
          text += unescapeUnquoted(raw);
          break;
        }
        case 'SglQuoted':
          if (part.Dollar) {
            const decoded = decodeAnsiC(String(part.Value));
            if (decoded === undefined) {
              dynamic = true;
              text += '\u0000';
            } else text += decoded;
          } else text += String(part.Value);
          break;
        case 'DblQuoted':
          for (const inner of part.Parts ?? []) {
            if (type(inner) === 'Lit')
              text += String(inner.Value).replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
            else {
              dynamic = true;
              // `"$@"` and `"${a[@]}"`: one quoted word, several words at run time.
              if (type(inner) === 'ParamExp' && (inner.Param?.Value === '@' || inner.Index)) split = true;
              text += '\u0000';
            }
          }
          break;
        default:
          dynamic = true;
          // Unquoted: split into fields at run time (an option and an operand from one `$X`).
          split = true;
          text += '\u0000';
      }
    }
    const param = soleParameter(parts);
    return { text, dynamic, glob, ...(split ? { split } : {}), ...(param !== undefined ? { param } : {}) };
  };

  /** `$X`, `${X}` or `"$X"` alone (no operator, index or length): the parameter's name. */
  const soleParameter = (parts: ShNode[]): string | undefined => {
    const only = parts.length === 1 && type(parts[0]!) === 'DblQuoted' ? (parts[0]!.Parts ?? []) : parts;
    if (only.length !== 1 || type(only[0]!) !== 'ParamExp') return undefined;
    const exp = only[0]!;
    if (exp.Exp || exp.Index || exp.Slice || exp.Repl || exp.Length || exp.Excl || exp.Width || exp.Names) return undefined;
    return typeof exp.Param?.Value === 'string' ? exp.Param.Value : undefined;
  };

  visitStmts(file.Stmts);
  return { commands, functions };
}

/** Bash's quote removal for an unquoted literal: `\x` → `x`, a backslash-newline disappears. */
function unescapeUnquoted(raw: string): string {
  return raw.replace(/\\(\n|.)/gs, (_m, c: string) => (c === '\n' ? '' : c));
}

/** `$'…'` with the simple escapes; anything fancier (`\u`, `\c`) is left dynamic. */
function decodeAnsiC(value: string): string | undefined {
  let unknown = false;
  const out = value.replace(/\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|.)/gs, (_m, esc: string) => {
    if (esc[0] === 'x') return String.fromCharCode(parseInt(esc.slice(1), 16));
    if (/^[0-7]+$/.test(esc)) return String.fromCharCode(parseInt(esc, 8));
    const simple: Record<string, string> = {
      n: '\n',
      t: '\t',
      r: '\r',
      a: '\x07',
      b: '\b',
      e: '\x1b',
      E: '\x1b',
      f: '\f',
      v: '\v',
      '\\': '\\',
      "'": "'",
      '"': '"',
      '?': '?',
    };
    if (esc in simple) return simple[esc]!;
    unknown = true;
    return '';
  });
  return unknown ? undefined : out;
}

function goErrorText(error: unknown): string {
  if (error && typeof error === 'object') {
    const err = error as { Error?: () => string; message?: string };
    if (typeof err.Error === 'function') return err.Error();
    if (typeof err.message === 'string') return err.message;
  }
  return errorText(error);
}
