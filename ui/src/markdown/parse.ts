// A small Markdown subset, parsed to data (never to HTML strings, so model
// output cannot inject markup): fenced code blocks, headings, lists,
// paragraphs; inline code, bold, italics and links inside text.

export type Inline =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "strong"; children: Inline[] }
  | { kind: "em"; children: Inline[] }
  | { kind: "link"; href: string; text: string };

export type Block =
  | { kind: "code"; language: string; code: string }
  | { kind: "heading"; level: number; children: Inline[] }
  | { kind: "list"; ordered: boolean; items: Inline[][] }
  | { kind: "paragraph"; children: Inline[] };

export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n/g, "\n").split("\n");
  const blocks: Block[] = [];
  let para: string[] = [];
  const endPara = () => {
    if (para.length) blocks.push({ kind: "paragraph", children: parseInline(para.join("\n")) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^(\s*)(```+|~~~+)\s*([\w+#.-]*)/.exec(line);
    if (fence) {
      endPara();
      const code: string[] = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence[2])) code.push(lines[i++]);
      // An unclosed fence (still streaming) shows what has arrived.
      blocks.push({ kind: "code", language: fence[3], code: code.join("\n") });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      endPara();
      blocks.push({ kind: "heading", level: heading[1].length, children: parseInline(heading[2]) });
      continue;
    }
    const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      endPara();
      const ordered = /\d/.test(item[1]);
      const last = blocks[blocks.length - 1];
      if (last?.kind === "list" && last.ordered === ordered) last.items.push(parseInline(item[2]));
      else blocks.push({ kind: "list", ordered, items: [parseInline(item[2])] });
      continue;
    }
    if (!line.trim()) {
      endPara();
      continue;
    }
    para.push(line);
  }
  endPara();
  return blocks;
}

const SAFE_LINK = /^(https?:|mailto:)/i;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pattern = /`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s][^*]*?)\*|_([^_\s][^_]*?)_|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > last) out.push({ kind: "text", text: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ kind: "code", text: m[1] });
    else if (m[2] !== undefined || m[3] !== undefined) out.push({ kind: "strong", children: parseInline(m[2] ?? m[3]) });
    else if (m[4] !== undefined || m[5] !== undefined) out.push({ kind: "em", children: parseInline(m[4] ?? m[5]) });
    else if (SAFE_LINK.test(m[7])) out.push({ kind: "link", href: m[7], text: m[6] });
    else out.push({ kind: "text", text: m[0] }); // javascript: and friends stay text
    last = pattern.lastIndex;
  }
  if (last < text.length) out.push({ kind: "text", text: text.slice(last) });
  return out;
}
