// What MCP adds to the composer: resources and templates in the `@`
// picker beside the workspace's files, and above the box the prompts'
// slash commands and the form that fills in a chosen template.
import { useCallback, useMemo } from "react";
import type { Backend } from "../backend/types";
import type { ContextId } from "../generated/protocol";
import { McpPrompts } from "./McpPrompts";
import { McpTemplateForm } from "./McpTemplateForm";
import { resourceMatches } from "./mcpPicker";

/** Search for the `@` picker: MCP resources and templates first, then
 *  the workspace's files. Resources are asked for once per conversation
 *  shown. */
export function useMentionSearch(backend: Backend, id: ContextId): (query: string) => Promise<string[]> {
  const mcp = useMemo(
    () => Promise.all([backend.listMcpResources().catch(() => []), backend.listMcpTemplates().catch(() => [])]),
    [backend],
  );
  return useCallback(
    (q: string) => Promise.all([backend.listWorkspaceFiles(id, q), mcp]).then(([files, [res, tpl]]) => [...resourceMatches(res, q, tpl), ...files]),
    [backend, id, mcp],
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
