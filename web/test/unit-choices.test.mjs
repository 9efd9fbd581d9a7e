// The move buttons (src/play/choices.ts) and the move kinds (src/shared/moves.ts): the kind of each legal move, its short words and whole
// sentence, and the buttons built for a list of moves, checked against words written here.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DomEvent, element } from "../testlib/unit-dom.mjs";
import { choices, moves } from "../testlib/unit-env.mjs";

const m = (x = {}) => ({ move: "9-12", from: 9, to: 12, dest: 12, ...x });

test("a move's kind: bear-off before water before swap before capture before backward", () => {
  assert.equal(moves.kindOf(m()), "");
  assert.equal(moves.kindOf(m({ backward: true })), "backward");
  assert.equal(moves.kindOf(m({ capture: true, backward: true })), "capture");
  assert.equal(moves.kindOf(m({ swap: true, capture: true })), "swap");
  assert.equal(moves.kindOf(m({ water: true, swap: true, backward: true })), "water");
  assert.equal(moves.kindOf(m({ bearOff: true, water: true })), "bearOff");
});

test("short words and whole sentences for each kind", () => {
  assert.equal(moves.kindWords(m()), "");
  assert.equal(moves.kindWords(m({ swap: true })), "Swap");
  assert.equal(moves.kindWords(m({ capture: true })), "Capture");
  assert.equal(moves.kindWords(m({ water: true, to: 28, dest: 15 })), "House of Water → 15");
  assert.equal(moves.kindWords(m({ bearOff: true })), "Bear off");
  assert.equal(moves.kindWords(m({ backward: true })), "Backward");
  assert.equal(choices.moveSentence(m()), "Move the piece on 9 to 12");
  assert.equal(choices.moveSentence(m({ swap: true })), "Move the piece on 9 to 12 and swap it with the opponent's piece there");
  assert.equal(choices.moveSentence(m({ capture: true })), "Move the piece on 9 to 12 and capture the opponent's piece there");
  assert.equal(choices.moveSentence(m({ water: true, to: 28, dest: 15 })), "Move the piece on 9 to the House of Water on 28; it ends on 15");
  assert.equal(choices.moveSentence(m({ bearOff: true, from: 27, to: 31 })), "Bear off the piece on 27");
  assert.equal(choices.moveSentence(m({ backward: true, to: 7 })), "Move the piece on 9 backward to 7");
});

test("icons: each kind has its own strokes", () => {
  const kinds = ["swap", "capture", "water", "bearOff", "backward"];
  assert.equal(moves.kindPath("capture"), "M6 6l12 12M18 6L6 18");
  assert.equal(new Set(kinds.map((k) => moves.kindPath(k))).size, 5);
  for (const k of kinds) assert.match(moves.kindPath(k), /^M[0-9 .a-zA-Z-]{10,}$/, k);
  const icon = moves.kindIcon("swap", { width: 20 });
  assert.equal(icon.getAttribute("viewBox"), "0 0 24 24");
  assert.equal(icon.getAttribute("class"), "kind-icon kind-swap");
  assert.equal(icon.getAttribute("aria-hidden"), "true");
  assert.equal(icon.getAttribute("focusable"), "false");
  assert.equal(icon.getAttribute("width"), "20");
  assert.equal(icon.firstChild.getAttribute("d"), moves.kindPath("swap"));
  assert.equal(icon.firstChild.tagName.toLowerCase(), "path");
  assert.equal(icon.tagName.toLowerCase(), "svg");
  assert.equal(moves.kindIcon("water").getAttribute("width"), null);
});

test("one button per move: squares, kind and sentence; pick and preview report the move", () => {
  const box = element("div");
  box.append(element("p"));
  const picked = [];
  const previews = [];
  const moves = [m(), m({ move: "25-28", from: 25, to: 28, dest: 15, water: true }), m({ move: "27-off", from: 27, to: 31, dest: 31, bearOff: true })];
  choices.renderChoices(box, moves, { pick: (x) => picked.push(x.move), preview: (x) => previews.push(x ? x.move : null) });
  const buttons = [...box.children];
  assert.equal(buttons.length, 3);
  assert.deepEqual(buttons.map((b) => b.tagName), ["BUTTON", "BUTTON", "BUTTON"]);
  assert.deepEqual(buttons.map((b) => b.getAttribute("type")), ["button", "button", "button"]);
  assert.deepEqual(buttons.map((b) => b.getAttribute("class")), ["button choice-button", "button choice-button kind-water", "button choice-button kind-bearOff"]);
  assert.deepEqual(buttons.map((b) => b.getAttribute("data-move")), ["9-12", "25-28", "27-off"]);
  assert.deepEqual(buttons.map((b) => b.getAttribute("data-dest")), ["12", "15", "31"]);
  assert.deepEqual(buttons.map((b) => b.getAttribute("data-kind")), [null, "water", "bearOff"]);
  assert.deepEqual(buttons.map((b) => b.textContent), [
    "9 → 12Move the piece on 9 to 12",
    "25 → 28House of Water → 15Move the piece on 25 to the House of Water on 28; it ends on 15",
    "27 → offBear offBear off the piece on 27",
  ]);
  const water = buttons[1];
  assert.deepEqual([...water.children].map((c) => c.tagName), ["SPAN", "SPAN", "SPAN"]);
  assert.deepEqual([...water.children[1].children].map((c) => c.tagName.toLowerCase()), ["svg", "span"]);
  assert.equal(water.children[1].children[1].textContent, "House of Water → 15");
  assert.deepEqual([...buttons[0].children].map((c) => c.tagName), ["SPAN", "SPAN"]);
  assert.equal(water.querySelector(".choice-squares").getAttribute("aria-hidden"), "true");
  assert.equal(water.querySelector(".choice-kind").getAttribute("aria-hidden"), "true");
  assert.equal(water.querySelector(".choice-kind svg").getAttribute("class"), "kind-icon kind-water");
  assert.equal(water.querySelector(".visually-hidden").textContent, "Move the piece on 25 to the House of Water on 28; it ends on 15");
  assert.equal(buttons[0].querySelector(".choice-kind"), null);
  for (const [b, type] of [[buttons[2], "click"], [buttons[1], "focus"], [buttons[1], "blur"], [buttons[0], "mouseenter"], [buttons[0], "mouseleave"]])
    b.dispatchEvent(new DomEvent(type));
  assert.deepEqual(picked, ["27-off"]);
  assert.deepEqual(previews, ["25-28", null, "9-12", null]);
  choices.renderChoices(box, [], { pick: () => {}, preview: () => {} });
  assert.equal(box.children.length, 0);
});
