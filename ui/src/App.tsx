import { useCallback, useEffect, useRef, useState } from "react";
import type { Backend } from "./backend/types";
import { ChatView } from "./chat/ChatView";
import { serialLoader, type SerialLoader } from "./chat/serial";
import { ConversationList } from "./conversations/ConversationList";
import type { BranchId, ContextId, ContextSummary, SearchHit, SettingsView } from "./generated/protocol";
import { saveExport, type ExportChoice } from "./conversations/transfer";
import type { OpenRequest } from "./chat/reveal";
import { FirstRun } from "./settings/FirstRun";
import { BetterModel } from "./hub/BetterModel";
import { DownloadsNotice } from "./hub/DownloadsNotice";
import { newForm, type ProviderForm } from "./settings/form";
import { applyTheme, savedTheme, type Theme } from "./theme";
import { Tip } from "./Tip";
import { useConfirm } from "./confirm";
import { needsMe, useLife } from "./conversations/life";
import { useNotifications } from "./conversations/notifications";
import { firstScreen, startupStep } from "./firstScreen";
import { lastShown, rememberShown, takeList, takeSettings } from "./startup";
import { onDemand } from "./onDemand";

const HelpSheet = onDemand(() => import("./HelpSheet").then((m) => m.HelpSheet));
const SettingsPanel = onDemand(() => import("./settings/SettingsPanel").then((m) => m.SettingsPanel));

export function App({ backend }: { backend: Backend }) {
  const confirm = useConfirm();
  const [items, setItems] = useState<ContextSummary[]>([]);
  const [listed, setListed] = useState(false);
  // Reopen where the user was: the conversation shown last time (else,
  // once the list has come, the most recent one).
  const [selected, setSelected] = useState<ContextId | null>(lastShown);
  const restored = useRef(selected);
  useEffect(() => rememberShown(selected), [selected]);
  const [error, setError] = useState<string | null>(null);
  const [settings, setSettings] = useState<SettingsView | null>(null);
  const [help, setHelp] = useState(false);
  // What an export or import did, said once.
  const [note, setNote] = useState<string | null>(null);
  useEffect(() => {
    if (!note) return;
    const t = setTimeout(() => setNote(null), 6000);
    return () => clearTimeout(t);
  }, [note]);
  const [theme, setTheme] = useState<Theme>(savedTheme);
  // The conversation list can be folded away (Ctrl+B) for a narrow window.
  const [sidebar, setSidebar] = useState(() => localStorage.getItem("braid.sidebar") !== "hidden");
  useEffect(() => localStorage.setItem("braid.sidebar", sidebar ? "shown" : "hidden"), [sidebar]);
  useEffect(() => applyTheme(theme), [theme]);
  // A message a search found, to open once its conversation is shown.
  const [opening, setOpening] = useState<(OpenRequest & { context: ContextId }) | null>(null);
  const [panel, setPanel] = useState<{ start?: ProviderForm } | null>(null);

  // The list is asked for after every change in the open conversation; one
  // load at a time, so an older list never replaces a newer one.
  const lists = useRef<SerialLoader | null>(null);
  useEffect(() => {
    const l = serialLoader(() => takeList() ?? backend.listContexts(), (all) => {
      startupStep("listed");
      setItems(all);
      setListed(true);
      // The conversation shown last time is gone (deleted elsewhere).
      const gone = restored.current;
      restored.current = null;
      if (gone !== null && !all.some((c) => c.id === gone)) setSelected((s) => (s === gone ? (all[0]?.id ?? null) : s));
    }, (e) => setError(`Cannot reach Braid: ${e instanceof Error ? e.message : String(e)}`));
    lists.current = l;
    l.request();
    return () => l.close();
  }, [backend]);
  const refresh = useCallback(() => lists.current?.request(), []);
  // What every conversation is doing, pushed as it changes; the window's
  // title and the tray count those that need the user.
  const notice = useNotifications(backend, items, selected, setSelected);
  const lifeOf = useLife(backend, selected, refresh, notice);
  const waiting = items.filter((c) => needsMe(lifeOf(c))).length;
  useEffect(() => {
    document.title = waiting > 0 ? `(${waiting}) Braid` : "Braid";
    void backend.setWaiting?.(waiting).catch(() => undefined);
  }, [backend, waiting]);
  useEffect(
    () =>
      void (takeSettings() ?? backend.getSettings()).then((s) => {
        startupStep("settings");
        setSettings(s);
      }, (e) => setError(e.message)),
    [backend],
  );
  // A downloaded model may now be the one that answers: its label follows.
  const reloadSettings = useCallback(() => void backend.getSettings().then(setSettings, () => {}), [backend]);
  useEffect(() => {
    if (selected === null && items.length > 0) setSelected(items[0].id);
  }, [items, selected]);

  const create = useCallback(
    () =>
      backend.createContext().then((c) => {
        setSelected(c.id);
        return refresh();
      }, (e) => setError(e.message)),
    [backend, refresh],
  );
  const [defaultFolder, setDefaultFolder] = useState<string | null>(null);
  useEffect(() => void backend.defaultWorkingDir().then(setDefaultFolder, () => undefined), [backend]);
  const createIn = (folder: string) =>
    backend.createContext(undefined, folder).then((c) => {
      setSelected(c.id);
      return refresh();
    });
  const remove = async (c: ContextSummary) => {
    if (!(await confirm({ title: "Delete the conversation?", message: `Delete "${c.title}" and all its messages?`, confirm: "Delete", danger: true }))) return;
    backend.deleteContext(c.id).then(() => {
      if (selected === c.id) setSelected(null);
      return refresh();
    }, (e) => setError(e.message));
  };
  const rename = (c: ContextSummary, title: string) => backend.renameContext(c.id, title).then(refresh);
  const exportTo = (c: ContextSummary, choice: ExportChoice) =>
    void saveExport(backend, c.id, choice).then((done) => done && setNote(done), (e: Error) => setError(e.message));
  const importFile = (text: string) =>
    backend.importContext(text).then((all) => {
      if (all.length > 0) setSelected(all[0].id);
      setNote(all.length === 1 ? `Imported “${all[0].title}”` : `Imported ${all.length} conversations`);
      refresh();
      return all;
    });
  const pin = (c: ContextSummary, pinned: boolean) => void backend.pinContext(c.id, pinned).then(refresh, (e: Error) => setError(e.message));
  const search = useCallback((q: string) => backend.searchConversations(q), [backend]);
  const openHit = (hit: SearchHit) => {
    setSelected(hit.context_id);
    if (hit.message_id !== null) {
      const message = hit.message_id;
      setOpening((o) => ({ context: hit.context_id, message, branch: hit.branch_id, at: (o?.at ?? 0) + 1 }));
    }
  };
  // A branch picked in the list: the conversation opens on it.
  const openBranch = (c: ContextSummary, branch: BranchId) => {
    setSelected(c.id);
    setOpening((o) => ({ context: c.id, message: null, branch, at: (o?.at ?? 0) + 1 }));
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key === ",") {
        e.preventDefault();
        setPanel({});
      } else if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "b") {
        e.preventDefault();
        setSidebar((v) => !v);
      } else if ((e.ctrlKey || e.metaKey) && e.key === "/") {
        e.preventDefault();
        setHelp((h) => !h);
      } else if ((e.ctrlKey || e.metaKey) && e.shiftKey && e.key.toLowerCase() === "o") {
        e.preventDefault();
        void create();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [create]);

  const unconfigured = settings !== null && settings.providers.length === 0 && settings.fallback === null;
  // The first screen is the start page, or a conversation (ChatView says
  // when its own is drawn), or whatever failed instead.
  useEffect(() => {
    if (error !== null || (settings !== null && listed && (items.length === 0 || unconfigured))) firstScreen();
  }, [error, settings, listed, items.length, unconfigured]);
  return (
    <main className={sidebar ? "app" : "app no-sidebar"}>
      <Tip label={`${sidebar ? "Hide" : "Show"} the conversation list (Ctrl+B)`} side="right">
        <button
          type="button"
          className="sidebar-toggle"
          aria-label={sidebar ? "Hide the conversation list" : "Show the conversation list"}
          aria-expanded={sidebar}
          onClick={() => setSidebar((v) => !v)}
        >
          {sidebar ? "‹" : "›"}
        </button>
      </Tip>
      {sidebar ? (
      <ConversationList
        items={items}
        lifeOf={lifeOf}
        selected={selected}
        onSelect={setSelected}
        onCreate={create}
        onCreateIn={createIn}
        defaultFolder={defaultFolder}
        pickFolder={backend.pickFolder?.bind(backend)}
        pickImport={backend.openImport?.bind(backend)}
        onDelete={remove}
        onRename={rename}
        onExport={exportTo}
        onImport={importFile}
        onSettings={() => setPanel({})}
        onHelp={() => setHelp(true)}
        onPin={pin}
        search={search}
        onOpenHit={openHit}
        onOpenBranch={openBranch}
        theme={theme}
        onTheme={setTheme}
      />
      ) : null}
      {error ? <div className="error banner" role="alert">{error} <button type="button" className="link" onClick={() => setError(null)}>Dismiss</button></div> : null}
      {note ? <div className="note banner" role="status" data-testid="app-note">{note} <button type="button" className="link" onClick={() => setNote(null)}>Dismiss</button></div> : null}
      {unconfigured ? (
        <FirstRun backend={backend} onConfigured={setSettings} onAddProvider={() => setPanel({ start: newForm() })} builtIn={settings.built_in_models ? <BetterModel backend={backend} onLanded={reloadSettings} /> : null} />
      ) : selected ? (
        <ChatView key={selected} backend={backend} id={selected} settings={settings} onActivity={refresh} openMessage={opening?.context === selected ? opening : null} onOpenContext={setSelected} />
      ) : (
        <p className="empty">
          Start a new conversation (Ctrl+Shift+O) or pick one.
          {defaultFolder ? <> New conversations work in <code>{defaultFolder}</code>; the folder button chooses another.</> : null}
          {settings && settings.providers.length === 0 && settings.fallback?.startsWith("built-in ") && settings.fallback !== "built-in echo" ? (
            <span className="hint built-in">
              Answering with the {settings.fallback}: it runs on this computer, offline and with no account.
              For real work, add a provider in Settings (OpenAI, Anthropic, Gemini, or a local server such as Ollama).
            </span>
          ) : null}
          {settings?.built_in_models && settings.providers.length === 0 ? <BetterModel backend={backend} onLanded={reloadSettings} /> : null}
        </p>
      )}
      {settings?.built_in_models ? <DownloadsNotice backend={backend} onLanded={reloadSettings} /> : null}
      {help ? <HelpSheet onClose={() => setHelp(false)} /> : null}
      {panel && settings ? (
        <SettingsPanel backend={backend} settings={settings} start={panel.start} onChange={setSettings} onClose={() => setPanel(null)} />
      ) : null}
    </main>
  );
}
