#!/usr/bin/env python3
"""Every relative link in README.md and docs/**/*.md resolves, and README.md stays short.

A Markdown link `[text](path)` or `[text](path#anchor)` (images too) is resolved relative to
the file that holds it; http(s):, mailto: and other scheme links and pure `#anchor` links are
not checked. For `path#anchor` into a .md file the anchor must be one of that file's headings,
slugged as GitHub does it (lower case, punctuation dropped, spaces to hyphens, repeats get -1,
-2, ...). Links inside fenced code blocks and inline code are not links. Exits 1 listing each
broken link as `FILE:LINE: target` (and README.md over MAX_README_LINES lines), else 0.

    python3 tests/check_links.py REPO_ROOT
"""

import pathlib
import re
import sys
import unicodedata

MAX_README_LINES = 150

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
INLINE_CODE = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)
# `](target)` or `](<target>)`, optionally followed by a title: the link text before it may
# span lines, so only the part from `](` on is matched. A target may hold balanced parentheses.
LINK = re.compile(
    r"\]\(\s*(<[^>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)"
)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=[\"']([^\"']+)[\"']", re.I)

_anchors: dict[pathlib.Path, set[str]] = {}


def prose_lines(text: str) -> list[str]:
    """The file's lines with those of fenced code blocks (fences included) made empty, so that
    line numbers stay right."""
    out = []
    fence = None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence is None:
            if m:
                fence = m.group(1)
                out.append("")
            else:
                out.append(line)
            continue
        closes = m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence)
        if closes and not m.group(2).strip():
            fence = None
        out.append("")
    return out


def blank_code(text: str) -> str:
    """The text with fenced code blocks and inline code replaced by blanks (newlines kept)."""
    prose = "\n".join(prose_lines(text))
    return INLINE_CODE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), prose)


def heading_text(raw: str) -> str:
    """A heading's text as GitHub renders it: links to their text, code and emphasis marks
    and HTML tags dropped."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("`", "")
    return re.sub(r"(\*+|(?<!\w)_+|_+(?!\w))", "", text)


def slug(text: str) -> str:
    """GitHub's heading anchor: lower case; letters, digits, marks, `-`, `_` and spaces
    kept, everything else dropped; each space becomes a hyphen."""
    out = []
    for ch in text.strip().lower():
        if ch in "-_" or unicodedata.category(ch)[0] in "LNM":
            out.append(ch)
        elif ch == " ":
            out.append("-")
    return "".join(out)


def anchors(path: pathlib.Path) -> set[str]:
    """The anchors a Markdown file offers: its headings' slugs (repeats numbered) and any
    <a name=...> or <a id=...>."""
    if path not in _anchors:
        seen: dict[str, int] = {}
        found: set[str] = set()
        for line in prose_lines(path.read_text(encoding="utf-8")):
            found.update(HTML_ANCHOR.findall(line))
            h = HEADING.match(line)
            if not h:
                continue
            base = slug(heading_text(h.group(2)))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
        _anchors[path] = found
    return _anchors[path]


def check_file(root: pathlib.Path, md: pathlib.Path) -> list[str]:
    """`FILE:LINE: target` for every relative link of `md` that does not resolve."""
    broken = []
    prose = blank_code(md.read_text(encoding="utf-8"))
    for m in LINK.finditer(prose):
        target = m.group(1).strip()
        if target.startswith("<") and target.endswith(">"):
            target = target[1:-1].strip()
        if not target or target.startswith("#") or SCHEME.match(target):
            continue
        line = prose.count("\n", 0, m.start()) + 1
        where = f"{md.relative_to(root)}:{line}: {target}"
        path_part, _, anchor = target.partition("#")
        dest = (md.parent / path_part.replace("%20", " ")).resolve()
        if not dest.exists():
            broken.append(where)
        elif anchor and dest.is_file() and dest.suffix.lower() == ".md":
            if anchor.lower() not in anchors(dest):
                broken.append(where + " (no such heading)")
    return broken


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: check_links.py REPO_ROOT", file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1]).resolve()
    readme = root / "README.md"
    problems = []
    for md in [readme, *sorted((root / "docs").rglob("*.md"))]:
        if md.is_file():
            problems.extend(check_file(root, md))
        else:
            problems.append(f"{md.relative_to(root)}: missing")
    if readme.is_file():
        lines = len(readme.read_text(encoding="utf-8").splitlines())
        if lines > MAX_README_LINES:
            problems.append(
                f"README.md: {lines} lines (at most {MAX_README_LINES}: move details into docs/)"
            )
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} broken link(s) or other problem(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
