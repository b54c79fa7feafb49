#!/usr/bin/env bash
# The runtime's executors (an LLM stream, a tool call, an image read, a
# summary, an agent CLI, the file watcher) carry out one effect and report
# back through `report::Reports` alone: none of them may name the actor,
# its mailbox or its inputs (issue #39: no executor imports the actor).
set -euo pipefail
cd "$(dirname "$0")/../crates/braid-runtime/src"
executors=(llm_task.rs tool_task.rs image_task.rs summary_task.rs agent_task.rs watch.rs report.rs checkpoints.rs)
bad=$(grep -nE 'crate::actor|super::actor|crate::mailbox|\bInput\b|\bMailbox\b' "${executors[@]}" || true)
if [ -n "$bad" ]; then
  echo "an executor reaches into the actor (report through report::Reports instead):" >&2
  echo "$bad" >&2
  exit 1
fi
echo "executors: ${#executors[@]} files, none imports the actor"
