import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Backend } from "../backend/types";
import { BackendError } from "../backend/types";
import type { AgentMode, ApprovalDecision, BranchId, ContextId, ContextStrategy, GenerationSettings, ImageMode, SettingsView, ToolApprovalPolicy, ToolCall } from "../generated/protocol";
import { StreamingMarkdown } from "../markdown/Markdown";
import { ApprovalPanel } from "./ApprovalPanel";
import { FilesPanel } from "./FilesPanel";
import { toAttachments, useAttachments, type Pending } from "./attachments";
import { remember } from "./imageCache";
import { ImageCard } from "./ImageCard";
import { ImageViewer } from "./ImageViewer";
import { SendingImages } from "./SendingImages";
import { ChildBanner } from "../subagents/ChildBanner";
import { SubAgents, useSubAgents } from "../subagents/SubAgents";
import { ItemView } from "./ItemView";
import type { Versions } from "./VersionSwitch";
import { useConfirm } from "../confirm";
import { counted } from "../counted";
import { BranchPanels } from "../branches/BranchPanels";
import { ChatHeader } from "./ChatHeader";
import { parseComposer } from "./command";
import { Composer } from "./Composer";
import { isBusy } from "./describe";
import { KeepMark } from "./KeepMark";
import { MessageList, type Row } from "./MessageList";
import { FileOpener } from "./FileOpener";
import { useBranchActions } from "./useBranchActions";
import { useRewind } from "./useRewind";
import { useChanges } from "./useChanges";
import { useDropImages } from "./useDropImages";
import { useChatModel } from "./useChatModel";
import { StateLine } from "./StateLine";
import { continuedAnswer, pendingCalls, transcript } from "./transcript";
import { useReveal, type OpenRequest } from "./reveal";
import { McpAbove, useMentionSearch } from "./mcpComposer";
import { useNoSandbox } from "./ToolControls";
import { inOrder } from "./inOrder";
import { WorkflowPicker } from "./WorkflowPicker";
import { Waiting } from "./Waiting";
import { EmptyChat } from "./EmptyChat";
import { MemberColours, coloursOf } from "../team/colours";
import { useWindow } from "../context/useWindow";
import { Speaker } from "../team/Speaker";
import { firstScreen } from "../firstScreen";
import { onDemand } from "../onDemand";

const ChildWatch = onDemand(() => import("../subagents/ChildWatch").then((m) => m.ChildWatch));

/** `onActivity` is told whenever the stored conversation changed (so the
 *  list can show the new count and order). */
interface Props {
  backend: Backend;
  id: ContextId;
  settings: SettingsView | null;
  onActivity?: () => void;
  /** A message to open once the conversation has loaded (a search result). */
  openMessage?: OpenRequest | null;
  /** Opens another conversation (a sub-agent's, or its parent). */
  onOpenContext?: (id: ContextId) => void;
}

export function ChatView({ backend, id, settings, onActivity, openMessage, onOpenContext }: Props) {
  const [error, setError] = useState<string | null>(null);
  const { model, reload } = useChatModel(backend, id, onActivity, setError);
  /** The last text sent, to give back if the message is refused. */
  const lastSent = useRef("");
  const [restore, setRestore] = useState<{ text: string; nonce: number } | null>(null);
  /** Every stored message, or the summarised view (the default). */
  const [full, setFull] = useState(false);
  const attachments = useAttachments(backend);
  const drop = useDropImages(attachments.add);
  const noSandbox = useNoSandbox(backend);
  /** Images just sent, shown with the reading progress until stored. */
  const [sending, setSending] = useState<Pending[]>([]);
  const [rereading, setRereading] = useState<number | null>(null);
  const [viewing, setViewing] = useState<{ url: string; name: string } | null>(null);

  // A message the pipeline refused (a bad @reference, …): its text goes
  // back into the composer so it can be fixed rather than retyped.
  useEffect(() => {
    if (model.notice?.code === "message_not_added" && lastSent.current) {
      setRestore({ text: lastSent.current, nonce: Date.now() });
      lastSent.current = "";
    }
  }, [model.notice]);
  // A file in play changed on disk: show it in the files panel.
  useEffect(() => {
    if (model.notice?.code === "file_changed") reload();
  }, [model.notice, reload]);
  // The conversation reopened at start is the first screen once drawn
  // (or once it could not be loaded: the error shows).
  const drawn = model.snapshot !== null || error !== null;
  useEffect(() => {
    if (drawn) firstScreen();
  }, [drawn]);
  // New settings may change where this conversation's requests go.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else reload();
  }, [settings, reload]);

  const busy = isBusy(model.status);
  const reading = model.status.state === "reading_images";
  useEffect(() => {
    if (!reading) {
      setSending([]);
      setRereading(null);
    }
  }, [reading]);
  const windowCommand = useRef<(t: string) => boolean>(() => false);
  const onSend = useCallback(
    (t: string) => {
      setError(null);
      if (windowCommand.current(t)) return;
      const out = parseComposer(t);
      lastSent.current = t;
      const sent = attachments.pending.filter((p) => p.stored);
      for (const p of sent) remember(p.stored!.id, p.preview);
      backend
        .sendMessage(
          id,
          { body: { type: "text", role: "user", parts: [{ kind: "text", text: out.text }] }, force_tool: out.forceTool ?? undefined, images: toAttachments(sent) },
          busy,
        )
        .then(() => {
          // Images stay in the composer until the message is accepted
          // (the answer comes once they are read and the message stored).
          attachments.clear();
        })
        .catch((e) => {
          setSending([]);
          setError(e instanceof BackendError ? `${e.code}: ${e.message}` : String(e));
          setRestore({ text: t, nonce: Date.now() });
        });
      // Shown with their reading progress while the images are read.
      if (sent.length) setSending(sent);
    },
    [backend, id, busy, attachments],
  );
  const report = useCallback((e: unknown) => setError(e instanceof BackendError ? `${e.code}: ${e.message}` : String(e)), []);
  const windowing = useWindow(backend, id, model.snapshot, model.notice, busy, reload, report);
  const { onSummarize, summaryActions } = windowing;
  windowCommand.current = windowing.onCommand;
  const onRetryImage = useCallback(
    (messageId: number, mode?: ImageMode) => {
      setRereading(messageId);
      backend.retryImage(id, messageId, mode ?? null).catch((e) => {
        setRereading(null);
        report(e);
      });
    },
    [backend, id, report],
  );
  const onCancel = useCallback(() => void backend.cancel(id).catch(report), [backend, id, report]);
  // Stop while sub-agents work: said plainly what happens to them (they
  // finish and are kept; Discard stops them now), never dropped unasked.
  const confirmStop = useConfirm();
  const working = model.status.state === "awaiting_sub_agents" ? model.status.total - model.status.done : 0;
  const onInterrupt = useCallback(() => {
    if (working === 0) return void backend.interrupt(id).catch(report);
    const one = working === 1;
    const message = `${counted(working, "sub-agent")} still ${one ? "works" : "work"}. Stop once ${one ? "it finishes" : "they finish"}, keeping ${one ? "its result" : "their results"}? (Discard stops ${one ? "it" : "them"} now.)`;
    void confirmStop({ title: "Sub-agents are working", message, confirm: "Stop after they finish" }).then((yes) => {
      if (yes) void backend.interrupt(id).catch(report);
    });
  }, [backend, id, report, working, confirmStop]);
  const onRetry = useCallback(() => void backend.retry(id).catch(report), [backend, id, report]);

  const onDecide = useCallback(
    (call: ToolCall, decision: ApprovalDecision, reason?: string) => void backend.decideToolCall(id, call.id, decision, reason ?? null).catch(report),
    [backend, id, report],
  );
  const findFiles = useMentionSearch(backend, id);
  const onContinue = useCallback(() => void backend.continueLoop(id).catch(report), [backend, id, report]);
  const onMode = useCallback((mode: AgentMode) => void backend.setMode(id, mode).then(reload, report), [backend, id, reload, report]);
  // The form is sent whole each time: two saves in flight could land in
  // the other order, and the older would undo the newer.
  const [saveInOrder] = useState(inOrder);
  const onGeneration = useCallback(
    (settings: GenerationSettings) => void saveInOrder(() => backend.setGeneration(id, settings)).then(reload, report),
    [backend, id, reload, report, saveInOrder],
  );
  const branchCount = model.snapshot?.branches.length ?? 1;
  const { onSwitchBranch, onRenameBranch, onDeleteBranch, onIsolateBranch, onRemoveBranchCopy, onFork, onEdit, onAgain, onUndoMerge } = useBranchActions(
    backend,
    id,
    branchCount,
    reload,
    report,
  );
  // An edited question or an answer written again: its versions, each a
  // branch; ‹ › switches to the branch showing the one asked for.
  const versionsOf = useMemo(() => {
    const by = new Map((model.snapshot?.versions ?? []).map((v) => [v.message, v.versions]));
    return (message: number): Versions | undefined => {
      const all = by.get(message);
      const at = all?.findIndex((v) => v.message === message) ?? -1;
      if (!all || at < 0) return undefined;
      const go = (i: number) => (busy || i < 0 || i >= all.length ? undefined : () => onSwitchBranch(all[i].branch));
      return { index: at + 1, total: all.length, onPrev: go(at - 1), onNext: go(at + 1) };
    };
  }, [model.snapshot?.versions, busy, onSwitchBranch]);
  // A reference or image: left out of the last request? kept by the user?
  const keepOf = useCallback(
    (message: number) => ({
      leftOut: model.snapshot?.context?.left_out_references.includes(message) ?? false,
      kept: model.snapshot?.kept.includes(message) ?? false,
      onKeep: busy ? undefined : (keep: boolean) => void backend.keepInContext(id, message, keep).then(reload, report),
    }),
    [model.snapshot, busy, backend, id, reload, report],
  );
  const onRelease = useCallback(
    (message: number) => void backend.releaseOutput(id, message).then(reload, report),
    [backend, id, reload, report],
  );
  const { setRewinding, onUndoRestore, dialog: rewindDialog } = useRewind(backend, id, model.snapshot?.messages ?? [], busy, reload, report, setRestore);
  const { chipAfter, dialog: changesDialog } = useChanges(backend, id, model.snapshot?.messages, busy, reload);
  const [graphOpen, setGraphOpen] = useState(false);
  // A message to bring into view (from the graph or a search).
  const reveal = useReveal(backend, id, model.snapshot, reload, setError, openMessage ?? null);
  const [mergeFrom, setMergeFrom] = useState<BranchId | null>(null);
  const [compareWith, setCompareWith] = useState<BranchId | null>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.shiftKey && e.key.toLowerCase() === "h") {
        e.preventDefault();
        setGraphOpen((o) => !o);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  const onPolicy = useCallback(
    (policy: ToolApprovalPolicy) => void backend.setToolPolicy(id, policy).then(reload, report),
    [backend, id, reload, report],
  );

  // Stored messages change only with a new snapshot; streamed drafts every
  // frame. Keeping them apart means a long conversation is not walked
  // again for each frame of a stream.
  const storedRows: Row[] = useMemo(
    () =>
      transcript(model.snapshot?.messages ?? [], full).map((item, i, all) => ({
        key: item.key,
        render: () =>
          item.kind === "image" ? (
            <div className="message user image">
              <span className="who">user</span>
              <ImageCard
                backend={backend}
                image={item.image}
                rereading={rereading === item.id && reading}
                busy={busy}
                onRetry={(mode) => onRetryImage(item.id, mode)}
                onOpen={(url, name) => setViewing({ url, name })}
              />
              <KeepMark {...keepOf(item.id)} />
            </div>
          ) : (
            <>
            <ItemView
              item={item}
              onFork={busy ? undefined : () => onFork(Number(item.key.slice(1)))}
              // Only the latest answer can go on, after a reload too.
              onContinue={!busy && i === all.length - 1 ? onContinue : undefined}
              onUndoMerge={busy ? undefined : onUndoMerge}
              onEdit={busy ? undefined : (text: string) => onEdit(Number(item.key.slice(1)), text)}
              onAgain={busy ? undefined : () => onAgain(Number(item.key.slice(1)))}
              onRewind={busy ? undefined : () => setRewinding(Number(item.key.slice(1)))}
              onUndoRestore={busy ? undefined : onUndoRestore}
              onSummarize={busy ? undefined : (from: boolean) => onSummarize(Number(item.key.slice(1)), from)}
              summaryActions={busy ? undefined : summaryActions}
              keep={item.kind === "file" ? keepOf(Number(item.key.slice(1))) : undefined}
              onRelease={busy ? undefined : onRelease}
              versions={versionsOf(Number(item.key.slice(1)))}
            />
            {chipAfter(Number(item.key.slice(1)), i + 1 < all.length ? Number(all[i + 1].key.slice(1)) : Infinity)}
            </>
          ),
      })),
    [model.snapshot, full, backend, rereading, reading, busy, onRetryImage, onFork, onContinue, onUndoMerge, onEdit, onAgain, onUndoRestore, setRewinding, keepOf, chipAfter, onSummarize, summaryActions, versionsOf, onRelease],
  );
  const running = model.route?.running;
  const colours = useMemo(() => coloursOf(model.snapshot?.team), [model.snapshot?.team]);
  const rows: Row[] = useMemo(() => {
    // A cut or stopped answer going on (by itself, or Continue): what
    // comes streams inside it, as it is stored, one answer.
    const joined = continuedAnswer(model.snapshot?.messages, model.drafts, storedRows);
    if (joined) {
      return storedRows.slice(0, -1).concat({
        key: joined.key,
        render: () => (
          <div className="message assistant streaming">
            <Speaker role="assistant" author={running} />
            <StreamingMarkdown source={joined.text} />
          </div>
        ),
      });
    }
    const drafts: Row[] = Object.entries(model.drafts).map(([mid, t]) => ({
      key: `m${mid}`,
      render: () => (
        <div className="message assistant streaming">
          <Speaker role="assistant" author={running} />
          <StreamingMarkdown source={t} />
        </div>
      ),
    }));
    return drafts.length ? storedRows.concat(drafts) : storedRows;
  }, [storedRows, model.drafts, model.snapshot, running]);
  const hasSummary = useMemo(
    () => model.snapshot?.messages.some((m) => m.body.type === "system_control" && m.body.control.kind === "summary") ?? false,
    [model.snapshot],
  );
  const onStrategy = useCallback(
    (s: ContextStrategy) => void backend.setContextStrategy(id, s).then(reload, report),
    [backend, id, reload, report],
  );
  const children = useSubAgents(backend, id, model.subAgents, model.edits, onOpenContext ?? null, report, noSandbox);
  // One child's conversation, live beside this one.
  const [watching, setWatching] = useState<{ id: ContextId; name: string } | null>(null);
  const subAgents = useMemo(() => ({ ...children.value, watch: (child: ContextId, name: string) => setWatching({ id: child, name }) }), [children.value]);
  // The dialog waits for the snapshot of this very question: what a write
  // would overwrite and why the sandbox stopped a command come with it, so
  // the dialog never opens on a default it must then correct.
  const loaded = model.snapshot?.summary.status;
  const waiting =
    model.status.state === "awaiting_tool_approval" &&
    loaded?.state === "awaiting_tool_approval" &&
    model.status.pending_requests.every((call) => loaded.pending_requests.includes(call))
      ? pendingCalls(model.snapshot?.messages ?? [], model.status.pending_requests)
      : [];

  return (
    <MemberColours.Provider value={colours}>
    <SubAgents.Provider value={subAgents}>
    <section
      className={`chat${drop.dragging ? " dragging" : ""}${watching ? " watching" : ""}`}
      {...drop.handlers}
    >
      {drop.dragging ? <div className="drop-hint" aria-hidden="true">Drop images to attach them</div> : null}
      {model.snapshot?.child ? <ChildBanner child={model.snapshot.child} onOpen={onOpenContext} /> : null}
      <ChatHeader
        backend={backend}
        noSandbox={noSandbox}
        snapshot={model.snapshot}
        settings={settings}
        busy={busy}
        onModelChanged={reload}
        onMode={onMode}
        onPolicy={onPolicy}
        onGeneration={onGeneration}
        onSwitchBranch={onSwitchBranch}
        onRenameBranch={onRenameBranch}
        onDeleteBranch={onDeleteBranch}
        onIsolateBranch={onIsolateBranch}
        onRemoveBranchCopy={onRemoveBranchCopy}
        onGraph={() => setGraphOpen((o) => !o)}
        onMerge={setMergeFrom}
        onStrategy={onStrategy}
        onContext={windowing.openPanel}
        onError={setError}
      />
      {model.snapshot?.truncated ? (
        <p className="hint">
          Showing the latest {model.snapshot.messages.length} of {model.snapshot.summary.message_count} messages.{" "}
          <button type="button" className="link" onClick={reload}>Show all</button>
        </p>
      ) : null}
      {hasSummary ? (
        <p className="hint">
          <button type="button" className="link" onClick={() => setFull((f) => !f)}>
            {full ? "Show the summarised view" : "Show the full history"}
          </button>
        </p>
      ) : null}
      {model.snapshot?.context && model.snapshot.context.left_out > 0 ? (
        <p className="hint" data-testid="left-out">
          {model.snapshot.context.left_out} earlier message{model.snapshot.context.left_out === 1 ? " was" : "s were"} left out of the last request to fit the model's window; they stay here.
        </p>
      ) : null}
      {model.snapshot && model.snapshot.messages.length === 0 && rows.length === 0 && !busy ? (
        <EmptyChat model={model.snapshot.effective_model} folder={model.snapshot.summary.working_dir} onPick={(text) => setRestore({ text, nonce: Date.now() })} />
      ) : null}
      <FileOpener backend={backend} id={id}>
        <MessageList rows={rows} reveal={reveal.row} />
      </FileOpener>
      {rewindDialog}
      {windowing.dialog}
      {changesDialog}
      {model.snapshot ? (
        <BranchPanels
          backend={backend}
          snapshot={model.snapshot}
          busy={busy}
          graphOpen={graphOpen}
          mergeFrom={mergeFrom}
          compareWith={compareWith}
          setCompareWith={setCompareWith}
          setGraphOpen={setGraphOpen}
          setMergeFrom={setMergeFrom}
          onSwitch={onSwitchBranch}
          onRename={onRenameBranch}
          onDelete={onDeleteBranch}
          onFork={onFork}
          onOpen={reveal.open}
          reload={reload}
          onError={setError}
        />
      ) : null}
      {sending.length > 0 && reading ? <SendingImages sending={sending} status={model.status} onCancel={onCancel} /> : null}
      {viewing ? <ImageViewer url={viewing.url} name={viewing.name} onClose={() => setViewing(null)} /> : null}
      <Waiting backend={backend} id={id} queue={model.queue} full={model.snapshot?.queued ?? []} route={model.route} onError={report} />
      {error ? <div className="error" role="alert">{error}</div> : null}
      <ApprovalPanel calls={waiting} tools={model.snapshot?.tools ?? null} overwrites={model.snapshot?.overwrites ?? []} previews={model.snapshot?.previews ?? []} prompted={model.snapshot?.prompted ?? []} secrets={model.snapshot?.secret_uses ?? []} changes={model.snapshot?.tool_changes ?? []} folder={model.snapshot?.summary.working_dir} blocked={model.snapshot?.blocked} noSandbox={noSandbox} onDecide={onDecide} />
      {children.approvals}
      <StateLine status={model.status} notice={model.notice} onRetry={onRetry} onContinue={onContinue} />
      <FilesPanel files={model.snapshot?.files ?? []} />
      <Composer busy={busy} onSend={onSend} onCancel={onCancel} onInterrupt={onInterrupt} phase={model.status.state === "executing_tool" ? "tool" : "answer"} findFiles={findFiles} members={model.snapshot?.team?.members.map((m) => m.name)} restore={restore} attachments={attachments}
        onWriting={() => void backend.warmUp(id).catch(() => undefined)}
        above={(text, setText) => <><McpAbove backend={backend} text={text} onFill={setText} /><WorkflowPicker backend={backend} id={id} text={text} onRan={() => setText("")} />{windowing.panel(text)}</>} />
    </section>
      {watching ? (
        <ChildWatch
          key={watching.id}
          backend={backend}
          id={watching.id}
          name={watching.name}
          onOpen={onOpenContext ? () => onOpenContext(watching.id) : undefined}
          onClose={() => setWatching(null)}
        />
      ) : null}
    </SubAgents.Provider>
    </MemberColours.Provider>
  );
}
