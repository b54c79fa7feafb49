/** A count with its noun: "1 message", "2 messages", "10,000 messages".
 *  Every count the UI shows goes through here, so none reads "1 messages". */
export const counted = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
