import type { ModelChoice } from "../generated/protocol";

/** A model choice as a select option's value. Built field by field: a
 *  choice that came through the backend's JSON has its keys in another
 *  order (sorted), and a select compared that way showed no choice. */
export function choiceKey(c: ModelChoice): string {
  return JSON.stringify({ provider_id: c.provider_id, model: c.model });
}
