#!/usr/bin/env python3
"""The catalog scripts find what they must: scripts/po-check.py on small catalogs written
here, scripts/po-refs.py's rewriting of `#:` lines."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: {lang}\\n"\n\n'
EN = open(os.path.join(REPO, "web", "po", "en.po"), encoding="utf-8").read()


def load(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(REPO, "scripts", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class PoCheck(unittest.TestCase):
    def run_check(self, text):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "xx.po")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            return subprocess.run([sys.executable, os.path.join(REPO, "scripts", "po-check.py"), path],
                                  capture_output=True, text=True)

    def translated(self):
        """en.po with every string changed, as a complete translation would be."""
        out = EN.replace('"Language: en\\n"', '"Language: xx\\n"')
        return "\n".join(l.replace('msgstr "', 'msgstr "xx ', 1) if l.startswith('msgstr "') and l != 'msgstr ""' else l
                         for l in out.split("\n"))

    def test_a_complete_translation_passes(self):
        r = self.run_check(self.translated())
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_a_missing_key_fails(self):
        r = self.run_check(self.translated().replace('msgid "lang.switch"\nmsgstr "xx Language"\n', ""))
        self.assertEqual(r.returncode, 1)
        self.assertIn("lacks the key lang.switch", r.stderr)

    def test_an_unknown_key_fails(self):
        r = self.run_check(self.translated() + '\nmsgid "no.such.key"\nmsgstr "x"\n')
        self.assertEqual(r.returncode, 1)
        self.assertIn("has the key no.such.key, which en.po lacks", r.stderr)

    def test_english_text_fails_unless_marked_identical(self):
        text = self.translated().replace('msgstr "xx Language"', 'msgstr "Language"')
        r = self.run_check(text)
        self.assertEqual(r.returncode, 1)
        self.assertIn("lang.switch is still the English text", r.stderr)
        marked = text.replace('msgid "lang.switch"', '# identical: the same word\nmsgid "lang.switch"')
        self.assertEqual(self.run_check(marked).returncode, 0)

    def test_msgfmt_check_runs(self):
        r = self.run_check(self.translated().replace('msgid "lang.switch"\nmsgstr "xx Language"\n',
                                                     'msgid "lang.switch"\nmsgstr "xx Language"\n\nmsgid "lang.switch"\nmsgstr "y"\n'))
        self.assertEqual(r.returncode, 1)
        self.assertIn("msgfmt --check fails", r.stderr)


class PoRefs(unittest.TestCase):
    def test_references_replace_the_old_ones_and_stay_above_identical(self):
        refs = load("po-refs")
        text = '#: old/path.ts\n# a note\n# identical: a name\nmsgid "a.b"\nmsgstr "x"\n'
        self.assertEqual(refs.rewrite(text, {"a.b": ["web/src/one.ts", "web/templates/two.html"]}),
                         '# a note\n#: web/src/one.ts\n#: web/templates/two.html\n# identical: a name\nmsgid "a.b"\nmsgstr "x"\n')

    def test_keys_are_found_whole_by_prefix_and_by_suffix(self):
        refs = load("po-refs")
        self.assertIn("play.attention.your-turn", refs.literals('`\\u25CF ${t("play.attention.your-turn")} \\u2014`'))
        found = refs.references(["home.title", "rules.intro.1", "jequier.rules.2", "rules.rtl-board"])
        self.assertIn("web/templates/home.html", found["home.title"])
        self.assertEqual(found["rules.intro.1"], ["server/site/src/pages.cpp"])
        self.assertEqual(found["jequier.rules.2"], ["server/site/src/pages.cpp"])
        self.assertIn("web/templates/rules.html", found["rules.rtl-board"])

    def test_the_catalogs_references_are_up_to_date(self):
        r = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "po-refs.py"), "--check"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    unittest.main()
