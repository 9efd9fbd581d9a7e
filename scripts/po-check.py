#!/usr/bin/env python3
"""Checks the site's catalogs for translators' mistakes; exit 1 with every problem listed.

For every language of web/po/languages.txt:
- its catalog web/po/CODE.po exists, says "Language: CODE" and passes `msgfmt --check`;
- it has every key of en.po and no key en.po lacks;
- a string that still equals the English one carries a comment `# identical: reason` above
  its msgid (a word that is the same in both languages, a name, a symbol).

    scripts/po-check.py            check every catalog
    scripts/po-check.py FILE.po…   check those catalogs (against web/po/en.po)
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pocat  # noqa: E402


def check(path, english):
    """The problems of one catalog, as lines "path: what"."""
    name = os.path.relpath(path, pocat.REPO)
    lang = os.path.basename(path)[:-3]
    if not os.path.exists(path):
        return [f"{name}: missing (listed in web/po/languages.txt)"]
    problems = []
    run = subprocess.run(["msgfmt", "--check", "-o", os.devnull, path], capture_output=True, text=True)
    if run.returncode != 0:
        problems.append(f"{name}: msgfmt --check fails:\n{run.stderr.strip()}")
    with open(path, encoding="utf-8") as f:
        if not re.search(r'^"Language: ' + re.escape(lang) + r'\\n"$', f.read(), re.M):
            problems.append(f'{name}: the header lacks "Language: {lang}\\n"')
    try:
        entries = pocat.read(path)
    except ValueError as err:
        return problems + [f"{name}: {err}"]
    own = {e.key: e for e in entries}
    for key in english:
        if key not in own:
            problems.append(f"{name}: lacks the key {key}")
    for e in entries:
        if e.key not in english:
            problems.append(f"{name}:{e.line}: has the key {e.key}, which en.po lacks")
        elif lang != "en" and e.text == english[e.key] and not e.identical_reason():
            problems.append(f"{name}:{e.line}: {e.key} is still the English text "
                            f"(translate it, or mark it with '# identical: reason' above msgid)")
        elif lang != "en" and e.text != english[e.key] and e.identical_reason():
            problems.append(f"{name}:{e.line}: {e.key} is marked identical but differs from English")
    return problems


def main(argv):
    english = {e.key: e.text for e in pocat.read(os.path.join(pocat.PO_DIR, "en.po"))}
    paths = argv or [os.path.join(pocat.PO_DIR, f"{lang}.po") for lang in pocat.languages()]
    problems = [p for path in paths for p in check(path, english)]
    for p in problems:
        print(p, file=sys.stderr)
    if not problems:
        print(f"{len(paths)} catalogs checked: complete, translated, msgfmt --check passes")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
