import * as Menu from "@radix-ui/react-dropdown-menu";
import { useEffect, useMemo, useState, type KeyboardEvent } from "react";
import { Tip } from "../Tip";
import { FolderIcon, ForkIcon, PinIcon } from "../icons";
import type { BranchId, ContextId, ContextSummary, SearchHit } from "../generated/protocol";
import type { Theme } from "../theme";
import { groupByDate } from "./groups";
import { SearchResults } from "./SearchResults";
import { EXPORTS, ImportButton, type ExportChoice } from "./transfer";
import { counted } from "../counted";
import { branchOrder } from "../branches/label";
import { branchLabel } from "../branches/label";
import { needsMe, type Life } from "./life";

interface Props {
  items: ContextSummary[];
  /** What each is doing now (running, waiting for you, failed, done). */
  lifeOf: (c: ContextSummary) => Life | null;
  selected: ContextId | null;
  onSelect: (id: ContextId) => void;
  onCreate: () => void;
  /** A new conversation working in `folder`; the promise fails with the reason. */
  onCreateIn: (folder: string) => Promise<unknown>;
  /** Where a new conversation works unless another folder is chosen. */
  defaultFolder: string | null;
  /** The system's folder picker (the desktop window); typed otherwise. */
  pickFolder?: (start?: string) => Promise<string | null>;
  /** The window's own open dialog for imports (a browser uses a file input). */
  pickImport?: () => Promise<{ name: string; text: string } | null>;
  onDelete: (c: ContextSummary) => void;
  onRename: (c: ContextSummary, title: string) => Promise<unknown>;
  onExport: (c: ContextSummary, choice: ExportChoice) => void;
  /** New conversations from a file (Braid, Claude Code, ChatGPT). */
  onImport: (text: string) => Promise<ContextSummary[]>;
  onSettings: () => void;
  /** The keyboard shortcuts. */
  onHelp: () => void;
  onPin: (c: ContextSummary, pinned: boolean) => void;
  /** Full-text search over every conversation's messages. */
  search: (query: string) => Promise<SearchHit[]>;
  /** Opens a conversation at the message a search found. */
  onOpenHit: (hit: SearchHit) => void;
  /** Opens a conversation on one of its branches. */
  onOpenBranch: (c: ContextSummary, branch: BranchId) => void;
  theme: Theme;
  onTheme: (theme: Theme) => void;
}

/** A search asks the backend once typing pauses, from this many characters. */
const SEARCH_FROM = 2;
const SEARCH_PAUSE_MS = 150;

/** The messages holding `query`, asked for once typing pauses; `null`
 *  while the answer is on its way. */
function useSearch(query: string, search: Props["search"]) {
  const [found, setFound] = useState<{ query: string; hits: SearchHit[] | null; error: string | null }>({ query: "", hits: [], error: null });
  const q = query.trim();
  useEffect(() => {
    if (q.length < SEARCH_FROM) return;
    let live = true;
    const t = setTimeout(() => {
      search(q).then(
        (hits) => live && setFound({ query: q, hits, error: null }),
        (e: Error) => live && setFound({ query: q, hits: [], error: e.message }),
      );
    }, SEARCH_PAUSE_MS);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [q, search]);
  if (q.length < SEARCH_FROM) return null;
  return found.query === q ? found : { query: q, hits: null, error: null };
}

function RenameField({ c, onDone, onRename }: { c: ContextSummary; onDone: () => void; onRename: Props["onRename"] }) {
  const [title, setTitle] = useState(c.title);
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    if (title.trim() === c.title) return onDone();
    onRename(c, title).then(onDone, (e: Error) => setError(e.message));
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter") commit();
    else if (e.key === "Escape") onDone();
  };
  return (
    <div className="rename">
      <input aria-label={`New title for ${c.title}`} autoFocus value={title} onChange={(e) => setTitle(e.target.value)} onKeyDown={onKey} onBlur={commit} />
      {error ? <small className="field-error" role="alert">{error}</small> : null}
    </div>
  );
}

/** A conversation's less frequent actions, in a menu (arrow keys, Esc,
 *  typeahead); not modal, so no style is injected past the CSP. */
function RowMenu({ c, onRename, onDelete, onExport }: { c: ContextSummary; onRename: () => void; onDelete: () => void; onExport: (choice: ExportChoice) => void }) {
  return (
    <Menu.Root modal={false}>
      <Tip label="Rename, export or delete">
        <Menu.Trigger className="icon row-menu" aria-label={`Actions for ${c.title}`}>⋯</Menu.Trigger>
      </Tip>
      <Menu.Portal>
        <Menu.Content className="menu" align="end" sideOffset={2} collisionPadding={8}>
          <Menu.Item className="menu-item" onSelect={onRename}>
            Rename <kbd>F2</kbd>
          </Menu.Item>
          {EXPORTS.map((e) => (
            <Menu.Item key={e.label} className="menu-item" onSelect={() => onExport(e)}>{e.label}</Menu.Item>
          ))}
          <Menu.Item className="menu-item danger" onSelect={onDelete}>Delete…</Menu.Item>
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

/** Past this many branches the list shows the first ones and a button for
 *  the rest: a conversation of 200 branches would bury the others. */
const BRANCHES_SHOWN = 8;

/** A conversation's branches, under it rather than as chats of their own;
 *  shown once it has more than main, in the branch menu's order. */
function BranchList({ c, selected, onOpen }: { c: ContextSummary; selected: boolean; onOpen: Props["onOpenBranch"] }) {
  const [all, setAll] = useState(false);
  if (c.branches.length < 2) return null;
  const ordered = branchOrder(c.branches);
  const cut = !all && ordered.length > BRANCHES_SHOWN + 1;
  const shown = cut ? ordered.filter((b, i) => i < BRANCHES_SHOWN || b.id === c.active_branch) : ordered;
  return (
    <ul className="branch-list" aria-label={`Branches of ${c.title}`}>
      {shown.map((b) => {
        const active = b.id === c.active_branch;
        return (
          <li key={b.id}>
            <button type="button" className={active ? "active" : ""} aria-current={selected && active ? "true" : undefined} onClick={() => onOpen(c, b.id)}>
              <ForkIcon /> {branchLabel(b)}
              {active ? <small> in use</small> : null}
            </button>
          </li>
        );
      })}
      {cut || all ? (
        <li>
          <button type="button" className="more" onClick={() => setAll(!all)}>
            {all ? "Fewer branches" : `${ordered.length - shown.length} more branches…`}
          </button>
        </li>
      ) : null}
    </ul>
  );
}

function FolderForm({ onCreateIn, onDone, defaultFolder }: { onCreateIn: Props["onCreateIn"]; onDone: () => void; defaultFolder: string | null }) {
  const [folder, setFolder] = useState("");
  const [error, setError] = useState<string | null>(null);
  const create = () => {
    if (!folder.trim()) return setError("Enter the folder's full path.");
    onCreateIn(folder.trim()).then(onDone, (e: Error) => setError(e.message));
  };
  return (
    <form className="folder-form" onSubmit={(e) => (e.preventDefault(), create())}>
      {defaultFolder ? <small className="hint">New conversations work in <code>{defaultFolder}</code>. Another folder:</small> : null}
      <input aria-label="Workspace folder" placeholder="/path/to/project" value={folder} autoFocus onChange={(e) => setFolder(e.target.value)} onKeyDown={(e) => e.key === "Escape" && onDone()} />
      <div className="actions">
        <button type="submit" className="primary">Create</button>
        <button type="button" onClick={onDone}>Cancel</button>
      </div>
      {error ? <small className="field-error" role="alert">{error}</small> : null}
    </form>
  );
}

/** Pinned first, then grouped by date, most recent first (the server's
 *  order); the search box filters titles at once and searches messages
 *  as typing pauses. Double-click or F2 renames. */
export function ConversationList({ items, lifeOf, selected, onSelect, onCreate, onCreateIn, defaultFolder, pickFolder, pickImport, onDelete, onRename, onExport, onImport, onSettings, onHelp, onPin, search, onOpenHit, onOpenBranch, theme, onTheme }: Props) {
  const [query, setQuery] = useState("");
  const [choosing, setChoosing] = useState(false);
  const [pickError, setPickError] = useState<string | null>(null);
  // The desktop window asks the system's picker; a browser types the path.
  const chooseFolder = () => {
    setPickError(null);
    if (!pickFolder) return setChoosing((c) => !c);
    pickFolder(defaultFolder ?? undefined).then(
      (folder) => (folder ? onCreateIn(folder) : undefined),
      (e: Error) => setPickError(String(e.message ?? e)),
    ).catch((e: Error) => setPickError(e.message));
  };
  const [renaming, setRenaming] = useState<ContextId | null>(null);
  const found = useSearch(query, search);
  // "Needs me": only the conversations waiting for the user.
  const [mine, setMine] = useState(false);
  const wanting = items.filter((c) => needsMe(lifeOf(c))).length;
  const onlyMine = mine && wanting > 0;
  const shown = items.filter((c) => c.title.toLowerCase().includes(query.trim().toLowerCase()) && (!onlyMine || needsMe(lifeOf(c))));
  // Recomputed when the list changes; "today" moves on with the next change.
  const groups = useMemo(() => groupByDate(shown, new Date()), [shown]);
  return (
    <nav className="conversations">
      <div className="new-row">
        <Tip label={`A new conversation working in ${defaultFolder ?? "the default folder"} (Ctrl+Shift+O)`}>
          <button type="button" className="primary" onClick={onCreate}>New conversation</button>
        </Tip>
        <Tip label="A new conversation working in a folder you choose">
          <button type="button" className="icon-button" aria-label="New conversation in a folder" onClick={chooseFolder}><FolderIcon /></button>
        </Tip>
      </div>
      {pickError ? <small className="field-error" role="alert">{pickError}</small> : null}
      {choosing ? <FolderForm onCreateIn={onCreateIn} onDone={() => setChoosing(false)} defaultFolder={defaultFolder} /> : null}
      <input
        type="search"
        aria-label="Search conversations"
        placeholder="Search titles and messages"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => e.key === "Escape" && setQuery("")}
      />
      {wanting > 0 || mine ? (
        <button type="button" className={`needs-me${onlyMine ? " on" : ""}`} aria-pressed={onlyMine} onClick={() => setMine(!mine)} title="Only the conversations waiting for you: an approval, a failure, an answer you have not read">
          Needs me ({wanting})
        </button>
      ) : null}
      <div className="conversation-groups">
        {groups.map((g) => (
          <section key={g.label} aria-label={g.label}>
            <h3>{g.label}</h3>
            <ul>
              {g.items.map((c) => (
                <li key={c.id} className={c.id === selected ? "selected" : ""}>
                  {renaming === c.id ? (
                    <RenameField c={c} onRename={onRename} onDone={() => setRenaming(null)} />
                  ) : (
                    <>
                      <button
                        type="button"
                        className="open"
                        aria-current={c.id === selected ? "page" : undefined}
                        onClick={() => onSelect(c.id)}
                        onDoubleClick={() => setRenaming(c.id)}
                        onKeyDown={(e) => e.key === "F2" && setRenaming(c.id)}
                      >
                        <span className="title" title={c.title}>{c.title}</span> <small>{counted(c.message_count, "message")}</small>
                        {((life) => (life ? <small className={`life life-${life.kind}`} data-testid="life" title={life.text}>{life.text}</small> : null))(lifeOf(c))}
                        <small className="folder" title={c.working_dir}>{c.working_dir.split("/").filter(Boolean).pop() ?? "/"}</small>
                      </button>
                      <button
                        type="button"
                        className={c.pinned ? "icon pin pinned" : "icon pin"}
                        aria-label={c.pinned ? `Unpin ${c.title}` : `Pin ${c.title}`}
                        aria-pressed={c.pinned}
                        title={c.pinned ? "Unpin" : "Pin to the top"}
                        onClick={() => onPin(c, !c.pinned)}
                      >
                        <PinIcon />
                      </button>
                      <RowMenu c={c} onRename={() => setRenaming(c.id)} onDelete={() => onDelete(c)} onExport={(f) => onExport(c, f)} />
                      <BranchList c={c} selected={c.id === selected} onOpen={onOpenBranch} />
                    </>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ))}
        {items.length > 0 && shown.length === 0 && !found ? <p className="hint">No title matches “{query}”.</p> : null}
        {found ? <SearchResults query={found.query} hits={found.hits} error={found.error} onOpen={onOpenHit} /> : null}
      </div>
      <div className="sidebar-foot">
        <Tip label="Providers and models (Ctrl+,)" side="top">
          <button type="button" className="settings-button" onClick={onSettings}>Settings</button>
        </Tip>
        <select aria-label="Theme" className="theme" value={theme} title="Colours: the system's, light or dark" onChange={(e) => onTheme(e.target.value as Theme)}>
          <option value="system">Auto</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </select>
        <ImportButton onImport={onImport} pick={pickImport} />
        <Tip label="Keyboard shortcuts (Ctrl+/)" side="top">
          <button type="button" className="icon-button" aria-label="Keyboard shortcuts" onClick={onHelp}>?</button>
        </Tip>
      </div>
    </nav>
  );
}
