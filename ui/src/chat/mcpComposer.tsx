// What MCP adds to the composer: resources and templates in the `@`
// picker beside the workspace's files, and above the box the prompts'
// slash commands and the form that fills in a chosen template.
import { useCallback, useRef } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, McpResourceInfo, McpResourceTemplate } from "../generated/protocol";
import { McpPrompts } from "./McpPrompts";
import { McpTemplateForm } from "./McpTemplateForm";
import { resourceMatches } from "./mcpPicker";

/** The MCP lists are asked for again when older than this: a server that
 *  became ready since is offered, while typing does not ask each time. */
const MCP_LISTS_FOR_MS = 3000;

/** Search for the `@` picker: MCP resources and templates first, then
 *  the workspace's files. */
export function useMentionSearch(backend: Backend, id: ContextId): (query: string) => Promise<string[]> {
  const lists = useRef<{ at: number; both: Promise<[McpResourceInfo[], McpResourceTemplate[]]> } | null>(null);
  return useCallback(
    (q: string) => {
      if (!lists.current || Date.now() - lists.current.at > MCP_LISTS_FOR_MS) {
        const both = Promise.all([backend.listMcpResources().catch(() => []), backend.listMcpTemplates().catch(() => [])]);
        lists.current = { at: Date.now(), both };
      }
      return Promise.all([backend.listWorkspaceFiles(id, q, 8), lists.current.both]).then(([files, [res, tpl]]) => [...resourceMatches(res, q, tpl), ...files]);
    },
    [backend, id],
  );
}

/** Drawn above the composer. */
export function McpAbove({ backend, text, onFill }: { backend: Backend; text: string; onFill: (text: string) => void }) {
  return (
    <>
      <McpPrompts backend={backend} text={text} onFill={onFill} />
      <McpTemplateForm backend={backend} text={text} onFill={onFill} />
    </>
  );
}
