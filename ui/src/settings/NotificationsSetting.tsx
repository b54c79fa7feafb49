import { useState } from "react";
import { notifyWhen, setNotifyWhen, type NotifyWhen } from "../conversations/notifications";

/** When a conversation not in front tells you: an approval it waits for
 *  and a long answer finished, only approvals, or never. */
export function NotificationsSetting() {
  const [when, setWhen] = useState<NotifyWhen>(notifyWhen);
  return (
    <fieldset className="fitting notifications">
      <legend>Notifications</legend>
      <label>
        <span>When a conversation behind needs you</span>
        <select
          aria-label="Notifications"
          value={when}
          onChange={(e) => {
            const w = e.target.value as NotifyWhen;
            setNotifyWhen(w);
            setWhen(w);
          }}
        >
          <option value="all">Approvals, and long answers done</option>
          <option value="approvals">Only approvals</option>
          <option value="off">Never</option>
        </select>
      </label>
    </fieldset>
  );
}
