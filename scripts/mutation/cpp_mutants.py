"""The C++ mutant generator of scripts/mutation.sh: a tokenizer that leaves out comments,
literals and preprocessor lines, and the operators (rel, arith, const, logic, neg, stmt, bool)
described in mutate_cpp.py and README.md. Standard library only.

find_mutants(path, source) returns every mutant of a file with its stable id; apply(source,
mutant) returns the mutated text."""
from __future__ import annotations

import re
from dataclasses import dataclass

# ---------------------------------------------------------------------------------------------
# Tokens


@dataclass
class Tok:
    kind: str  # id num str chr op
    text: str
    start: int
    end: int
    line: int
    space_before: bool
    space_after: bool = False


OPS = sorted("""
>>= <<= <=> ... ->* -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= :: .*
+ - * / % < > = ! ~ & | ^ ? : ; , . ( ) [ ] { }
""".split(), key=len, reverse=True)

KEYWORDS = {
    "alignas", "alignof", "auto", "bool", "break", "case", "catch", "char", "class", "const",
    "constexpr", "consteval", "constinit", "continue", "co_await", "co_return", "co_yield",
    "decltype", "default", "delete", "do", "double", "else", "enum", "explicit", "extern", "false",
    "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
    "noexcept", "nullptr", "operator", "private", "protected", "public", "return", "short",
    "signed", "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template",
    "this", "throw", "true", "try", "typedef", "typename", "union", "unsigned", "using", "virtual",
    "void", "volatile", "while", "dynamic_cast", "reinterpret_cast", "const_cast", "requires",
    "concept",
}

NUM_RE = re.compile(r"\.?\d(?:'?[0-9A-Za-z_.]|[eEpP][+-])*")
ID_RE = re.compile(r"[A-Za-z_]\w*")
RAW_RE = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')


def tokenize(src: str):
    """Returns (tokens, ignored_lines): code tokens without comments and preprocessor lines;
    ignored_lines are the 1-based lines marked `mutation: ignore` or part of a directive."""
    toks: list[Tok] = []
    ignored: set[int] = set()
    i, n, line = 0, len(src), 1
    at_line_start = True
    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
            at_line_start = True
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c == "#" and at_line_start:  # directive, with continuations
            while i < n:
                j = src.find("\n", i)
                j = n if j < 0 else j
                ignored.add(line)
                cont = src[i:j].rstrip().endswith("\\")
                i = j
                if not cont or i >= n:
                    break
                i += 1
                line += 1
            continue
        at_line_start = False
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            if "mutation: ignore" in src[i:j]:
                ignored.add(line)
            i = j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += src.count("\n", i, j)
            i = j
            continue
        start, start_line = i, line
        m = RAW_RE.match(src, i)
        if m:
            close = ")" + m.group(1) + '"'
            j = src.find(close, m.end())
            j = n if j < 0 else j + len(close)
            kind = "str"
        elif c in "\"'" or (c in "uUL" and re.match(r"(?:u8|u|U|L)['\"]", src[i:i + 3])):
            q = i
            while src[q] not in "\"'":
                q += 1
            quote = src[q]
            j = q + 1
            while j < n and src[j] != quote:
                j += 2 if src[j] == "\\" else 1
            j += 1
            kind = "str" if quote == '"' else "chr"
        elif c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            j = NUM_RE.match(src, i).end()
            kind = "num"
        elif c.isalpha() or c == "_":
            j = ID_RE.match(src, i).end()
            kind = "id"
        else:
            for op in OPS:
                if src.startswith(op, i):
                    j = i + len(op)
                    break
            else:
                j = i + 1
            kind = "op"
        line += src.count("\n", start, j)
        sb = start == 0 or src[start - 1] in " \t\n"
        toks.append(Tok(kind, src[start:j], start, j, start_line, sb))
        i = j
    for k, t in enumerate(toks):
        t.space_after = t.end >= n or src[t.end] in " \t\n"
    return toks, ignored


def top_level(toks, lo, hi):
    """The indices in [lo, hi) of the tokens that stand outside every bracket opened within the
    range (brackets themselves excluded)."""
    depth = 0
    for q in range(lo, hi):
        x = toks[q].text
        if x in ("(", "[", "{"):
            depth += 1
        elif x in (")", "]", "}"):
            depth -= 1
        elif depth == 0:
            yield q


def match_forward(toks, k, open_, close):
    depth = 0
    for j in range(k, len(toks)):
        if toks[j].text == open_:
            depth += 1
        elif toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    return -1


# ---------------------------------------------------------------------------------------------
# Mutants


@dataclass
class Mutant:
    path: str
    line: int
    op: str
    start: int
    end: int
    original: str
    replacement: str
    mid: str = ""
    status: str = ""
    seconds: float = 0.0


REL = {"<": ["<=", ">="], "<=": ["<", ">"], ">": [">=", "<="], ">=": [">", "<"], "==": ["!="], "!=": ["=="]}
ARITH = {"+": ["-"], "-": ["+"], "*": ["/"], "/": ["*"], "%": ["*"], "+=": ["-="], "-=": ["+="]}
OPERAND_END = {"id", "num", "str", "chr"}


def spaced(t: Tok) -> bool:
    return t.space_before and t.space_after


def is_template_bracket(toks, k) -> bool:
    """A `<` or `>` that may belong to a template (in doubt: yes)."""
    t = toks[k]
    if not spaced(t):
        return True
    if t.text == "<" and k > 0 and toks[k - 1].text in ("operator", "template"):
        return True
    return False


def operand_before(toks, k) -> bool:
    if k == 0:
        return False
    p = toks[k - 1]
    if p.kind in ("num", "str", "chr"):
        return True
    if p.kind == "id":
        return p.text not in KEYWORDS or p.text in ("true", "false", "nullptr", "this")
    return p.text in (")", "]")


def int_value(text: str):
    m = re.fullmatch(r"(0[xX][0-9A-Fa-f']+|0[bB][01']+|[0-9][0-9']*)([uUlL]*)", text)
    if not m:
        return None
    body = m.group(1).replace("'", "")
    try:
        v = int(body, 0) if not re.fullmatch(r"0[0-7]+", body) else int(body, 8)
    except ValueError:
        return None
    return v, m.group(2)


def statement_starts(toks):
    """Indices of tokens that begin a statement inside a function body (brace depth >= 1, not
    inside parentheses)."""
    starts = set()
    paren = 0
    prev_boundary = True
    k = 0
    after_header = set()
    while k < len(toks):
        t = toks[k]
        if t.kind == "id" and t.text in ("if", "while", "for", "switch") and k + 1 < len(toks):
            j = k + 1
            if toks[j].text == "constexpr":
                j += 1
            if toks[j].text == "(":
                close = match_forward(toks, j, "(", ")")
                if close > 0:
                    after_header.add(close + 1)
        if t.text == "(":
            paren += 1
        elif t.text == ")":
            paren -= 1
        if paren == 0 and (prev_boundary or k in after_header):
            starts.add(k)
        prev_boundary = paren == 0 and (t.text in (";", "{", "}") or (t.kind == "id" and t.text == "else"))
        k += 1
    return starts


def stmt_end(toks, k):
    """Index of the `;` ending the statement that starts at k, or -1 if it has a body or is odd."""
    depth = 0
    for j in range(k, len(toks)):
        x = toks[j].text
        if x == "{" and depth == 0:
            return -1  # a body: a definition or a lambda assigned, not a plain statement
        if x in ("(", "[", "{"):
            depth += 1
        elif x in (")", "]", "}"):
            depth -= 1
            if depth < 0:
                return -1
        elif x == ";" and depth == 0:
            return j
    return -1


def is_expression_statement(toks, k, end) -> bool:
    """A call `a.b->c::d(...)...;`, an assignment `x = ...;` / `x[i] += ...;` or `++x;` / `x++;`."""
    t = toks[k]
    if t.text in ("++", "--"):
        return end > k + 1 and toks[k + 1].kind == "id"
    if t.kind != "id" or t.text in KEYWORDS:
        return False
    j = k + 1
    while j < end:
        x = toks[j].text
        if x in (".", "->", "::") and j + 1 < end and toks[j + 1].kind == "id":
            j += 2
            continue
        if x == "[":
            j = match_forward(toks, j, "[", "]") + 1
            if j <= 0:
                return False
            continue
        break
    if j >= end:
        return False
    x = toks[j].text
    return x in ("(", "=", "+=", "-=", "*=", "/=", "%=", "|=", "&=", "^=", "<<=", ">>=", "++", "--")


def find_mutants(path: str, src: str) -> list[Mutant]:
    toks, ignored = tokenize(src)
    out: list[Mutant] = []

    def add(op, a: Tok, b: Tok, repl, start=None, end=None, original=None):
        if any(l in ignored for l in range(a.line, b.line + 1)):
            return
        s = a.start if start is None else start
        e = b.end if end is None else end
        out.append(Mutant(path, a.line, op, s, e, src[s:e] if original is None else original, repl))

    for k, t in enumerate(toks):
        nxt = toks[k + 1] if k + 1 < len(toks) else None
        if t.kind == "op" and t.text in REL and spaced(t) and operand_before(toks, k):
            if t.text in ("<", ">") and is_template_bracket(toks, k):
                continue
            for r in REL[t.text]:
                add("rel", t, t, r)
        elif t.kind == "op" and t.text in ARITH and spaced(t) and operand_before(toks, k):
            if toks[k - 1].kind == "str" or (nxt is not None and nxt.kind == "str"):
                continue  # string concatenation: `-` would not compile
            if t.text in ("*",) and k > 1 and toks[k - 2].text in ("(", ",", "const", "{", ";", "<"):
                continue  # `(T * p` style declarations: in doubt, skip
            for r in ARITH[t.text]:
                add("arith", t, t, r)
        elif t.kind == "op" and t.text in ("++", "--"):
            adj = (nxt is not None and nxt.kind == "id" and not t.space_after) or (
                k > 0 and toks[k - 1].kind == "id" and not t.space_before)
            if adj:
                add("arith", t, t, "--" if t.text == "++" else "++")
        elif t.kind == "op" and t.text in ("&&", "||") and spaced(t) and operand_before(toks, k):
            add("logic", t, t, "||" if t.text == "&&" else "&&")
        elif t.kind == "num":
            iv = int_value(t.text)
            if iv is None:
                continue
            v, suffix = iv
            if k > 0 and toks[k - 1].text in ("[",) and nxt is not None and nxt.text == "]" and k > 1 \
                    and toks[k - 2].kind == "id" and k > 2 and toks[k - 3].kind == "id":
                continue  # array bound in a declaration `T name[N]`
            for nv in (v + 1, v - 1):
                if nv < 0:
                    continue
                add("const", t, t, f"{nv}{suffix}")
        elif t.kind == "id" and t.text in ("if", "while") and nxt is not None:
            j = k + 1
            if nxt.text == "constexpr" or (k > 0 and toks[k - 1].text == "#"):
                continue
            if toks[j].text != "(":
                continue
            close = match_forward(toks, j, "(", ")")
            if close < 0:
                continue
            # condition after an init-statement `if (init; cond)`
            first = j + 1
            for q in top_level(toks, j + 1, close):
                if toks[q].text == ";":
                    first = q + 1
            if first >= close:
                continue
            decl = any(toks[q].text == "=" for q in top_level(toks, first, close))
            if decl or (toks[first].kind == "id" and toks[first].text in ("auto", "const")):
                continue
            a, b = toks[first], toks[close - 1]
            text = src[a.start:b.end]
            add("neg", a, b, f"!({text})")
        elif t.kind == "id" and t.text == "return" and nxt is not None and nxt.text in ("true", "false") \
                and k + 2 < len(toks) and toks[k + 2].text == ";":
            add("bool", nxt, nxt, "false" if nxt.text == "true" else "true")

    starts = statement_starts(toks)
    for k in sorted(starts):
        end = stmt_end(toks, k)
        if end < 0 or not is_expression_statement(toks, k, end):
            continue
        a, b = toks[k], toks[end]
        text = src[a.start:b.end]
        short = " ".join(text.split())
        if len(short) > 60:
            short = short[:57] + "..."
        add("stmt", a, b, "{}", original=short)

    # stable ids
    seen: dict[str, int] = {}
    for m in sorted(out, key=lambda m: (m.start, m.op, m.replacement)):
        base = f"{m.path}:{m.line}:{m.op}:{' '.join(m.original.split())} => {m.replacement}"
        n = seen.get(base, 0)
        seen[base] = n + 1
        m.mid = base if n == 0 else f"{base}#{n + 1}"
    out.sort(key=lambda m: (m.line, m.start, m.mid))
    return out


def apply(src: str, m: Mutant) -> str:
    return src[:m.start] + m.replacement + src[m.end:]
