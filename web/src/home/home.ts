// The start page: creates a game through the API and opens its play page with the seat.
import { byId } from "../shared/dom";
import "../shared/langmenu";
import { setGameValue } from "../shared/storage";
import { type CreatedGame, openNewGame } from "../shared/new-game";
import { myGames } from "../shared/mygames";

const form = byId<HTMLFormElement>("start-form");
const status = byId("start-status");
const level = byId<HTMLFieldSetElement>("level-fieldset");
const lang = form.dataset.lang ?? "en";

function opponent(): string {
  return (form.elements.namedItem("opponent") as RadioNodeList).value;
}

function syncLevel(): void {
  level.hidden = opponent() !== "computer";
}

form.addEventListener("change", syncLevel);
syncLevel();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(form);
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

// "Your games": this browser's games, from its own storage; the list's code and words are
// fetched only when there is any.
if (myGames().length) void import("./your-games").then((m) => m.showMyGames());
