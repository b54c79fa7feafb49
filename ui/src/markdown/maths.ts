// Maths (KaTeX, its CSS and fonts), loaded the first time an answer may
// hold some: most answers have none, and KaTeX is a third of the bundle.
import rehypeKatex from "rehype-katex";
import remarkMath from "remark-math";
import "katex/dist/katex.min.css";

export const remark = remarkMath;
export const rehype = [rehypeKatex, { throwOnError: false, strict: "ignore" }];
