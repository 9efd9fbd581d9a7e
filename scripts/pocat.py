"""Reading the site's gettext catalogs (web/po/*.po) for the catalog scripts.

Only the subset the site uses: a header entry, then entries of comment lines, one msgid
line (a key) and a msgstr of one or more quoted lines, separated by blank lines.
"""
import os
import re

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
PO_DIR = os.path.join(REPO, "web", "po")

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def unquote(text):
    """The value of one quoted .po string ("..." with C escapes)."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"expected a quoted string: {text}")
    return re.sub(r'\\(.)', lambda m: _ESCAPES.get(m.group(1), m.group(1)), text[1:-1])


def languages():
    """The codes of web/po/languages.txt, the default (en) first."""
    out = []
    with open(os.path.join(PO_DIR, "languages.txt"), encoding="utf-8") as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words:
                out.append(words[0])
    return out


class Entry:
    """One catalog entry: its comment lines (as written), key, string and where its msgid is."""

    def __init__(self, comments, key, text, line):
        self.comments, self.key, self.text, self.line = comments, key, text, line

    def identical_reason(self):
        """The reason of a `# identical: reason` comment, or None."""
        for c in self.comments:
            m = re.match(r"#\s*identical:\s*(\S.*)$", c)
            if m:
                return m.group(1)
        return None


def read(path):
    """The entries of a catalog (the header entry, msgid "", left out), in file order."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    entries, comments, key, text, field, line_no = [], [], None, "", None, 0

    def flush():
        nonlocal comments, key, text, field
        if key:
            entries.append(Entry(comments, key, text, line_no))
        comments, key, text, field = [], None, "", None

    for i, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            if field == "str":
                flush()
            elif field is None:
                comments = []  # a comment block apart from any entry
            continue
        if line.startswith("#"):
            if field == "str":
                flush()
            comments.append(line)
        elif line.startswith("msgid "):
            if field == "str":
                flush()
            key, field, line_no = unquote(line[6:]), "id", i
        elif line.startswith("msgstr "):
            text, field = unquote(line[7:]), "str"
        elif line.startswith('"'):
            if field == "str":
                text += unquote(line)
            elif field == "id":
                key += unquote(line)
        else:
            raise ValueError(f"{path}:{i}: cannot read: {raw}")
    flush()
    return entries
