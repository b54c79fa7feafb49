// Desktop notifications when a conversation that is not in front needs
// the user (an approval) or finished a long turn: the system's own (the
// window's notification service through the backend, the browser's
// Notification API in a browser). A click opens the conversation. The
// choice (all, only approvals, off) is this browser's or window's.
import { useCallback, useEffect, useRef } from "react";
import type { Backend } from "../backend/types";
import type { ContextId, ContextStatus, ContextSummary, ContextUpdate } from "../generated/protocol";

export type NotifyWhen = "all" | "approvals" | "off";
const KEY = "braid.notify";

export function notifyWhen(): NotifyWhen {
  const v = typeof localStorage === "undefined" ? null : localStorage.getItem(KEY);
  return v === "approvals" || v === "off" ? v : "all";
}

export function setNotifyWhen(when: NotifyWhen) {
  localStorage.setItem(KEY, when);
  if (when !== "off" && typeof Notification !== "undefined" && Notification.permission === "default") void Notification.requestPermission();
}

/** A turn shorter than this is watched to its end: no notification. */
export const LONG_TURN_MS = 10_000;

const busy = (s: ContextStatus | null | undefined) => !!s && s.state !== "idle" && s.state !== "failed";

/** What to tell the user of this change, or nothing: an approval asked
 *  for, or (with "all") a turn of `LONG_TURN_MS` or more ended, in a
 *  conversation not in front (or with the window hidden). `since`: when
 *  the conversation became busy. */
export function noticeFor(u: ContextUpdate, title: string, inFront: boolean, since: number | undefined, when: NotifyWhen): { title: string; body: string } | null {
  if (when === "off" || inFront) return null;
  const now = u.current_state;
  if (now.state === "awaiting_tool_approval" && u.previous_state?.state !== "awaiting_tool_approval") {
    return { title: `${title} needs your approval`, body: `The model wants to run ${now.tool_names.join(", ") || "a tool"}.` };
  }
  if (when === "approvals" || !busy(u.previous_state) || busy(now)) return null;
  if (since === undefined || u.timestamp - since < LONG_TURN_MS) return null;
  return now.state === "failed" ? { title: `${title} failed`, body: now.message } : { title: `${title} is done`, body: "The answer is ready." };
}

/** Watches every change of state (fed by `useLife`) and shows the
 *  notices `noticeFor` asks for; a click opens the conversation. */
export function useNotifications(backend: Backend, items: ContextSummary[], selected: ContextId | null, open: (id: ContextId) => void) {
  const since = useRef(new Map<ContextId, number>());
  const latest = useRef({ items, selected, open });
  latest.current = { items, selected, open };
  // The window's notification service answers clicks with the conversation.
  useEffect(() => backend.onOpenContext?.((id) => latest.current.open(id)), [backend]);
  return useCallback(
    (u: ContextUpdate) => {
      const { items, selected } = latest.current;
      const was = since.current.get(u.context_id);
      if (busy(u.current_state) && !busy(u.previous_state)) since.current.set(u.context_id, u.timestamp);
      if (!busy(u.current_state)) since.current.delete(u.context_id);
      const inFront = u.context_id === selected && document.visibilityState === "visible" && document.hasFocus();
      const title = items.find((c) => c.id === u.context_id)?.title ?? "A conversation";
      const notice = noticeFor(u, title, inFront, was, notifyWhen());
      if (!notice) return;
      if (backend.notify) {
        void backend.notify(notice.title, notice.body, u.context_id).catch(() => undefined);
      } else if (typeof Notification !== "undefined" && Notification.permission === "granted") {
        const n = new Notification(notice.title, { body: notice.body, tag: u.context_id });
        n.onclick = () => {
          window.focus();
          latest.current.open(u.context_id);
          n.close();
        };
      }
    },
    [backend],
  );
}
