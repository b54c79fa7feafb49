import { useEffect, useState } from "react";
import type { Backend } from "../backend/types";
import type { ImageMode } from "../generated/protocol";
import { imageUrl } from "./imageCache";
import type { ImageBody } from "./transcript";

/** The thumbnail's box: the image's own proportions, at most 320×200. */
export function thumbSize(width: number, height: number, maxW = 320, maxH = 200): { width: number; height: number } {
  if (width <= 0 || height <= 0) return { width: maxW, height: maxH };
  const scale = Math.min(1, maxW / width, maxH / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** What the card says about how the image was read. */
export function readingLabel(image: ImageBody): string {
  if (image.error) return "Could not be read";
  if (image.used === "ocr") {
    const c = image.ocr_confidence;
    return image.recognized_text ? `OCR · ${c === null ? "?" : Math.round(c)} % confidence` : "OCR · no text found";
  }
  if (image.used === "vision") return "Seen by the model";
  return "Not read yet";
}

interface Props {
  backend: Backend;
  image: ImageBody;
  /** Reading it again is under way (state ReadingImages after Retry). */
  rereading: boolean;
  busy: boolean;
  /** Read it again, `mode` changing how from now on. */
  onRetry: (mode?: ImageMode) => void;
  onOpen: (url: string, name: string) => void;
}

export function ImageCard({ backend, image, rereading, busy, onRetry, onOpen }: Props) {
  const stored = image.source.kind === "stored" ? image.source : null;
  const [url, setUrl] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [mode, setMode] = useState<ImageMode>(image.mode);
  const storedId = stored?.id;
  useEffect(() => {
    if (!storedId) return;
    let live = true;
    imageUrl(backend, storedId).then((u) => live && setUrl(u), (e) => live && setLoadError(String(e?.message ?? e)));
    return () => {
      live = false;
    };
  }, [backend, storedId]);
  const name = stored?.name ?? (image.source.kind === "file_path" ? image.source.path : image.source.kind === "url" ? image.source.url : "image");
  const box = thumbSize(stored?.width ?? 0, stored?.height ?? 0);
  const text = image.vision_analysis ?? image.recognized_text;
  const label = readingLabel(image);
  return (
    <figure className={`image-card${image.error ? " failed" : ""}`} data-testid="image-card">
      <button
        type="button"
        className="thumb"
        style={{ width: box.width, height: box.height }}
        onClick={() => url && onOpen(url, name)}
        title="Open full size"
        disabled={!url}
      >
        {url ? <img src={url} alt={name} width={box.width} height={box.height} /> : <span className="hint">{loadError ?? "Loading…"}</span>}
      </button>
      <figcaption>
        <div className="image-title">
          <strong>{name}</strong>
          {stored ? <span className="hint"> · {stored.width}×{stored.height} · {sizeLabel(Number(stored.bytes))}</span> : null}
        </div>
        <span className={`badge ${image.error ? "warn" : image.used === "ocr" ? "ocr" : ""}`} data-testid="image-reading">
          {rereading ? "Reading again…" : label}
        </span>
        {image.fallback ? <div className="hint" data-testid="image-fallback">Read with OCR: {image.fallback}.</div> : null}
        {image.error ? (
          <div className="tool-error" role="alert">
            {image.error}
          </div>
        ) : null}
        {text !== null && text !== undefined ? (
          <details data-testid="image-text">
            <summary>{image.vision_analysis ? "What the model saw" : "Recognised text"}{image.language ? ` (${image.language})` : ""}</summary>
            {text ? <pre>{text}</pre> : <p className="hint">No text was found in this image.</p>}
          </details>
        ) : null}
        <span className="reread">
          <button type="button" className={image.error ? "retry" : "link"} onClick={() => onRetry(mode)} disabled={busy}>
            {image.error ? "Retry" : "Read again"}
          </button>
          {" as "}
          <select aria-label="Read again as" value={mode} onChange={(e) => setMode(e.target.value as ImageMode)} disabled={busy}>
            <option value="auto">Auto</option>
            <option value="vision">Vision</option>
            <option value="ocr">OCR</option>
          </select>
        </span>
      </figcaption>
    </figure>
  );
}
