// The lessons of each ruleset, by its key.
import { bellLessons } from "./bell";
import { jequierLessons } from "./jequier";
import { kendallLessons } from "./kendall";
import { standardLessons } from "./standard";
import type { Lesson } from "./types";

/** The lessons of `ruleset` ("standard", "jequier", "bell", "kendall"); an empty list for an unknown one. */
export function lessonsFor(ruleset: string): Lesson[] {
  return ({ standard: standardLessons, jequier: jequierLessons, bell: bellLessons, kendall: kendallLessons } as Record<string, Lesson[]>)[ruleset] ?? [];
}
