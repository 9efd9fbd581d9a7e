// The start page: creates a game through the API and opens its play page with the seat, or,
// for "Anyone online", waits in the lobby (lobby.ts, loaded only then).
import { byId } from "../shared/dom";
import "../shared/langmenu";
import { setGameValue } from "../shared/storage";
import { type CreatedGame, openNewGame } from "../shared/new-game";
import { myGames } from "../shared/mygames";
import { cleanName, nameProblem, saveName, savedName } from "./guest";

const form = byId<HTMLFormElement>("start-form");
const status = byId("start-status");
const level = byId<HTMLFieldSetElement>("level-fieldset");
const side = byId<HTMLFieldSetElement>("side-fieldset");
const guest = byId<HTMLFieldSetElement>("guest-fieldset");
const guestName = byId<HTMLInputElement>("guest-name");
const lang = form.dataset.lang ?? "en";
const RULESETS = ["standard", "jequier", "bell", "kendall", "piccione", "any"];

function opponent(): string {
  return (form.elements.namedItem("opponent") as RadioNodeList).value;
}

function ruleset(): RadioNodeList {
  return form.elements.namedItem("ruleset") as RadioNodeList;
}

function syncLevel(): void {
  const anyone = opponent() === "anyone";
  level.hidden = opponent() !== "computer";
  // Lobby games draw the seats; "any ruleset" is only for them.
  side.hidden = anyone;
  guest.hidden = !anyone;
  if (!anyone && ruleset().value === "any") ruleset().value = "standard";
  // Chosen: the lobby's code, strings and socket get ready, so that the tap only sends the seek.
  if (anyone) void import("./lobby").then((m) => m.prepareLobby(form.dataset.strings ?? "")).catch(() => { /* the tap tries again */ });
}

guestName.value = savedName();
form.addEventListener("change", syncLevel);
syncLevel();

/** Waits for an opponent in `rules` ("any" too) under the typed name; the start form comes back when the wait ends. */
async function seek(rules: string): Promise<void> {
  const name = cleanName(guestName.value);
  const problem = nameProblem(name);
  const button = form.querySelector("button[type=submit]") as HTMLButtonElement;
  if (problem) {
    const words = { long: form.dataset.nameLong, chars: form.dataset.nameChars, link: form.dataset.nameLink };
    status.textContent = words[problem] ?? "";
    guestName.focus();
    return;
  }
  saveName(name);
  button.disabled = true;
  status.textContent = "";
  const { startLobby } = await import("./lobby");
  form.hidden = true;
  await startLobby({
    ruleset: rules, name, lang, strings: form.dataset.strings ?? "",
    done: (message) => { form.hidden = false; button.disabled = false; status.textContent = message; button.focus(); },
  });
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  if (opponent() === "anyone") {
    await seek(String(data.get("ruleset") ?? "standard"));
    return;
  }
  const body: Record<string, string> = {
    ruleset: String(data.get("ruleset") ?? "standard"),
    opponent: opponent(),
    side: String(data.get("side") ?? "random"),
    lang,
  };
  if (body.opponent === "computer") body.level = String(data.get("level") ?? "intermediate");
  const button = form.querySelector("button[type=submit]") as HTMLButtonElement;
  button.disabled = true;
  status.textContent = form.dataset.creating ?? "…";
  try {
    const response = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(String(response.status));
    const game = (await response.json()) as CreatedGame & { inviteUrl: string | null };
    // The invite link for the share panel; the play page also asks the server for it.
    if (game.inviteUrl) setGameValue(game.game, "invite", game.inviteUrl);
    openNewGame(game);
  } catch {
    status.textContent = form.dataset.failed ?? "Error";
    button.disabled = false;
  }
});

// "Seek again" from the play page after an aborted lobby game: #seek=RULESET seeks at once.
const again = new URLSearchParams(location.hash.slice(1)).get("seek");
if (again && RULESETS.includes(again)) {
  history.replaceState(null, "", location.pathname + location.search);
  (form.elements.namedItem("opponent") as RadioNodeList).value = "anyone";
  ruleset().value = again;
  syncLevel();
  void seek(again);
}

// "Your games": this browser's games, from its own storage; the list's code and words are
// fetched only when there is any.
if (myGames().length) void import("./your-games").then((m) => m.showMyGames());
