// src/play/moved.ts: a close with 4001 "moved" reconnects at once, once in a while; other closes never.
import { test } from "node:test";
import assert from "node:assert/strict";
import { moved } from "../.units/units.mjs";

test("only the moved close code reconnects at once, and not twice within five seconds", () => {
  assert.equal(moved.MOVED_CLOSE_CODE, 4001);
  assert.equal(moved.reconnectAtOnce({ code: 1006 }, 1_000_000), false);
  assert.equal(moved.reconnectAtOnce({ code: 1001 }, 1_000_000), false);
  assert.equal(moved.reconnectAtOnce({ code: 4001 }, 1_000_000), true);
  assert.equal(moved.reconnectAtOnce({ code: 4001 }, 1_004_999), false, "a second move right after: back off");
  assert.equal(moved.reconnectAtOnce({ code: 4001 }, 1_010_000), true, "quiet for five seconds again");
});
