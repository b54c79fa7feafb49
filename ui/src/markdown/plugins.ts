// Small pieces around the unified pipeline: raw HTML kept as the text it
// is, and the text of a syntax-tree node (a code block, to copy it).

interface Node {
  type: string;
  value?: string;
  children?: Node[];
}

/** A remark plugin: HTML written in Markdown (`<div>`, `<script>`) is
 *  shown as the text it is, neither rendered nor dropped. */
export function rawHtmlAsText() {
  const walk = (node: Node) => {
    if (node.type === "html") node.type = "text";
    node.children?.forEach(walk);
  };
  return (tree: Node) => walk(tree);
}

/** The text under a syntax-tree node. */
export function textOf(node: Node | undefined): string {
  if (!node) return "";
  if (typeof node.value === "string") return node.value;
  return (node.children ?? []).map(textOf).join("");
}
