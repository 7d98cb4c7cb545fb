// mvdan-sh (mvdan.cc/sh/v3/syntax compiled to JavaScript with GopherJS) ships no types. Nodes are
// Go structs: fields as in https://pkg.go.dev/mvdan.cc/sh/v3/syntax, `syntax.NodeType(node)` names
// the struct. Only what src/agent/approvals/shell-syntax.ts reads is declared.
declare module 'mvdan-sh' {
  export interface ShNode {
    readonly [field: string]: any;
  }
  export interface ShParser {
    Parse(source: string, name: string): ShNode;
  }
  export const syntax: {
    NewParser(): ShParser;
    NodeType(node: ShNode): string;
    Walk(node: ShNode, visit: (node: ShNode | null) => boolean): void;
  };
  const mvdanSh: { syntax: typeof syntax };
  export default mvdanSh;
}
