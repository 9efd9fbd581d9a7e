// The replay page: a finished game of this server (/{lang}/replay/{id}: its record from the
// API, the server's analysis for the graph) or a record file the reader opens
// (/{lang}/replay: drag and drop or the file picker; the graph then comes from the engine's
// evaluation in this browser). The engine (WebAssembly) rebuilds every position from the record.
import { byId } from "../shared/dom";
import { loadStrings, t } from "../shared/i18n";
import "../shared/langmenu";
import { viewerPlayers } from "../shared/analysis";
import { myGames } from "../shared/mygames";
import type { BoardInfo } from "../shared/model";
import { browserAnalysis, checkRecord, fetchAnalysis, fetchRecord, type GameRecord, type Replay } from "./data";
import { type Engine, loadEngineOnDemand } from "../shared/engine-loader";
import { ReplayView } from "./view";

const root = byId("replay");
const game = root.dataset.game ?? "";
const lang = root.dataset.lang ?? "en";
const boards = JSON.parse(root.dataset.boards ?? "{}") as Record<string, BoardInfo>;
const message = byId("replay-message");
let shown = false;

function say(text: string, busy = false): void {
  message.textContent = text;
  root.setAttribute("aria-busy", busy ? "true" : "false");
}

/** The words of a record's result and how the game ended. */
function resultWords(record: GameRecord): string {
  const e = record.ending;
  const winner = e?.player === 1 || record.result === "win 1" ? "p1" : e?.player === 2 || record.result === "win 2" ? "p2" : record.result === "draw" || e?.reason === "draw" ? "draw" : "none";
  return t("replay.result", { winner, reason: e?.reason ?? "bear-off" });
}

/**
 * The player this browser played in the game (its note in "Your games": one seat, not both),
 * the seat's player read from the record's ending (Jéquier's opening may give seat 0 the spools).
 */
function viewerOf(record: GameRecord): number[] {
  const seats = myGames().find((g) => g.game === game)?.note?.seats ?? [];
  const e = record.ending;
  const swapped = typeof e?.winner === "number" && typeof e.player === "number" && e.player !== e.winner + 1;
  return viewerPlayers(seats, swapped ? [2, 1] : [1, 2]);
}

/** Replays `text` (a record's JSON) with the engine and shows it; the curve from `analysis` or computed here. */
async function show(record: GameRecord, text: string, engine: Engine, fromServer: boolean): Promise<void> {
  const rebuilt = engine.replay(text);
  const analysis = fromServer ? await fetchAnalysis(game, rebuilt.positions.length) : null;
  const replay: Replay = { ...(analysis ?? browserAnalysis(engine, record, rebuilt.positions)), record, positions: rebuilt.positions, source: analysis ? "server" : "browser" };
  const info = boards[record.ruleset];
  if (!info) throw new Error(`unknown ruleset ${record.ruleset}`);
  if (shown) return;
  shown = true;
  // One file a page: the link below the game opens the page again for another.
  document.getElementById("replay-open")?.setAttribute("hidden", "");
  byId("replay-body").hidden = false;
  byId("replay-result").textContent = resultWords(record);
  const name = byId("replay-ruleset");
  name.textContent = info.name ?? "";
  name.hidden = !info.name;
  if (record.game && /^[A-Za-z0-9_-]{22}$/.test(record.game)) {
    const play = byId<HTMLAnchorElement>("replay-play-link");
    play.href = `/${lang}/play/${record.game}`;
    play.hidden = !fromServer;
  }
  if (fromServer) {
    const download = byId<HTMLAnchorElement>("replay-download");
    download.href = `/api/games/${encodeURIComponent(game)}/record`;
    download.download = `senet-${game}.json`;
    download.hidden = false;
  }
  new ReplayView(root, info, replay, matchMedia("(max-width: 40rem)"), fromServer ? viewerOf(record) : []);
  say("");
}

async function fromServer(): Promise<void> {
  say(t("replay.loading"), true);
  const [fetched, engine] = await Promise.all([fetchRecord(game), loadEngineOnDemand().catch(() => null)]);
  if ("problem" in fetched) {
    say(t(`replay.problem.${fetched.problem}`));
    if (fetched.problem === "playing") {
      const watch = document.createElement("a");
      watch.href = `/${lang}/play/${game}`;
      watch.textContent = t("replay.watch");
      message.append(" ", watch);
    }
    return;
  }
  if (!engine) { say(t("replay.problem.engine")); return; }
  try {
    await show(fetched.record, fetched.text, engine, true);
  } catch (err) {
    say(t("replay.problem.bad-record", { why: err instanceof Error ? err.message : String(err) }));
  }
}

/** Opens a record file (dropped or picked). */
async function openFile(file: File): Promise<void> {
  say(t("replay.loading"), true);
  let text: string, record: GameRecord;
  try {
    if (file.size > 2_000_000) throw new Error(t("replay.too-large"));
    text = await file.text();
    record = checkRecord(JSON.parse(text));
  } catch (err) {
    say(t("replay.problem.bad-file", { why: err instanceof Error ? err.message : String(err) }));
    return;
  }
  let engine: Engine;
  try {
    engine = await loadEngineOnDemand();
  } catch {
    say(t("replay.problem.engine"));
    return;
  }
  try {
    await show(record, text, engine, false);
  } catch (err) {
    say(t("replay.problem.bad-record", { why: err instanceof Error ? err.message : String(err) }));
  }
}

function fileMode(): void {
  const input = byId<HTMLInputElement>("record-file");
  const zone = byId("drop-zone");
  input.addEventListener("change", () => { const f = input.files?.[0]; if (f) void openFile(f); });
  zone.addEventListener("dragover", (ev) => { ev.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (ev) => {
    ev.preventDefault();
    zone.classList.remove("over");
    const f = ev.dataTransfer?.files[0];
    if (f) void openFile(f);
  });
}

async function main(): Promise<void> {
  await loadStrings(root.dataset.strings ?? "");
  if (game) await fromServer();
  else fileMode();
}

void main();
