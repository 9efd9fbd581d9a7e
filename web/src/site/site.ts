// The script of the content and error pages (rules, variants, fairness, errors): only the
// header's language menu (langmenu.ts wires it on import).
import "../shared/langmenu";
