// The start page: creates a game through the API and opens its play page with the seat.
import { byId } from "../shared/dom";
import "../shared/langmenu";
import { setGameValue, rememberSecret } from "../shared/storage";
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
    const game = (await response.json()) as { game: string; secret: string; watchUrl: string; inviteUrl: string | null; commitment?: string };
    // Storage only helps: the play page takes the seat and the commitment from the fragment
    // (a browser that blocks storage keeps both over a reload), and the invite from the server.
    rememberSecret(game.game, game.secret);
    if (game.inviteUrl) setGameValue(game.game, "invite", game.inviteUrl);
    // The play page checks the throws at the end against the commitment recorded now, before it sends its seed.
    const fragment = new URLSearchParams({ seat: game.secret });
    if (game.commitment && /^[0-9a-f]{64}$/.test(game.commitment)) {
      setGameValue(game.game, "commitment", game.commitment);
      fragment.set("commit", game.commitment);
    }
    location.assign(`${game.watchUrl}#${fragment.toString()}`);
  } catch {
    status.textContent = form.dataset.failed ?? "Error";
    button.disabled = false;
  }
});

// "Your games": this browser's games, from its own storage; the list's code and words are
// fetched only when there is any.
if (myGames().length) void import("./your-games").then((m) => m.showMyGames());
