"""Split words in titles, per corpus folder: a check that needs no dictionary.

Letter-spaced or kerned type comes out of a text layer with spaces inside words (``OVERVI EW``,
``Incom e``, ``Cash Flow s``). A title holds a *split word* when two neighbouring words of it,
joined, make a word printed whole elsewhere in the same document, and one of them is a piece of it
of at most :data:`SHORT_PIECE` letters that is not a word of the document: the second (broken off
the word's end: ``Incom e``, ``OVERVI EW``), or the first in capitals before capitals (``T HE``).
A token is a word of the document when it stands alone in the document's text at least
:data:`MIN_ALONE` times next to neighbours it does not join into a printed word: ``up`` in
"set up" and "pick up" (where ``setup`` is printed too) is a word if it also stands alone, while
``e`` in ``Incom e`` never does (a label such as ``(e)`` is no use of a word). Two long pieces are
not counted: no dictionary tells ``black box`` from a split ``blackbox``, and letter spacing breaks
off a word's last letters. Words are the
white-space-delimited chunks made of letters (apostrophes inside kept, punctuation around them
aside), compared case-folded; two words are neighbours when only white space stands between them
and the second continues the case of the first (``U.S.``, ``front-ends``, ``Dr. Memory`` and
``Master File`` are not split words). The document's text is its units' text as the reader gives it.

Every tree is built offline with the default settings (the outline used when trusted), and, with
``--ignore-outline``, from the document alone; every node's title is checked. With ``--text`` the
lines of the page text are checked instead (no build: what the lexical index and a model read).

    .venv/bin/python bench/split_words.py /work/shared/corpus/* /work/devcorpus/pdf /work/dev2/pdf \\
        /work/heldout/pdf            # one line per folder: documents, titles, titles with a split word
    ... -v                           # + each title with a split word
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from treebuild.pipeline import build
from treebuild.readers import SUPPORTED_SUFFIXES, read
from treebuild.settings import BuildSettings

MIN_ALONE = 2
"""Occurrences standing alone (not completing a neighbour into a printed word) that make a token a word."""
SHORT_PIECE = 2
"""Letters of a piece that letter spacing broke off a word's end (``Incom e``, ``OVERVI EW``, ``Cash Flow s``)."""
_CHUNK = re.compile(r"^([(\[\"\u201c\u2018]*)([^\W\d_]+(?:['\u2019][^\W\d_]+)*)([.,;:!?)\]\"\u201d\u2019]*)$")
"""A whitespace-delimited word: letters (apostrophes inside), with opening and closing punctuation around it."""

Token = tuple[str, bool, bool, bool, bool]
"""A word, case-folded; whether punctuation stands before / after it (which no split word has inside); whether
it is set in capitals only, in small letters only."""


def tokens(text: str) -> list[Token | None]:
    """The text's whitespace-delimited chunks: a word, or ``None`` for anything else (figures, a URL, ``U.S.``)."""
    out: list[Token | None] = []
    for chunk in text.split():
        m = _CHUNK.match(chunk)
        if m is None:
            out.append(None)
            continue
        word = m.group(2)
        out.append((word.casefold().replace("\u2019", "'"), bool(m.group(1)), bool(m.group(3)),
                    word.isupper(), word.islower()))
    return out


def _pairs(toks: list[Token | None]) -> Iterable[tuple[int, str, str]]:
    """Neighbouring words with only white space between them, the second continuing the first's case (a
    capital after a word set in small letters starts a word: ``Master File``): (index of the first, first, second)."""
    for i, (a, b) in enumerate(zip(toks, toks[1:], strict=False)):
        if a is not None and b is not None and not a[2] and not b[1] and (b[4] or b[3] and a[3]):
            yield i, a[0], b[0]


class Words:
    """What one document prints: its words, and how often each stands alone as a word."""

    def __init__(self, texts: Iterable[str]) -> None:
        streams = [tokens(t) for t in texts]
        self.whole = Counter(t[0] for s in streams for t in s if t is not None)
        # a list's label ``(e)`` or a quoted letter is no use of a word
        self.alone: Counter[str] = Counter(t[0] for s in streams for t in s if t is not None and not t[1])
        for s in streams:
            for _i, a, b in _pairs(s):
                if a + b in self.whole:  # the two complete each other: neither stands alone here
                    self.alone[a] -= 1
                    self.alone[b] -= 1

    def split(self, title: str) -> list[tuple[str, str]]:
        """The neighbouring word pairs of ``title`` that are one word split in two."""
        toks = tokens(title)
        return [(a, b) for i, a, b in _pairs(toks) if a + b in self.whole and self.pieces(toks[i], toks[i + 1])]

    def pieces(self, first: Token | None, second: Token | None) -> bool:
        """Whether two neighbours look like pieces of one word rather than two words: the second is a
        piece of at most :data:`SHORT_PIECE` letters broken off the word's end that is not a word of
        the document (``Incom e``, ``OVERVI EW``), or the first is one broken off its start, in
        capitals (``T HE``). A short word before a word in small letters is a word (``H and``,
        ``Y tableau``); two long pieces are not counted (``black box``, ``meta data`` are two words
        where the document prints ``blackbox`` and ``metadata`` too)."""
        assert first is not None and second is not None
        a, b = first[0], second[0]
        if len(b) <= SHORT_PIECE and self.alone[b] < MIN_ALONE:
            return True
        return len(a) <= SHORT_PIECE and first[3] and second[3] and self.alone[a] < MIN_ALONE


def check(path: Path, ignore_outline: bool, text: bool = False) -> tuple[int, list[str]]:
    if text:
        units = read(path).units
        titles = [line for u in units for line in u.text.splitlines() if line.strip()]
    else:
        tree = build(path, BuildSettings(ignore_outline=ignore_outline))
        units = tree.doc.units
        titles = [n.title for n in tree.walk()]
    words = Words(u.text for u in units)
    bad = []
    for title in titles:
        pairs = words.split(title)
        if pairs:
            bad.append(f"    {title[:90]!r}  ({', '.join(a + ' ' + b for a, b in pairs)})")
    return len(titles), bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", type=Path, nargs="+")
    ap.add_argument("--ignore-outline", action="store_true", help="build from the document alone")
    ap.add_argument("--text", action="store_true", help="check the lines of the page text instead of titles")
    ap.add_argument("--only", default=None, help="only files whose name contains this")
    ap.add_argument("-v", "--verbose", action="store_true", help="print each title with a split word")
    args = ap.parse_args(argv)
    rows = []
    for folder in args.folders:
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() in SUPPORTED_SUFFIXES
                       and (args.only is None or args.only in p.name))
        if not files:
            continue
        n_titles = n_bad = docs_bad = 0
        for path in files:
            try:
                count, bad = check(path, args.ignore_outline, args.text)
            except Exception as exc:  # a file the reader refuses is reported, the folder goes on
                print(f"  {path.name}: not built ({exc})")
                continue
            n_titles += count
            n_bad += len(bad)
            docs_bad += bool(bad)
            if bad and args.verbose:
                print(f"  {path.name}: {len(bad)} of {count} {'lines' if args.text else 'titles'}")
                for line in bad:
                    print(line)
        what = "lines" if args.text else "titles"
        rows.append(f"{str(folder):36} {len(files):5d} docs {n_titles:6d} {what} {n_bad:5d} with a split word "
                    f"({docs_bad} documents)")
        print(rows[-1], flush=True)
    print("\n" + "\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
