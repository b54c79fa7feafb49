import type { Backend } from "../backend/types";
import type { BranchId, ContextSnapshot } from "../generated/protocol";
import { BranchGraph } from "./BranchGraph";
import { CompareDialog } from "./CompareDialog";
import { MergeDialog } from "./MergeDialog";

interface Props {
  backend: Backend;
  snapshot: ContextSnapshot;
  busy: boolean;
  graphOpen: boolean;
  mergeFrom: BranchId | null;
  compareWith: BranchId | null;
  setCompareWith: (b: BranchId | null) => void;
  setGraphOpen: (open: boolean) => void;
  setMergeFrom: (b: BranchId | null) => void;
  onSwitch: (b: BranchId) => void;
  onFork: (message: number) => void;
  /** Brings a message of the branch in use into view in the chat. */
  onReveal: (message: number) => void;
  reload: () => void;
  onError: (text: string) => void;
}

/** The history graph beside the chat and the merge dialog over it. */
export function BranchPanels({ backend, snapshot, busy, graphOpen, mergeFrom, compareWith, setCompareWith, setGraphOpen, setMergeFrom, onSwitch, onFork, onReveal, reload, onError }: Props) {
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
          onOpen={(message, branch) => {
            // The message may be on another branch, or older than the
            // loaded tail: switch and load it all, then reveal it.
            const here = !snapshot.truncated && snapshot.messages.some((m) => m.id === message);
            if (!here) {
              const switched = branch === snapshot.active_branch ? Promise.resolve() : backend.switchBranch(id, branch);
              switched.then(reload, (e: Error) => onError(e.message));
            }
            onReveal(message);
          }}
          onMerge={setMergeFrom}
          onCompare={setCompareWith}
          onClose={() => setGraphOpen(false)}
          onError={onError}
        />
      ) : null}
      {compareWith !== null && mergeFrom === null ? (
        <CompareDialog
          key={compareWith}
          backend={backend}
          contextId={id}
          branches={snapshot.branches}
          active={snapshot.active_branch}
          messages={snapshot.messages}
          other={compareWith}
          onClose={() => setCompareWith(null)}
          onMerge={(b) => {
            setCompareWith(null);
            setMergeFrom(b);
          }}
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
