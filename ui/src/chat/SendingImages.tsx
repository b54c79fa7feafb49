// Images just sent, shown with the reading progress until they are stored.
import type { ContextStatus } from "../generated/protocol";
import type { Pending } from "./attachments";

export function SendingImages({ sending, status, onCancel }: { sending: Pending[]; status: ContextStatus; onCancel: () => void }) {
  return (
    <ul className="attachments sending" aria-label="Images being read" data-testid="reading-images">
      {sending.map((p) => (
        <li key={p.key}>
          <img src={p.preview} alt={p.name} />
          <span className="name">{p.name}</span>
          <span className="hint">{status.state === "reading_images" ? `Reading… ${status.done}/${status.total} done` : ""}</span>
          <progress max={status.state === "reading_images" ? status.total : 1} value={status.state === "reading_images" ? status.done : 0} />
        </li>
      ))}
      <li>
        <button type="button" className="cancel" onClick={onCancel}>Cancel</button>
      </li>
    </ul>
  );
}
