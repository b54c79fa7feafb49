import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Backend } from "../backend/types";
import type { StoredImage } from "../generated/protocol";
import { imageFiles, pastedName, refusal, toAttachments, type Attachments, type Pending } from "./attachments";
import { Composer } from "./Composer";
import { ImageCard, readingLabel, sizeLabel, thumbSize } from "./ImageCard";
import { transcript, type ImageBody } from "./transcript";

const stored: StoredImage = { id: "a".repeat(64), media_type: "image/png", width: 1920, height: 1080, bytes: 245_760, name: "error.png" };
const body = (extra: Partial<ImageBody> = {}): ImageBody => ({
  type: "image",
  source: { kind: "stored", ...stored },
  mode: "auto",
  vision_analysis: null,
  recognized_text: null,
  ocr_confidence: null,
  language: null,
  error: null,
  ...extra,
});
const never = new Promise<never>(() => {});
const backend = { readImage: () => never } as unknown as Backend;

describe("attachments", () => {
  it("refuses what is not a supported image, empty or too large, with the file's name", () => {
    expect(refusal({ name: "a.png", type: "image/png", size: 10 })).toBeNull();
    expect(refusal({ name: "notes.pdf", type: "application/pdf", size: 10 })).toContain("notes.pdf is not a PNG, JPEG, WebP or GIF");
    expect(refusal({ name: "a.bmp", type: "image/bmp", size: 10 })).toContain("not a PNG");
    expect(refusal({ name: "a.png", type: "image/png", size: 0 })).toContain("empty");
    expect(refusal({ name: "big.jpg", type: "image/jpeg", size: 41 * 1024 * 1024 })).toContain("larger than 40 MB");
  });

  it("keeps only images from a drop or paste, and names pasted ones", () => {
    const f = (name: string, type: string) => ({ name, type }) as File;
    expect(imageFiles([f("a.png", "image/png"), f("b.txt", "text/plain"), f("c.JPG", "")]).map((x) => x.name)).toEqual(["a.png", "c.JPG"]);
    expect(imageFiles(null)).toEqual([]);
    expect(pastedName(3, "image/webp")).toBe("pasted-3.webp");
  });

  it("sends only stored images, each with its mode", () => {
    const p = (key: string, s: StoredImage | null, mode: Pending["mode"]): Pending => ({ key, name: key, preview: "", mode, stored: s, error: null });
    expect(toAttachments([p("a", stored, "ocr"), p("b", null, "auto")])).toEqual([{ source: { kind: "stored", ...stored }, mode: "ocr" }]);
  });
});

describe("image cards", () => {
  it("thumbnails keep the proportions within 320×200 and never grow", () => {
    expect(thumbSize(1920, 1080)).toEqual({ width: 320, height: 180 });
    expect(thumbSize(1080, 1920)).toEqual({ width: 113, height: 200 });
    expect(thumbSize(100, 50)).toEqual({ width: 100, height: 50 });
    expect(thumbSize(0, 0)).toEqual({ width: 320, height: 200 });
    expect(sizeLabel(245_760)).toBe("240 KB");
  });

  it("says how the image was read", () => {
    expect(readingLabel(body({ used: "ocr", recognized_text: "x", ocr_confidence: 91.4 }))).toBe("OCR · 91 % confidence");
    expect(readingLabel(body({ used: "ocr", recognized_text: "", ocr_confidence: 0 }))).toBe("OCR · no text found");
    expect(readingLabel(body({ used: "vision", vision_analysis: "a cat" }))).toBe("Seen by the model");
    expect(readingLabel(body({ error: "no vision" }))).toBe("Could not be read");
  });

  it("an OCR card shows the confidence, why OCR was used and the text, folded", () => {
    const html = renderToStaticMarkup(
      <ImageCard
        backend={backend}
        image={body({ used: "ocr", recognized_text: "Deploy failed", ocr_confidence: 88, language: "eng", fallback: "smollm2 cannot see images, so their text was read with OCR" })}
        rereading={false}
        busy={false}
        onRetry={() => {}}
        onOpen={() => {}}
      />,
    );
    expect(html).toContain("OCR · 88 % confidence");
    expect(html).toContain("smollm2 cannot see images");
    expect(html).toContain("Recognised text (eng)");
    expect(html).toContain("Deploy failed");
    expect(html).toContain("1920×1080");
    expect(html).not.toContain(">Retry<");
    expect(html).toContain(">Read again<");
    expect(html).toContain('aria-label="Read again as"');
  });

  it("a failed card shows the error and Retry", () => {
    const html = renderToStaticMarkup(
      <ImageCard backend={backend} image={body({ error: "gpt-x cannot see images." })} rereading={false} busy={false} onRetry={() => {}} onOpen={() => {}} />,
    );
    expect(html).toContain("gpt-x cannot see images.");
    expect(html).toContain(">Retry<");
    expect(html).toContain("Could not be read");
  });

  it("image messages become image items in the transcript", () => {
    const items = transcript([{ id: 7, created_at: 0, schema_version: 1, body: body() }]);
    expect(items).toEqual([{ key: "m7", kind: "image", id: 7, image: body() }]);
  });
});

describe("composer with images", () => {
  const attachments = (pending: Pending[], uploading = false): Attachments => ({
    pending,
    add: () => {},
    pasteFromSystem: () => {},
    remove: () => {},
    setMode: () => {},
    clear: () => {},
    uploading,
  });
  const ready: Pending = { key: "a1", name: "shot.png", preview: "data:image/png;base64,AA", mode: "auto", stored, error: null };

  it("shows thumbnails with a mode choice and Remove, and can send images alone", () => {
    const html = renderToStaticMarkup(<Composer busy={false} onSend={() => {}} onCancel={() => {}} attachments={attachments([ready])} />);
    expect(html).toContain('alt="shot.png"');
    expect(html).toContain('aria-label="How to read shot.png"');
    expect(html).toContain(">OCR<");
    expect(html).toContain('aria-label="Remove shot.png"');
    expect(html).toMatch(/<button type="button">Send<\/button>/);
  });

  it("waits for uploads and shows a refused file's reason", () => {
    const failed: Pending = { ...ready, key: "a2", name: "x.pdf", stored: null, error: "x.pdf is not a PNG, JPEG, WebP or GIF image" };
    const html = renderToStaticMarkup(
      <Composer busy={false} onSend={() => {}} onCancel={() => {}} attachments={attachments([{ ...ready, stored: null }, failed], true)} />,
    );
    expect(html).toContain("Checking…");
    expect(html).toContain("x.pdf is not a PNG");
    expect(html).toMatch(/<button type="button" disabled="">Send<\/button>/);
  });
});
