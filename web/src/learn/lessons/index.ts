// The lessons of each ruleset, by its key.
import { bellLessons } from "./bell";
import { jequierLessons } from "./jequier";
import { kendallLessons } from "./kendall";
import { piccioneLessons } from "./piccione";
import { standardLessons } from "./standard";
import type { Lesson } from "./types";

/** The lessons of `ruleset` ("standard", "jequier", "bell", "kendall", "piccione"); an empty list for an unknown one. */
export function lessonsFor(ruleset: string): Lesson[] {
  return ({ standard: standardLessons, jequier: jequierLessons, bell: bellLessons, kendall: kendallLessons, piccione: piccioneLessons } as Record<string, Lesson[]>)[ruleset] ?? [];
}
