// The lessons of each ruleset, by its key.
import { bellLessons } from "./bell";
import { jequierLessons } from "./jequier";
import { standardLessons } from "./standard";
import type { Lesson } from "./types";

/** The lessons of `ruleset` ("standard", "jequier", "bell"); an empty list for an unknown one. */
export function lessonsFor(ruleset: string): Lesson[] {
  return ({ standard: standardLessons, jequier: jequierLessons, bell: bellLessons } as Record<string, Lesson[]>)[ruleset] ?? [];
}
