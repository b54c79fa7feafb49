import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ContextSummary } from "../generated/protocol";
import { ConversationList } from "./ConversationList";
import { SearchResults } from "./SearchResults";
import { summaryOf } from "../testing/fixtures";
import { lifeOf, type Life } from "./life";

const conv = (id: string, title: string, pinned: boolean, extra: Partial<ContextSummary> = {}): ContextSummary =>
  summaryOf({ id, title, working_dir: "/home/u/project", created_at: Date.now(), updated_at: Date.now(), message_count: 4, pinned, ...extra });
const none = () => undefined;

function list(items: ContextSummary[], selected: string | null, life: (c: ContextSummary) => Life | null = () => null) {
  return renderToStaticMarkup(
    <ConversationList
      items={items}
      lifeOf={life}
      selected={selected}
      onSelect={none}
      onCreate={none}
      onCreateIn={() => Promise.resolve()}
      defaultFolder="/home/u"
      onDelete={none}
      onRename={() => Promise.resolve()}
      onExport={none}
      onImport={() => Promise.reject(new Error("not here"))}
      onSettings={none}
      onHelp={none}
      onPin={none}
      search={() => Promise.resolve([])}
      onOpenHit={none}
      onOpenBranch={none}
      theme="system"
      onTheme={none}
    />,
  );
}

describe("the conversation list", () => {
  it("shows pins in their own group with an Unpin button, the rest under Today", () => {
    const html = list([conv("a", "Cache choice", false), conv("b", "Release notes", true)], "a");
    expect(html.indexOf("<h3>Pinned</h3>")).toBeLessThan(html.indexOf("<h3>Today</h3>"));
    expect(html).toContain('aria-label="Unpin Release notes" aria-pressed="true"');
    expect(html).toContain('aria-label="Pin Cache choice" aria-pressed="false"');
    expect(html).toContain('aria-current="page"');
  });
  it("lists a conversation's branches under it, the one in use marked, and none for main alone", () => {
    const branches = [{ id: "main", name: "main" }, { id: "b1", name: "try redis" }];
    const html = list([conv("a", "Cache choice", false, { branches, active_branch: "b1" }), conv("b", "Release notes", false)], "a");
    expect(html).toContain('aria-label="Branches of Cache choice"');
    expect(html).not.toContain('aria-label="Branches of Release notes"');
    expect(html).toMatch(/aria-current="true">.*try redis<small> in use<\/small>/);
    expect(html.indexOf(">main<")).toBeLessThan(html.indexOf("try redis"));
  });
  it("shows a found message's line with the words marked", () => {
    const hit = { context_id: "a", title: "Cache choice", message_id: 3, branch_id: "main", at: 0, snippet: [{ text: "Redis at three ", hit: false }, { text: "milliseconds", hit: true }] };
    const html = renderToStaticMarkup(<SearchResults query="milli" hits={[hit]} error={null} onOpen={none} />);
    expect(html).toContain("In messages (1)");
    expect(html).toContain("<span>Redis at three </span><mark>milliseconds</mark>");
    expect(renderToStaticMarkup(<SearchResults query="zzz" hits={[]} error={null} onOpen={none} />)).toContain("No message contains “zzz”.");
  });
});

describe("moving conversations in and out", () => {
  it("the list offers to import a Braid file", () => {
    const html = list([conv("a", "Alpha", false)], "a");
    expect(html).toContain('aria-label="Import a conversation"');
    expect(html).toContain('accept=".json,.jsonl,application/json"');
  });
  it("shows what each conversation does and offers Needs me when one waits", () => {
    const busy = conv("a", "Busy one", false, { status: { state: "executing_tool", tool_name: "run_command", index: 0, total: 1, attempt: 1 } });
    const asks = conv("b", "Asks me", false, { status: { state: "awaiting_tool_approval", pending_requests: ["c"], tool_names: ["write_file"] } });
    const html = list([busy, asks], "a", (c) => lifeOf(c.status, false));
    expect(html).toContain("Running run_command");
    expect(html).toContain("Needs your approval: write_file");
    expect(html).toContain("Needs me (1)");
    expect(list([busy], "a", (c) => lifeOf(c.status, false))).not.toContain("Needs me");
  });
});
