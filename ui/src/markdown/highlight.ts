// Code highlighting (highlight.js's common languages, through lowlight),
// loaded the first time an answer holds a code block.
import rehypeHighlight from "rehype-highlight";

export const rehype = [rehypeHighlight, { detect: false }];
