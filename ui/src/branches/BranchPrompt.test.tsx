import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BranchControls } from "../chat/BranchControls";
import type { BranchSummary } from "../generated/protocol";
import { BranchPrompt } from "./BranchPrompt";

const branch = (id: string, system_prompt: string | null): BranchSummary => ({
  id,
  name: id,
  parent: null,
  fork_point: null,
  message_count: 2,
  system_prompt,
  model: null,
});
const none = () => undefined;
/** The branch panel, main in use, as it renders. */
const panel = (branches: BranchSummary[]) =>
  renderToStaticMarkup(
    <BranchControls
      branches={branches}
      active="main"
      busy={false}
      onSwitch={none}
      onRename={none}
      onPrompt={none}
      onDelete={none}
      onIsolate={none}
      onRemoveCopy={none}
      onGraph={none}
      onMerge={none}
    />,
  );

describe("a branch's own system prompt", () => {
  it("is marked in the branch panel, with what it says in the title", () => {
    const html = panel([branch("main", null), branch("terse", "Answer in one line.")]);
    expect(html).toContain('class="icon set" aria-label="System prompt of terse"');
    expect(html).toContain("terse has its own system prompt: Answer in one line.");
    expect(html).toContain('class="icon" aria-label="System prompt of main"');
  });
  it("marks a fork in its own copy of the folder, and offers one to a fork only", () => {
    const html = panel([branch("main", null), { ...branch("idea", null), folder: "/copies/idea" }, branch("plain", null)]);
    expect(html).toContain('title="idea works in its own copy of the folder: /copies/idea">own copy</span>');
    expect(html).toContain('aria-label="Remove idea&#x27;s own copy"');
    expect(html).toContain('aria-label="Give plain its own copy of the folder"');
    expect(html).not.toContain("Give main its own copy");
  });
  it("opens with the prompt it has, and offers to clear it only when set", () => {
    const set = renderToStaticMarkup(<BranchPrompt branch={branch("terse", "Answer in one line.")} onSave={none} onClose={none} />);
    expect(set).toContain(">Answer in one line.</textarea>");
    expect(set).toContain(">Clear</button>");
    const unset = renderToStaticMarkup(<BranchPrompt branch={branch("main", null)} onSave={none} onClose={none} />);
    expect(unset).not.toContain(">Clear</button>");
    expect(unset).toContain("Empty: the conversation&#x27;s system prompt");
  });
});
