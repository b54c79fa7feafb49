import { describe, expect, it } from "vitest";
import { inOrder } from "./inOrder";

/** A call that answers when the test says so. */
function held<T>(value: T) {
  let answer!: () => void;
  let fail!: () => void;
  const started = { yes: false };
  const call = () => {
    started.yes = true;
    return new Promise<T>((ok, no) => {
      answer = () => ok(value);
      fail = () => no(new Error("refused"));
    });
  };
  return { call, started, answer: () => answer(), fail: () => fail() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe("inOrder", () => {
  it("starts a call only once the one before has answered, and keeps the order", async () => {
    const run = inOrder();
    const first = held("first");
    const second = held("second");
    const done: string[] = [];
    void run(first.call).then((v) => done.push(v));
    void run(second.call).then((v) => done.push(v));
    await tick();
    expect(first.started.yes).toBe(true);
    expect(second.started.yes).toBe(false);
    first.answer();
    await tick();
    expect(second.started.yes).toBe(true);
    second.answer();
    await tick();
    expect(done).toEqual(["first", "second"]);
  });

  it("goes on after a call that failed, and the failure reaches its caller", async () => {
    const run = inOrder();
    const first = held("first");
    const second = held("second");
    const failed = run(first.call).catch((e: Error) => e.message);
    const after = run(second.call);
    await tick();
    first.fail();
    expect(await failed).toBe("refused");
    await tick();
    expect(second.started.yes).toBe(true);
    second.answer();
    expect(await after).toBe("second");
  });
});
