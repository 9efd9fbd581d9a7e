// The share panel's invite link and what a spectator sees: the invite comes from this page's
// memory, storage, or the server (POST /api/games/{id}/invite with the seat secret, API.md), so
// the creator's seat shows it on any device and without storage until the friend joins; the
// number watching; a spectator's link to the rematch.
import { byId, el } from "../shared/dom";
import { t } from "../shared/i18n";
import type { Snapshot } from "../shared/protocol";
import { gameValue, setGameValue } from "../shared/storage";

let invite: string | null = null;
let asking = false;
let refused = false;
let retryAt = 0;

/** Where a path or URL points, as an absolute URL of this site. */
const absolute = (link: string) => (link.startsWith("http") ? link : location.origin + link);

/**
 * The game's language-neutral address (absolute, `/play/{id}`): the server sends each visitor
 * on to the play page in their own language (Accept-Language), and a browser keeps the link's
 * fragment across that redirect. For the links a player gives to others.
 */
export const neutralLink = (game: string) => `${location.origin}/play/${encodeURIComponent(game)}`;

/** An invite link (path or URL with `#invite=…`) made language-neutral; as given when it has no invite. */
function neutralInvite(game: string, link: string): string {
  const at = link.indexOf("#invite=");
  return at < 0 ? absolute(link) : neutralLink(game) + link.slice(at);
}

/**
 * The invite link to show for state `s` (absolute and language-neutral: the friend reads the
 * page in their own language), or null when none is due: only a seat of a
 * friend game that waits for its other player gets one. When it is not known yet, asks the
 * server once (again after a failure, at most every 5 s) and calls `changed` when it arrives.
 */
export function inviteLink(game: string, lang: string, s: Snapshot, secret: string | null, changed: () => void): string | null {
  if (s.opponent !== "friend" || s.you.length !== 1 || s.phase !== "waiting") return null;
  const known = invite ?? gameValue(game, "invite");
  if (known) return neutralInvite(game, known);
  if (!secret || asking || refused || Date.now() < retryAt) return null;
  asking = true;
  void fetch(`/api/games/${encodeURIComponent(game)}/invite`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ secret, lang }),
    cache: "no-store",
  })
    .then(async (response) => {
      if (response.ok) {
        const body = (await response.json()) as { inviteUrl?: unknown };
        if (typeof body.inviteUrl === "string" && body.inviteUrl.includes("#invite=")) {
          invite = body.inviteUrl;
          setGameValue(game, "invite", invite);
          changed();
          return;
        }
      }
      // 403/409: this seat gets no invite (it is used, the game is over, or this is not the
      // creator's seat); other answers may pass.
      if (response.status === 403 || response.status === 409) refused = true;
      else retryAt = Date.now() + 5000;
    })
    .catch(() => { retryAt = Date.now() + 5000; })
    .finally(() => { asking = false; });
  return null;
}

/** The line that says how many watch (`play.watchers`, {count}); hidden when nobody does. */
export function renderWatchers(count: number): void {
  let line = document.getElementById("watchers");
  if (!line) {
    line = el("p", { id: "watchers", class: "hint watchers" });
    byId("watch-link").closest(".share-row")?.append(line);
  }
  line.hidden = count <= 0;
  const text = count > 0 ? t("play.watchers", { count }) : "";
  if (line.textContent !== text) line.textContent = text;
}

/** A spectator's way to the rematch once it exists: a link beside the end panel's buttons. */
export function renderRematchLink(s: Snapshot, lang: string): void {
  let link = document.getElementById("rematch-watch") as HTMLAnchorElement | null;
  const due = !s.you.length && !!s.rematch && s.phase === "over";
  if (!link) {
    if (!due) return;
    link = el("a", { id: "rematch-watch", class: "button primary" }, t("play.watch-rematch"));
    byId("rematch-button").after(link);
  }
  link.hidden = !due;
  if (s.rematch) link.href = `/${lang}/play/${encodeURIComponent(s.rematch)}`;
}
