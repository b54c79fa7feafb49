// Loads that must not overtake each other. A snapshot asked for after an
// event has to be taken after that event; two loads in flight may answer
// out of order, and a flag cleared by the first answer forgets a change
// that came while it was running. So: one load at a time, and a request
// made while one runs starts exactly one more after it (later requests
// fold into that one).

export interface SerialLoader {
  request(): void;
  /** Answers still in flight are dropped (the view went away). */
  close(): void;
}

export function serialLoader<T>(load: () => Promise<T>, done: (value: T) => void, failed: (e: unknown) => void): SerialLoader {
  let running = false;
  let again = false;
  let closed = false;
  const run = () => {
    running = true;
    load()
      .then(
        (value) => closed || done(value),
        (e) => closed || failed(e),
      )
      .finally(() => {
        if (again && !closed) {
          again = false;
          run();
        } else running = false;
      });
  };
  return {
    request() {
      if (closed) return;
      if (running) again = true;
      else run();
    },
    close() {
      closed = true;
    },
  };
}
