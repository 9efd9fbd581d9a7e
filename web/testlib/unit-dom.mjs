// A DOM for the unit tests of the modules that build elements (linkedom): the global `document`,
// a way to make elements and the DOM's own Event class. Imported only by the tests that need it
// (loading it takes a third of a test run).
import { parseHTML } from "linkedom";

const { document, Event: DomEvent } = parseHTML("<!doctype html><html lang=en><body></body></html>");
globalThis.document = document;

/** The DOM's own Event class (linkedom), for events dispatched on its nodes. */
export { DomEvent };

/** A new element of the shared document (linkedom). */
export const element = (tag = "div") => document.createElement(tag);

