import { useEffect, useRef } from "react";
import type { GraphRow } from "../generated/protocol";
import { colour } from "./graphNav";

interface Props {
  rows: GraphRow[];
  width: number;
  top: number;
  height: number;
  rowHeight: number;
  activeColor: number | undefined;
  onJump: (scrollTop: number) => void;
}

const W = 48;

/** The whole history zoomed out on one canvas: a dot per message in its
 *  lane, the view's window outlined; a click scrolls there. */
export function GraphOverview({ rows, width, top, height, rowHeight, activeColor, onJump }: Props) {
  const ref = useRef<HTMLCanvasElement>(null);
  const H = Math.max(1, height);
  useEffect(() => {
    const c = ref.current;
    const ctx = c?.getContext("2d");
    if (!c || !ctx) return;
    c.width = W;
    c.height = H;
    ctx.clearRect(0, 0, W, H);
    const n = Math.max(1, rows.length);
    const lane = W / Math.max(1, width);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      ctx.fillStyle = colour(r.color);
      ctx.globalAlpha = r.color === activeColor ? 1 : 0.5;
      ctx.fillRect(r.lane * lane, (i / n) * H, Math.max(1, lane - 1), Math.max(1, H / n));
    }
    ctx.globalAlpha = 1;
    ctx.strokeStyle = "#888";
    const total = n * rowHeight;
    ctx.strokeRect(0.5, (top / total) * H, W - 1, Math.max(3, (height / total) * H));
  }, [rows, width, top, height, rowHeight, activeColor, H]);
  return (
    <canvas
      ref={ref}
      className="graph-overview"
      aria-label="Overview of the whole history; click to go there"
      onClick={(e) => {
        const box = e.currentTarget.getBoundingClientRect();
        const share = (e.clientY - box.top) / box.height;
        onJump(share * rows.length * rowHeight - height / 2);
      }}
    />
  );
}
