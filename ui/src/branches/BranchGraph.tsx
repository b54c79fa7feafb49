import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Backend } from "../backend/types";
import type { BranchId, ContextId, GraphBranch, GraphRow, GraphView } from "../generated/protocol";
import { ChangeBadge } from "../chat/ChangeBadge";
import { colour, indexRows, moveFor, step } from "./graphNav";
import { GraphBranchEdit } from "./GraphBranchEdit";
import { GraphOverview } from "./GraphOverview";
import { SideLanes } from "../subagents/SideLanes";
import { counted } from "../counted";
import { branchLabel } from "./label";

const ROW = 28;
const LANE = 14;
/** The narrowest a lane gets before lanes fold onto the column's edge. */
const MIN_LANE = 3;

/** How wide each lane is drawn, and how many fit, for `width` lanes in a
 *  panel `panelWidth` wide: the lanes take at most 45 % of it, narrowing
 *  to 3 px each, so every row keeps room for its label (50 branches fit
 *  at 4 px; lanes past what fits are drawn on the column's last). */
export function laneFit(width: number, panelWidth: number): { lane: number; shown: number; px: number } {
  const max = Math.max(120, Math.floor(panelWidth * 0.45)) - 8;
  const lane = Math.min(LANE, Math.max(MIN_LANE, Math.floor(max / Math.max(1, width))));
  const shown = Math.max(1, Math.floor(max / lane));
  return { lane, shown, px: Math.min(Math.max(1, width), shown) * lane + 8 };
}
const OVERSCAN = 8;

interface Props {
  backend: Backend;
  contextId: ContextId;
  /** Changes whenever the conversation does: the graph is fetched again. */
  version: number;
  busy: boolean;
  onSwitch: (b: BranchId) => void;
  onFork: (message: number) => void;
  /** Shows the message in the chat, on `branch` when the one in use lacks it. */
  onOpen: (message: number, branch: BranchId) => void;
  onMerge: (source: BranchId) => void;
  onCompare: (other: BranchId) => void;
  onRename: (b: BranchId, name: string) => void;
  onDelete: (b: BranchId) => void;
  onClose: () => void;
  onError: (text: string) => void;
}

/** The conversation as a git-style history graph: the rows the core laid
 *  out, drawn virtualised (only rows in view are in the DOM), with an
 *  overview of the whole history beside them. */
export function BranchGraph({ backend, contextId, version, busy, onSwitch, onFork, onOpen, onMerge, onCompare, onRename, onDelete, onClose, onError }: Props) {
  const [graph, setGraph] = useState<GraphView | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(400);
  const [panelWidth, setPanelWidth] = useState(520);
  const scroller = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    let live = true;
    backend.branchGraph(contextId).then(
      (g) => {
        if (!live) return;
        setGraph(g);
        // Opens on the branch in use's last message.
        const tip = g.branches.find((b) => b.id === g.active)?.tip;
        const i = tip === undefined || tip === null ? g.rows.length - 1 : g.rows.findIndex((r) => r.id === tip);
        setSelected((s) => s ?? Math.max(0, i));
      },
      (e: Error) => onError(e.message),
    );
    return () => {
      live = false;
    };
  }, [backend, contextId, version, onError]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      setHeight(el.clientHeight);
      setPanelWidth(el.clientWidth);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [graph]);

  const rows = useMemo(() => graph?.rows ?? [], [graph]);
  const spans = useMemo(() => graph?.spans ?? [], [graph]);
  const index = useMemo(() => indexRows(rows), [rows]);
  const byColor = useMemo(() => new Map((graph?.branches ?? []).map((b) => [b.color, b])), [graph]);
  // A branch in its own copy of the folder is marked where its tip is.
  const names = useMemo(() => new Map((graph?.branches ?? []).map((b) => [b.id, b.folder ? `${branchLabel(b)} ❐ own copy` : branchLabel(b)])), [graph]);
  const activeColor = graph?.branches.find((b) => b.id === graph.active)?.color;
  const fit = useMemo(() => laneFit(graph?.width ?? 1, panelWidth), [graph, panelWidth]);
  const lanes = fit.px;

  // The lanes of the rows in view, drawn on one canvas: a few elements in
  // the DOM however wide the graph is.
  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = lanes * dpr;
    c.height = height * dpr;
    c.style.width = `${lanes}px`;
    c.style.height = `${height}px`;
    const ctx = c.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, lanes, height);
    const first = Math.max(0, Math.floor(top / ROW) - 1);
    const last = Math.min(rows.length, Math.ceil((top + height) / ROW) + 1);
    drawLanes(ctx, rows, spans, first, last, top, activeColor, fit);
  }, [rows, spans, top, height, lanes, activeColor, fit]);

  // Esc closes the graph with the focus anywhere in it, or nowhere (after
  // the button that had it went away); a name being edited keeps its Esc.
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    const onEsc = (e: KeyboardEvent) => {
      const t = e.target as Node | null;
      if (e.key === "Escape" && (t === document.body || panel.current?.contains(t))) onClose();
    };
    window.addEventListener("keydown", onEsc);
    return () => window.removeEventListener("keydown", onEsc);
  }, [onClose]);

  const reveal = useCallback((i: number) => {
    const el = scroller.current;
    if (!el) return;
    if (i * ROW < el.scrollTop) el.scrollTop = i * ROW;
    else if ((i + 1) * ROW > el.scrollTop + el.clientHeight) el.scrollTop = (i + 1) * ROW - el.clientHeight;
  }, []);

  const open = (row: GraphRow | undefined) => {
    const branch = row ? byColor.get(row.color) : undefined;
    if (row && branch) onOpen(row.id, branch.id);
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === "Enter" && selected !== null) {
      e.preventDefault();
      open(rows[selected]);
      return;
    }
    const move = moveFor(e);
    if (!move || selected === null) return;
    e.preventDefault();
    const next = step(rows, index, selected, move);
    setSelected(next);
    reveal(next);
  };

  if (!graph) return <aside className="graph-panel" aria-label="History graph" aria-busy="true" />;
  const start = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
  const end = Math.min(rows.length, Math.ceil((top + height) / ROW) + OVERSCAN);
  const width = lanes;
  const sel = selected === null ? undefined : rows[selected];
  const selBranch = sel ? byColor.get(sel.color) : undefined;

  return (
    <aside ref={panel} className="graph-panel" aria-label="History graph">
      <header>
        <strong>History</strong>
        <small>{counted(graph.branches.length, "branch", "branches")} · {counted(rows.length, "message")}</small>
        <button type="button" className="icon" aria-label="Close the history graph" onClick={onClose}>×</button>
      </header>
      <div className="graph-body">
        <div
          ref={scroller}
          className="graph-rows"
          role="listbox"
          tabIndex={0}
          aria-label="Messages of every branch, oldest first. Arrows: along the line; Alt+arrows: between forks; Alt+Left: to the fork; Enter: open in the chat"
          aria-activedescendant={sel ? `g${sel.id}` : undefined}
          onKeyDown={onKey}
          onScroll={(e) => setTop(e.currentTarget.scrollTop)}
        >
          <div style={{ height: rows.length * ROW, position: "relative" }}>
            <canvas ref={canvas} className="graph-lanes" style={{ top }} aria-hidden="true" />
            {rows.slice(start, end).map((r, k) => (
              <Row
                key={r.id}
                row={r}
                top={(start + k) * ROW}
                indent={width}
                selected={start + k === selected}
                branch={byColor.get(r.color)}
                tipNames={r.tips.map((t) => names.get(t) ?? t)}
                onSelect={() => setSelected(start + k)}
                onOpen={() => open(r)}
              />
            ))}
          </div>
        </div>
        <GraphOverview rows={rows} width={graph.width} top={top} height={height} rowHeight={ROW} activeColor={activeColor} onJump={(y) => scroller.current?.scrollTo({ top: y })} />
      </div>
      {sel ? (
        <footer className="graph-actions" aria-label="Actions on the selected message">
          <div className="graph-preview" title={sel.preview}>
            <span className="dot" style={{ background: colour(sel.color) }} /> {selBranch ? branchLabel(selBranch) : ""} · {sel.role ?? sel.kind}: {sel.preview}
          </div>
          <div className="buttons">
            {selBranch && selBranch.id !== graph.active ? (
              <>
                <button type="button" disabled={busy} onClick={() => onSwitch(selBranch.id)}>Switch to {branchLabel(selBranch)}</button>
                <button type="button" onClick={() => onCompare(selBranch.id)}>Compare with {((t) => (t ? branchLabel(t) : "this branch"))(byColor.get(activeColor ?? -1))}</button>
                <button type="button" disabled={busy} onClick={() => onMerge(selBranch.id)}>Merge {branchLabel(selBranch)} into {((t) => (t ? branchLabel(t) : "this branch"))(byColor.get(activeColor ?? -1))}…</button>
              </>
            ) : null}
            <button type="button" onClick={() => open(sel)} title="Show this message in the chat (Enter, or double-click)">Open in chat</button>
            {sel.kind !== "system_control" ? (
              <button type="button" onClick={() => onFork(sel.id)}>Fork here</button>
            ) : null}
            {selBranch ? (
              <GraphBranchEdit
                key={selBranch.id}
                branch={selBranch}
                active={selBranch.id === graph.active}
                onRename={(name) => onRename(selBranch.id, name)}
                onDelete={() => onDelete(selBranch.id)}
              />
            ) : null}
          </div>
        </footer>
      ) : null}
    </aside>
  );
}

interface RowProps {
  row: GraphRow;
  top: number;
  indent: number;
  selected: boolean;
  branch: GraphBranch | undefined;
  tipNames: string[];
  onSelect: () => void;
  onOpen: () => void;
}

/** One row's label; its lanes are drawn on the canvas behind. */
function Row({ row, top, indent, selected, branch, tipNames, onSelect, onOpen }: RowProps) {
  const when = new Date(row.created_at).toLocaleString();
  return (
    <div
      id={`g${row.id}`}
      role="option"
      aria-selected={selected}
      className={`graph-row${selected ? " selected" : ""}`}
      style={{ top, height: ROW, paddingLeft: indent }}
      title={`${branch ? branchLabel(branch) : ""} · ${when}\n${row.preview}`}
      onClick={onSelect}
      onDoubleClick={onOpen}
    >
      {tipNames.length ? <span className="graph-tip" style={{ borderColor: colour(row.color) }}>{tipNames.join(", ")}</span> : null}
      <span className="graph-who">{row.merge ? "merge" : (row.role ?? row.kind.replace("_", " "))}</span> {row.preview}
      {row.changes ? <ChangeBadge count={row.changes} /> : null}
      {row.spawns?.length ? <SideLanes calls={row.spawns} /> : null}
    </div>
  );
}

/** Draws the lanes of rows `[start, end)` (lines passing, forking and
 *  merging, and each node) for a viewport scrolled to `top`. */
export function drawLanes(ctx: CanvasRenderingContext2D, rows: GraphRow[], spans: number[][], start: number, end: number, top: number, activeColor: number | undefined, fit = { lane: LANE, shown: Infinity }) {
  const x = (lane: number) => Math.min(lane, fit.shown - 1) * fit.lane + fit.lane / 2 + 4;
  // Dots shrink with narrow lanes so neighbours stay apart.
  const dot = Math.min(3.5, Math.max(1.5, fit.lane / 2 - 0.5));
  const big = Math.min(5, dot + 1.5);
  const diamond = Math.min(6, Math.max(2.5, fit.lane / 2 + 1));
  const mid = ROW / 2;
  ctx.lineWidth = 1.5;
  const line = (c: number, draw: () => void) => {
    ctx.strokeStyle = colour(c);
    ctx.beginPath();
    draw();
    ctx.stroke();
  };
  // Runs of lines through the rows in view (spans are sorted by lane,
  // then first row; a few per line).
  for (const [l, first, last, c] of spans) {
    if (last < start || first >= end) continue;
    const y0 = Math.max(first, start) * ROW - top;
    const y1 = (Math.min(last, end - 1) + 1) * ROW - top;
    line(c, () => { ctx.moveTo(x(l), y0); ctx.lineTo(x(l), y1); });
  }
  for (let i = start; i < end; i++) {
    const r = rows[i];
    const y = i * ROW - top;
    if (r.up) line(r.color, () => { ctx.moveTo(x(r.lane), y); ctx.lineTo(x(r.lane), y + mid); });
    if (r.down) line(r.color, () => { ctx.moveTo(x(r.lane), y + mid); ctx.lineTo(x(r.lane), y + ROW); });
    for (const [l, c] of r.forks) line(c, () => { ctx.moveTo(x(r.lane), y + mid); ctx.quadraticCurveTo(x(l), y + mid, x(l), y + ROW); });
    for (const [l, c] of r.merges) line(c, () => { ctx.moveTo(x(l), y); ctx.quadraticCurveTo(x(l), y + mid, x(r.lane), y + mid); });
    ctx.fillStyle = colour(r.color);
    ctx.beginPath();
    if (r.merge) {
      const cx = x(r.lane);
      ctx.moveTo(cx, y + mid - diamond); ctx.lineTo(cx + diamond, y + mid); ctx.lineTo(cx, y + mid + diamond); ctx.lineTo(cx - diamond, y + mid);
    } else {
      ctx.arc(x(r.lane), y + mid, r.color === activeColor ? big : dot, 0, Math.PI * 2);
    }
    ctx.fill();
  }
}
