/** Calls made through the returned function run one after another, in
 *  the order they were made: each starts once the one before has
 *  answered or failed. For saves of a whole form: two requests in flight
 *  can reach the server in the other order (a loaded machine, another
 *  connection), and the older would undo the newer. */
export function inOrder(): <T>(call: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return <T,>(call: () => Promise<T>) => {
    const next = last.then(call);
    last = next.catch(() => undefined);
    return next;
  };
}
