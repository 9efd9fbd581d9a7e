// The event feed: the last few notable events of the game (a player joined, a swap, a capture,
// the House of Water, an extra throw, a pass, a lost turn…), newest first, so that none vanishes
// when the next status or a presence change arrives. The list is the page's log region: each
// event is announced once, when it is added; the page sends notable events only here. The join
// notice is fleeting: it goes at the first throw or move, or after a few seconds.

/** The feed in a <div role="log"> of the template, one <p> per event. */
export class Feed {
  private readonly list: HTMLElement;
  private readonly max: number;

  /** `list` is the feed's element; it keeps at most `max` events. */
  constructor(list: HTMLElement, max = 5) {
    this.list = list;
    this.max = max;
    this.list.hidden = true;
  }

  /**
   * Adds an event's words at the top; the oldest beyond `max` leave (quietly). A `fleeting` line
   * (the join notice: news only once) leaves by itself after `fleeting` ms, or sooner at `moveOn()`.
   */
  add(text: string, fleeting = 0): void {
    if (!text) return;
    // The same words again (a run of extra throws): one line with a count, so that the run does
    // not push the other events out. The line is replaced, so it is announced again.
    const newest = this.list.firstElementChild as HTMLElement | null;
    if (newest && newest.dataset.text === text) {
      const count = Number(newest.dataset.count ?? "1") + 1;
      const item = document.createElement("p");
      item.dataset.text = text;
      item.dataset.count = String(count);
      item.textContent = `${text} (×${count})`;
      item.className = "feed-new";
      newest.replaceWith(item);
      return;
    }
    const item = document.createElement("p");
    item.dataset.text = text;
    item.textContent = text;
    item.className = "feed-new";
    for (const old of this.list.querySelectorAll(".feed-new")) old.classList.remove("feed-new");
    this.list.prepend(item);
    // Stryker disable next-line OptionalChaining: the loop runs only while the list holds more than max children, so a last child exists
    while (this.list.childElementCount > this.max) this.list.lastElementChild?.remove();
    this.list.hidden = false;
    if (fleeting > 0) {
      item.dataset.fleeting = "1";
      setTimeout(() => this.drop(item), fleeting);
    }
  }

  /** The game moved on (a throw or a move): the fleeting lines leave (quietly, as the log region allows). */
  moveOn(): void {
    for (const item of this.list.querySelectorAll<HTMLElement>("[data-fleeting]")) this.drop(item);
  }

  private drop(item: HTMLElement): void {
    item.remove();
    this.list.hidden = this.list.childElementCount === 0;
  }

  /** The texts shown, newest first. */
  items(): string[] {
    // Stryker disable next-line LogicalOperator,StringLiteral: an element's textContent is never null
    return [...this.list.children].map((p) => p.textContent ?? "");
  }
}
