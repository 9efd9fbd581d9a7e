#!/usr/bin/env python3
"""The layout rules that a build cannot check (tests/layout/CMakeLists.txt checks the rest).

Usage: check_layout.py ROOT. Prints one line per breach and exits 1, or prints a summary, exits 0.
- No committed source file (C++, TypeScript, JavaScript, Python, shell) over MAX_LINES lines.
- No #include in server/src that climbs out of its folder ("../"): a part reaches another only
  through the include path its CMake target grants; and no Boost include outside net/ and app/.
- Every folder of server/src is named in server/README.md, every folder of web/src in web/README.md.
"""
import pathlib
import re
import subprocess
import sys

MAX_LINES = 600
SOURCE = re.compile(r"\.(cpp|hpp|h|ts|mjs|js|py|sh)$")


def main(root: pathlib.Path) -> int:
    files = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True, check=True).stdout.split()
    breaches = []
    checked = 0
    for name in files:
        if not SOURCE.search(name) or "/corpus/" in name or name.endswith(".min.js"):
            continue
        path = root / name
        if not path.is_file():
            continue
        checked += 1
        text = path.read_text(encoding="utf-8", errors="replace")
        lines = text.count("\n")
        if lines > MAX_LINES:
            breaches.append(f"{name}: {lines} lines (at most {MAX_LINES})")
        if name.startswith("server/src/"):
            for number, line in enumerate(text.split("\n"), 1):
                if re.match(r'\s*#\s*include\s*"\.\./', line):
                    breaches.append(f"{name}:{number}: an include climbs out of its folder: {line.strip()}")
                # Boost is a system header no include path hides: only the sockets and main use it.
                if re.match(r'\s*#\s*include\s*[<"]boost/', line) and not name.startswith(("server/src/net/", "server/src/app/")):
                    breaches.append(f"{name}:{number}: only net/ and app/ may include Boost: {line.strip()}")
    for src, readme in (("server/src", "server/README.md"), ("web/src", "web/README.md")):
        folder = root / src
        if not folder.is_dir():
            continue
        text = (root / readme).read_text(encoding="utf-8")
        for sub in sorted(p.name for p in folder.iterdir() if p.is_dir()):
            if not re.search(r"[`/]" + re.escape(sub) + r"/`", text):
                breaches.append(f"{src}/{sub}/: not named in {readme} (as `{sub}/` or `src/{sub}/`)")
    for breach in breaches:
        print(breach)
    if breaches:
        return 1
    print(f"layout: {checked} files checked, none over {MAX_LINES} lines; every folder named in its README")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: check_layout.py ROOT", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(pathlib.Path(sys.argv[1])))
