import type { Backend } from "../backend/types";
import type { BranchId, ContextSnapshot } from "../generated/protocol";
import { useBranchCopy } from "./useBranchCopy";
import { onDemand } from "../onDemand";

const MergeDialog = onDemand(() => import("./MergeDialog").then((m) => m.MergeDialog));
const CompareDialog = onDemand(() => import("./CompareDialog").then((m) => m.CompareDialog));
const BranchGraph = onDemand(() => import("./BranchGraph").then((m) => m.BranchGraph));

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
  onRename: (b: BranchId, name: string) => void;
  onDelete: (b: BranchId) => void;
  onFork: (message: number) => void;
  /** Shows a message in the chat, on `branch` when the one in use lacks it. */
  onOpen: (message: number, branch: BranchId) => void;
  reload: () => void;
  onError: (text: string) => void;
}

/** The history graph beside the chat and the merge dialog over it. */
export function BranchPanels({ backend, snapshot, busy, graphOpen, mergeFrom, compareWith, setCompareWith, setGraphOpen, setMergeFrom, onSwitch, onRename, onDelete, onFork, onOpen, reload, onError }: Props) {
  const id = snapshot.summary.id;
  const { afterMerge } = useBranchCopy(backend, id, reload, (e) => onError(e instanceof Error ? e.message : String(e)));
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
          onOpen={onOpen}
          onMerge={setMergeFrom}
          onCompare={setCompareWith}
          onRename={onRename}
          onDelete={onDelete}
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
            // A copy Braid kept after the merge holds what it left out.
            if (snapshot.branches.find((b) => b.id === mergeFrom)?.folder) afterMerge(mergeFrom);
            else reload();
          }}
        />
      ) : null}
    </>
  );
}
