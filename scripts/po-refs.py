#!/usr/bin/env python3
"""Translator references for the site's catalogs: a `#: path` line above every key of every
catalog in web/po/ for each file that uses the key, so a translator sees where a string appears.

It scans web/templates/*.html ({{_key}}), web/src/**/*.ts (every folder) and
server/site/src/*.cpp (string literals). A key is referenced by a file that names it whole; a key that no file names whole
(built at run time, e.g. "rules.intro." + number, `ev.${kind}`) by the files with a literal
prefix of it ending in "." or "-"; failing that, by the files with a literal suffix of it
starting with "." ("jequier.title" from key + ".title") or a literal ".middle." inside it
("jequier.rules.1" from key + ".rules.").

    scripts/po-refs.py           rewrite the references of every catalog
    scripts/po-refs.py --check   exit 1, naming the catalogs, when a reference is stale

The `#:` lines go directly above msgid, or above a `# identical: reason` line that belongs there.
"""
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pocat  # noqa: E402

SOURCES = ["web/templates/*.html", "web/src/**/*.ts", "server/site/src/*.cpp", "server/site/src/*.hpp"]
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`')


def fragments(path):
    """The string literal pieces of a source file (a template literal split at its ${...})."""
    with open(os.path.join(pocat.REPO, path), encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".html"):
        return set(re.findall(r"\{\{_([^}\s]+)\}\}", text)), set()
    return set(), literals(text)


def literals(text):
    """The string literals of code text; a template literal gives its pieces between ${...}
    and, from inside each ${...}, the literals there."""
    out = set()
    for m in LITERAL.finditer(text):
        if m.group(3) is None:
            out.add(m.group(1) if m.group(1) is not None else m.group(2))
            continue
        out.update(re.split(r"\$\{[^}]*\}", m.group(3)))
        for inner in re.findall(r"\$\{([^}]*)\}", m.group(3)):
            out |= literals(inner)
    return out


def references(keys):
    """key → sorted list of the source paths that use it."""
    files = sorted(p for pattern in SOURCES for p in glob.glob(pattern, root_dir=pocat.REPO, recursive=True))
    exact, prefix, suffix = {}, {}, {}
    for path in files:
        whole, pieces = fragments(path)
        for key in keys:
            if key in whole or key in pieces:
                exact.setdefault(key, set()).add(path)
                continue
            for p in pieces:
                if len(p) >= 3 and "." in p and p[-1] in ".-" and key.startswith(p):
                    prefix.setdefault(key, set()).add(path)
                elif len(p) >= 3 and p[0] == "." and (key.endswith(p) or (p[-1] == "." and p in key)):
                    suffix.setdefault(key, set()).add(path)
    return {k: sorted(exact.get(k) or prefix.get(k) or suffix.get(k) or []) for k in keys}


def rewrite(text, refs):
    """The catalog text with its `#:` lines replaced by `refs` (key → paths)."""
    lines = [l for l in text.split("\n") if not l.startswith("#:")]
    out = []
    for line in lines:
        if line.startswith("msgid ") and line != 'msgid ""':
            key = pocat.unquote(line[6:])
            # Keep `# identical:` lines right above msgid: the references go above them.
            held = []
            while out and re.match(r"#\s*identical:", out[-1]):
                held.insert(0, out.pop())
            out += [f"#: {p}" for p in refs.get(key, [])] + held
        out.append(line)
    return "\n".join(out)


def main(argv):
    check = "--check" in argv
    en = [e.key for e in pocat.read(os.path.join(pocat.PO_DIR, "en.po"))]
    refs = references(en)
    stale = []
    for path in sorted(glob.glob(os.path.join(pocat.PO_DIR, "*.po"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = rewrite(text, refs)
        if new == text:
            continue
        stale.append(os.path.relpath(path, pocat.REPO))
        if not check:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
    unused = [k for k in en if not refs[k]]
    if unused:
        print("keys no source uses (no reference): " + ", ".join(unused), file=sys.stderr)
    if check and stale:
        print("stale translator references in " + ", ".join(stale) + ": run scripts/po-refs.py", file=sys.stderr)
        return 1
    if not check:
        print(f"references written for {len(en)} keys" + (f" in {', '.join(stale)}" if stale else " (all up to date)"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
