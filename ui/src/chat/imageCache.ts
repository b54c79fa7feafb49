// Stored images as data: URLs, fetched once per id and shared by every card
// that shows them (the list is virtualised: cards come and go on scroll).
import type { Backend } from "../backend/types";

const cache = new Map<string, Promise<string>>();
const KEEP = 64;

export function imageUrl(backend: Backend, id: string): Promise<string> {
  let url = cache.get(id);
  if (!url) {
    url = backend.readImage(id).then((d) => `data:${d.media_type};base64,${d.data}`);
    url.catch(() => cache.delete(id));
    cache.set(id, url);
    // Oldest first out: a long session does not keep every image in memory.
    while (cache.size > KEEP) cache.delete(cache.keys().next().value!);
  }
  return url;
}

/** For the image just sent: its thumbnail is already here. */
export function remember(id: string, dataUrl: string) {
  if (dataUrl && !cache.has(id)) cache.set(id, Promise.resolve(dataUrl));
}
