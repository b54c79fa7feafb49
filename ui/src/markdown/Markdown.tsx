import { useState } from "react";
import { highlight } from "./highlight";
import { parseBlocks, type Inline } from "./parse";

function Inlines({ items }: { items: Inline[] }) {
  return (
    <>
      {items.map((n, i) => {
        switch (n.kind) {
          case "text": return <span key={i}>{n.text}</span>;
          case "code": return <code key={i}>{n.text}</code>;
          case "strong": return <strong key={i}><Inlines items={n.children} /></strong>;
          case "em": return <em key={i}><Inlines items={n.children} /></em>;
          case "link": return <a key={i} href={n.href} target="_blank" rel="noreferrer noopener">{n.text}</a>;
        }
      })}
    </>
  );
}

function CodeBlock({ language, code }: { language: string; code: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard?.writeText(code).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    }, () => undefined);
  return (
    <figure className="code">
      <figcaption>
        <span>{language || "code"}</span>
        <button type="button" onClick={copy} aria-label="Copy code">{copied ? "Copied" : "Copy"}</button>
      </figcaption>
      <pre>
        <code className={language ? `language-${language}` : undefined}>
          {highlight(code, language).map((t, i) => (t.kind === "plain" ? t.text : <span key={i} className={`tok-${t.kind}`}>{t.text}</span>))}
        </code>
      </pre>
    </figure>
  );
}

export function Markdown({ source }: { source: string }) {
  return (
    <div className="markdown">
      {parseBlocks(source).map((b, i) => {
        switch (b.kind) {
          case "code": return <CodeBlock key={i} language={b.language} code={b.code} />;
          case "heading": {
            const H = `h${Math.min(b.level + 2, 6)}` as "h3";
            return <H key={i}><Inlines items={b.children} /></H>;
          }
          case "list": {
            const L = b.ordered ? "ol" : "ul";
            return <L key={i}>{b.items.map((item, j) => <li key={j}><Inlines items={item} /></li>)}</L>;
          }
          case "paragraph": return <p key={i}><Inlines items={b.children} /></p>;
        }
      })}
    </div>
  );
}
