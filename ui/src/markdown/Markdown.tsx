import { memo, useState, type ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { heavy, need, useLoaded } from "./lazy";
import { rawHtmlAsText, textOf } from "./plugins";
import { copyText } from "../clipboard";

// GitHub-flavoured Markdown (tables, task lists, strikethrough, footnotes,
// autolinks) with inline and display maths (KaTeX) and highlighting of the
// common languages (highlight.js through lowlight). Everything becomes
// React elements: raw HTML in model output is shown as text, never
// rendered, and unsafe link schemes are dropped (react-markdown's own
// check).
// Each plugin costs a pass over the text (GFM alone doubles the parse of
// plain prose), so a block gets only those its characters could need: a
// streaming answer is parsed again every frame. Maths and highlighting
// load on first need (`lazy.ts`).
type Plugins = { remark: unknown[]; rehype: unknown[] };
const cache = new Map<number, Plugins>();

/** The plugins `source` may need: GFM for tables, task lists,
 *  strikethrough, footnotes and bare links; maths; code highlighting. */
export function pluginsFor(source: string): Plugins {
  const gfm = /[|~]|\[[ xX^]|https?:|www\.|@/.test(source);
  const maths = /\$|\\[([]/.test(source);
  const code = /```|~~~/.test(source);
  if ((maths && !heavy.maths) || (code && !heavy.highlight)) void need(maths, code);
  const m = maths ? heavy.maths : undefined;
  const h = code ? heavy.highlight : undefined;
  const key = (gfm ? 1 : 0) | (m ? 2 : 0) | (h ? 4 : 0);
  let plugins = cache.get(key);
  if (!plugins) {
    plugins = {
      remark: [...(gfm ? [remarkGfm] : []), ...(m ? [m.remark] : []), rawHtmlAsText],
      rehype: [...(m ? [m.rehype] : []), ...(h ? [h] : [])],
    };
    cache.set(key, plugins);
  }
  return plugins;
}

function CodeBlock({ language, code, children }: { language: string; code: string; children: ReactNode }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    void copyText(code).then((ok) => {
      if (!ok) return;
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    });
  return (
    <figure className="code">
      <figcaption>
        <span>{language || "code"}</span>
        <button type="button" onClick={copy} aria-label="Copy code">{copied ? "Copied" : "Copy"}</button>
      </figcaption>
      <pre>{children}</pre>
    </figure>
  );
}

const components: Components = {
  pre({ node, children }) {
    const code = node?.children.find((c) => c.type === "element" && c.tagName === "code");
    const classes = code?.type === "element" ? (code.properties.className as string[] | undefined) ?? [] : [];
    const language = classes.find((c) => c.startsWith("language-"))?.slice("language-".length) ?? "";
    return <CodeBlock language={language} code={textOf(code).replace(/\n$/, "")}>{children}</CodeBlock>;
  },
  // Links leave the app in a new window; a footnote's stays in the page.
  a({ node: _, href, children, ...rest }) {
    const away = !!href && !href.startsWith("#");
    return <a {...rest} href={href} {...(away ? { target: "_blank", rel: "noreferrer noopener" } : {})}>{children}</a>;
  },
  // Headings inside an answer stay below the app's own.
  h1: ({ children }) => <h3>{children}</h3>,
  h2: ({ children }) => <h4>{children}</h4>,
  h3: ({ children }) => <h5>{children}</h5>,
  table: ({ children }) => <div className="table-scroll"><table>{children}</table></div>,
};

const Rendered = memo(function Rendered({ source }: { source: string }) {
  useLoaded();
  const plugins = pluginsFor(source);
  return (
    <ReactMarkdown remarkPlugins={plugins.remark as never} rehypePlugins={plugins.rehype as never} components={components}>
      {source}
    </ReactMarkdown>
  );
});

/** Model output as formatted text, parsed once (memoised). */
export const Markdown = memo(function Markdown({ source }: { source: string }) {
  return (
    <div className="markdown">
      <Rendered source={source} />
    </div>
  );
});

/** An answer as it streams: split into blocks at blank lines, so only the
 *  last block, the one still growing, is parsed again each frame. (A list
 *  with blank lines between its items shows as several until the answer
 *  is stored and drawn whole.) */
export function StreamingMarkdown({ source }: { source: string }) {
  return (
    <div className="markdown">
      {blocks(source).map((b, i) => <Rendered key={i} source={b} />)}
    </div>
  );
}

/** `source` cut at blank lines outside code fences and display maths. */
export function blocks(source: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let fence: string | null = null;
  let maths = false;
  for (const line of source.split("\n")) {
    const trimmed = line.trim();
    const mark = /^(`{3,}|~{3,})/.exec(trimmed)?.[1];
    if (mark && fence === null) fence = mark;
    else if (mark && fence !== null && mark[0] === fence[0] && mark.length >= fence.length && trimmed === mark) fence = null;
    else if (fence === null && trimmed === "$$") maths = !maths;
    if (trimmed === "" && fence === null && !maths) {
      if (current.length) out.push(current.join("\n"));
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length) out.push(current.join("\n"));
  return out;
}
