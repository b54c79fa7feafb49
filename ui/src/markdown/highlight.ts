// A small syntax highlighter for code blocks: keywords, strings, comments,
// numbers, for the languages answers use most. Tokens, not HTML, so the
// result is rendered as text nodes and can never inject markup.

export type TokenKind = "keyword" | "string" | "comment" | "number" | "plain";
export interface Token {
  kind: TokenKind;
  text: string;
}

const KEYWORDS: Record<string, string[]> = {
  rust: "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while".split(" "),
  ts: "abstract as async await break case catch class const continue default delete do else enum export extends false finally for from function if implements import in instanceof interface let new null of private protected public readonly return static super switch this throw true try type typeof undefined var void while yield".split(" "),
  python: "and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return True try while with yield".split(" "),
  go: "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false".split(" "),
  c: "auto break case char const continue default do double else enum extern float for goto if int long register return short signed sizeof static struct switch typedef union unsigned void volatile while class namespace template public private protected virtual bool true false nullptr new delete".split(" "),
  sh: "if then else elif fi for in do done while until case esac function return local export set echo exit".split(" "),
  java: "abstract boolean break byte case catch char class const continue default do double else enum extends final finally float for if implements import instanceof int interface long new null package private protected public return short static super switch this throw throws true false try void while".split(" "),
};
const ALIASES: Record<string, string> = {
  rs: "rust", typescript: "ts", tsx: "ts", js: "ts", javascript: "ts", jsx: "ts", py: "python", golang: "go",
  cpp: "c", "c++": "c", h: "c", hpp: "c", cs: "c", bash: "sh", shell: "sh", zsh: "sh", console: "sh", kotlin: "java", kt: "java",
};
const HASH_COMMENTS = new Set(["python", "sh"]);

export function languageOf(tag: string): string | null {
  const t = tag.trim().toLowerCase();
  const lang = ALIASES[t] ?? t;
  return lang in KEYWORDS || lang === "json" ? lang : null;
}

/** Splits `code` into tokens; unknown languages come back as one plain token. */
export function highlight(code: string, tag: string): Token[] {
  const lang = languageOf(tag);
  if (!lang) return [{ kind: "plain", text: code }];
  const keywords = new Set(KEYWORDS[lang] ?? ["true", "false", "null"]);
  const hash = HASH_COMMENTS.has(lang);
  const slash = !hash && lang !== "json";
  const out: Token[] = [];
  const push = (kind: TokenKind, text: string) => {
    const last = out[out.length - 1];
    if (last && last.kind === kind) last.text += text;
    else out.push({ kind, text });
  };
  let i = 0;
  while (i < code.length) {
    const c = code[i];
    const rest = code.slice(i, i + 2);
    if ((slash && rest === "//") || (hash && c === "#")) {
      const end = code.indexOf("\n", i);
      const stop = end < 0 ? code.length : end;
      push("comment", code.slice(i, stop));
      i = stop;
    } else if (slash && rest === "/*") {
      const end = code.indexOf("*/", i + 2);
      const stop = end < 0 ? code.length : end + 2;
      push("comment", code.slice(i, stop));
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      // Rust lifetimes ('a) are not strings.
      if (c === "'" && lang === "rust" && /[a-z_]/i.test(code[i + 1] ?? "") && code[i + 2] !== "'") {
        push("plain", c);
        i += 1;
        continue;
      }
      let j = i + 1;
      while (j < code.length && code[j] !== c && !(code[j] === "\n" && c !== "`")) j += code[j] === "\\" ? 2 : 1;
      const stop = Math.min(code.length, j + 1);
      push("string", code.slice(i, stop));
      i = stop;
    } else if (/[0-9]/.test(c) && !/[A-Za-z0-9_]/.test(code[i - 1] ?? "")) {
      const m = /^(0x[0-9a-f_]+|[0-9][0-9_]*(\.[0-9_]+)?(e[+-]?[0-9]+)?)/i.exec(code.slice(i))!;
      push("number", m[0]);
      i += m[0].length;
    } else if (/[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(code.slice(i))!;
      push(keywords.has(m[0]) ? "keyword" : "plain", m[0]);
      i += m[0].length;
    } else {
      push("plain", c);
      i += 1;
    }
  }
  return out;
}
