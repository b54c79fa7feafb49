import type { Backend } from "../backend/types";
import type { BranchId, ContextSnapshot } from "../generated/protocol";
import { BranchGraph } from "./BranchGraph";
import { MergeDialog } from "./MergeDialog";

interface Props {
  backend: Backend;
  snapshot: ContextSnapshot;
  busy: boolean;
  graphOpen: boolean;
  mergeFrom: BranchId | null;
  setGraphOpen: (open: boolean) => void;
  setMergeFrom: (b: BranchId | null) => void;
  onSwitch: (b: BranchId) => void;
  onFork: (message: number) => void;
  reload: () => void;
  onError: (text: string) => void;
}

/** The history graph beside the chat and the merge dialog over it. */
export function BranchPanels({ backend, snapshot, busy, graphOpen, mergeFrom, setGraphOpen, setMergeFrom, onSwitch, onFork, reload, onError }: Props) {
  const id = snapshot.summary.id;
  // The graph is fetched again whenever the conversation changes.
  const version = snapshot.summary.message_count * 1000 + snapshot.branches.length;
  return (
    <>
      {graphOpen ? (
        <BranchGraph
          backend={backend}
          contextId={id}
          version={version + (snapshot.active_branch.length << 20)}
          busy={busy}
          onSwitch={onSwitch}
          onFork={onFork}
          onMerge={setMergeFrom}
          onClose={() => setGraphOpen(false)}
          onError={onError}
        />
      ) : null}
      {mergeFrom !== null ? (
        <MergeDialog
          key={mergeFrom}
          backend={backend}
          contextId={id}
          branches={snapshot.branches}
          active={snapshot.active_branch}
          source={mergeFrom}
          onClose={() => setMergeFrom(null)}
          onMerged={() => {
            setMergeFrom(null);
            reload();
          }}
        />
      ) : null}
    </>
  );
}
