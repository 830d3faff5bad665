"""Computed typography of HTML elements: the browser's defaults, ``<style>`` sheets and inline styles.

Only what the layout and the heading rules read is computed: font size, weight, slant, family,
capitals (``text-transform``, ``font-variant: small-caps``), alignment, indentation, vertical
margins, white space, visibility and display, page breaks and a table cell's width. Inherited
properties pass from parent to child as a browser passes them; a declaration wins by origin
(browser defaults, then presentational attributes, then the author's sheets by specificity and
order, then the ``style`` attribute), as in CSS 2.1 cascading (``!important`` is read as a plain
declaration).

Stylesheets are parsed with tinycss2 and their selectors with cssselect; a selector is matched
against the stack of open elements (the reader streams the document: no tree is built), so type,
class, id, attribute-presence and equality tests and the descendant and child combinators are
supported. A selector with a pseudo-class, pseudo-element or sibling combinator cannot be decided
while streaming: its rule is left out. ``@media`` blocks apply when they name ``print`` or ``all``
(the paper form is what a page cites); ``@import`` and ``url()`` are never fetched.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["Style", "ROOT", "Element", "Stylesheet", "declarations", "compute", "length", "BLOCK_TAGS",
           "HIDDEN_TAGS"]

PT_PER_PX = 0.75
ROOT_SIZE = 12.0
"""The browser's default font size: 16 px, in points."""
CONTENT_WIDTH = 540.0
"""Width of the text column of a printed page in points (US Letter less half-inch margins): what
a percentage of the width refers to."""
_SIZE_WORDS = {"xx-small": 6.75, "x-small": 7.5, "small": 9.75, "medium": 12.0, "large": 13.5, "x-large": 18.0,
               "xx-large": 24.0, "xxx-large": 36.0}
_FONT_TAG_SIZES = {1: 7.5, 2: 9.75, 3: 12.0, 4: 13.5, 5: 18.0, 6: 24.0, 7: 36.0}
"""``<font size="N">`` in points, as browsers map it."""
_RELATIVE_STEP = 1.2
"""``larger`` / ``smaller``: one step of the browser's size scale."""

BLOCK_TAGS = frozenset(
    "address article aside blockquote body center dd details dialog dir div dl dt fieldset figcaption figure footer "
    "form h1 h2 h3 h4 h5 h6 header hgroup hr html legend li main menu nav ol p pre section summary ul table tr td th "
    "caption thead tbody tfoot".split())
HIDDEN_TAGS = frozenset("head script style title template noscript iframe object embed svg math select "
                        "ix:header".split())
"""Elements whose content is not printed (``ix:header`` holds an inline XBRL filing's hidden facts)."""

_UA: dict[str, dict[str, str]] = {
    "b": {"font-weight": "bold"}, "strong": {"font-weight": "bold"}, "th": {"font-weight": "bold"},
    "i": {"font-style": "italic"}, "em": {"font-style": "italic"}, "cite": {"font-style": "italic"},
    "var": {"font-style": "italic"}, "dfn": {"font-style": "italic"}, "address": {"font-style": "italic"},
    "h1": {"font-size": "2em", "font-weight": "bold", "margin-top": "0.67em", "margin-bottom": "0.67em"},
    "h2": {"font-size": "1.5em", "font-weight": "bold", "margin-top": "0.83em", "margin-bottom": "0.83em"},
    "h3": {"font-size": "1.17em", "font-weight": "bold", "margin-top": "1em", "margin-bottom": "1em"},
    "h4": {"font-weight": "bold", "margin-top": "1.33em", "margin-bottom": "1.33em"},
    "h5": {"font-size": "0.83em", "font-weight": "bold", "margin-top": "1.67em", "margin-bottom": "1.67em"},
    "h6": {"font-size": "0.67em", "font-weight": "bold", "margin-top": "2.33em", "margin-bottom": "2.33em"},
    "p": {"margin-top": "1em", "margin-bottom": "1em"},
    "blockquote": {"margin-top": "1em", "margin-bottom": "1em", "margin-left": "40px"},
    "ul": {"margin-top": "1em", "margin-bottom": "1em", "padding-left": "40px"},
    "ol": {"margin-top": "1em", "margin-bottom": "1em", "padding-left": "40px"},
    "dd": {"margin-left": "40px"}, "center": {"text-align": "center"}, "th_": {"text-align": "center"},
    "small": {"font-size": "smaller"}, "big": {"font-size": "larger"}, "sub": {"font-size": "smaller"},
    "sup": {"font-size": "smaller"},
    "pre": {"font-family": "monospace", "white-space": "pre", "margin-top": "1em", "margin-bottom": "1em"},
    "code": {"font-family": "monospace"}, "tt": {"font-family": "monospace"}, "kbd": {"font-family": "monospace"},
    "samp": {"font-family": "monospace"}, "listing": {"font-family": "monospace", "white-space": "pre"},
    "xmp": {"font-family": "monospace", "white-space": "pre"}, "plaintext": {"font-family": "monospace",
                                                                             "white-space": "pre"},
}
_UA["th"] = {"font-weight": "bold", "text-align": "center"}
del _UA["th_"]


@dataclass(frozen=True, slots=True)
class Style:
    """The computed style of an element: inherited properties first, then the element's own."""

    size: float = ROOT_SIZE
    bold: bool = False
    italic: bool = False
    family: str = "Times"
    caps: str = ""  # "upper" | "lower" | "capitalize" | "small-caps" | ""
    align: str = "left"
    indent: float = 0.0  # text-indent (inherited)
    line_height: float = 1.2  # a multiple of the size
    pre: bool = False  # white space kept (``white-space: pre``)
    hidden: bool = False  # ``visibility: hidden``
    # not inherited:
    display: str = "inline"
    left: float = 0.0  # margin-left + padding-left
    top: float = 0.0  # margin-top + padding-top
    bottom: float = 0.0  # margin-bottom + padding-bottom
    break_before: bool = False
    break_after: bool = False
    valign: str = "middle"  # a table cell's vertical-align: top, middle (the default) or bottom
    width: float | None = None  # a table cell's width in points, when set
    width_share: float | None = None  # ... or as a share of the table's width

    def inherited(self) -> Style:
        """What a child starts from: the inherited properties, the others reset."""
        return Style(self.size, self.bold, self.italic, self.family, self.caps, self.align, self.indent,
                     self.line_height, self.pre, self.hidden)

    @property
    def font(self) -> str:
        """A font name the heading rules read (family, weight and slant, as a PDF names its fonts)."""
        suffix = ("Bold" if self.bold else "") + ("Italic" if self.italic else "")
        return f"{self.family}-{suffix}" if suffix else self.family


ROOT = Style(display="block")


@dataclass(slots=True)
class Element:
    """An open element as selectors see it."""

    tag: str
    id: str | None
    classes: frozenset[str]
    attrib: dict[str, str] = field(default_factory=dict)


@functools.lru_cache(maxsize=8192)
def declarations(text: str) -> tuple[tuple[str, str], ...]:
    """``a: b; c: d`` as ``(("a", "b"), ("c", "d"))``, names lower-cased, ``!important`` dropped.
    Cached: a filing repeats a few hundred style attributes thousands of times."""
    out: list[tuple[str, str]] = []
    for part in _split_declarations(text):
        name, sep, value = part.partition(":")
        if not sep:
            continue
        value = value.strip()
        if value.lower().endswith("!important"):
            value = value[: -len("!important")].strip()
        out.append((name.strip().lower(), value))
    return tuple(out)


def _split_declarations(text: str) -> list[str]:
    if "(" not in text and "'" not in text and '"' not in text:
        return text.split(";")
    parts: list[str] = []
    depth, quote, start = 0, "", 0
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif c == ";" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


_LENGTH = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))\s*(pt|px|em|rem|ex|%|in|cm|mm|pc|q|vw|vh|ch)?$", re.IGNORECASE)


def length(value: str, size: float, base: float = CONTENT_WIDTH) -> float | None:
    """A CSS length in points: ``em`` of ``size``, ``%`` of ``base``; ``None`` when not a length."""
    m = _LENGTH.match(value.strip())
    if not m:
        return None
    number = float(m.group(1))
    unit = (m.group(2) or "px").lower()
    factor = {"pt": 1.0, "px": PT_PER_PX, "em": size, "rem": ROOT_SIZE, "ex": size / 2, "ch": size / 2,
              "%": base / 100.0, "in": 72.0, "cm": 72.0 / 2.54, "mm": 72.0 / 25.4, "pc": 12.0,
              "q": 72.0 / 101.6, "vw": CONTENT_WIDTH / 100.0, "vh": 7.92}[unit]
    return number * factor


def _font_size(value: str, parent: float) -> float | None:
    v = value.strip().lower()
    if v in _SIZE_WORDS:
        return _SIZE_WORDS[v]
    if v == "larger":
        return parent * _RELATIVE_STEP
    if v == "smaller":
        return parent / _RELATIVE_STEP
    if v.endswith("%"):
        try:
            return parent * float(v[:-1]) / 100.0
        except ValueError:
            return None
    size = length(v, parent)
    return size if size is not None and size > 0 else None


def _bold(value: str, parent: bool) -> bool:
    v = value.strip().lower()
    if v in ("bold", "bolder"):
        return True
    if v in ("normal", "lighter"):
        return False
    try:
        return int(float(v)) >= 600
    except ValueError:
        return parent


def _family(value: str) -> str:
    first = value.split(",")[0].strip().strip("'\"").strip()
    return re.sub(r"\s+", "", first) or "Times"


def _box(values: list[str], size: float) -> tuple[float, float, float, float]:
    """``margin``/``padding`` shorthand: top, right, bottom, left in points (``auto`` is 0)."""
    pts = [length(v, size) or 0.0 for v in values[:4]]
    if not pts:
        return 0.0, 0.0, 0.0, 0.0
    while len(pts) < 4:
        pts.append(pts[{1: 0, 2: 0, 3: 1}[len(pts)]])
    return pts[0], pts[1], pts[2], pts[3]


_BREAK_VALUES = frozenset({"always", "page", "left", "right", "recto", "verso"})


def _apply(style: Style, decls: Iterable[tuple[str, str]], parent: Style) -> Style:
    """``style`` with ``decls`` applied in order (``em`` relative to the parent's size, as CSS has it
    for ``font-size``, and to the element's own size for the rest)."""
    changes: dict[str, Any] = {}
    size = style.size
    margin = [0.0, 0.0]  # top, bottom from margin and padding (kept apart so one does not undo the other)
    padding = [0.0, 0.0]
    left_margin = left_padding = 0.0
    have_margin = have_padding = have_left_margin = have_left_padding = False
    for name, value in decls:
        v = value.strip()
        low = v.lower()
        if name == "font-size":
            new = _font_size(v, parent.size)
            if new is not None:
                size = changes["size"] = new
        elif name == "font-weight":
            changes["bold"] = _bold(v, parent.bold)
        elif name == "font-style":
            changes["italic"] = low in ("italic", "oblique")
        elif name == "font-family":
            changes["family"] = _family(v)
        elif name == "font":
            _font_shorthand(v, parent, changes)
            size = changes.get("size", size)
        elif name == "text-transform":
            changes["caps"] = {"uppercase": "upper", "lowercase": "lower", "capitalize": "capitalize"}.get(low, "")
        elif name == "font-variant" or name == "font-variant-caps":
            if "small-caps" in low:
                changes["caps"] = "small-caps"
        elif name == "text-align":
            changes["align"] = {"justify": "left", "start": "left", "end": "right", "-webkit-center": "center"}.get(
                low, low if low in ("left", "right", "center") else style.align)
        elif name == "text-indent":
            changes["indent"] = length(v, size) or 0.0
        elif name == "line-height":
            lh = _line_height(low, size)
            if lh is not None:
                changes["line_height"] = lh
        elif name == "white-space":
            changes["pre"] = low.startswith("pre") and low != "pre-line"
        elif name == "visibility":
            changes["hidden"] = low in ("hidden", "collapse")
        elif name == "display":
            changes["display"] = low.split()[0] if low else "inline"
        elif name in ("margin", "padding"):
            top, _right, bottom, left = _box(v.split(), size)
            if name == "margin":
                margin, left_margin, have_margin, have_left_margin = [top, bottom], left, True, True
            else:
                padding, left_padding, have_padding, have_left_padding = [top, bottom], left, True, True
        elif name in ("margin-top", "margin-bottom", "padding-top", "padding-bottom"):
            amount = length(v, size) or 0.0
            target = margin if name.startswith("margin") else padding
            target[0 if name.endswith("top") else 1] = amount
            if name.startswith("margin"):
                have_margin = True
            else:
                have_padding = True
        elif name in ("margin-left", "padding-left"):
            amount = length(v, size) or 0.0
            if name == "margin-left":
                left_margin, have_left_margin = amount, True
            else:
                left_padding, have_left_padding = amount, True
        elif name in ("page-break-before", "break-before"):
            changes["break_before"] = low in _BREAK_VALUES
        elif name in ("page-break-after", "break-after"):
            changes["break_after"] = low in _BREAK_VALUES
        elif name == "vertical-align":
            changes["valign"] = "top" if low in ("top", "text-top", "baseline") else "bottom" if low in (
                "bottom", "text-bottom") else "middle"
        elif name == "width":
            if low.endswith("%"):
                try:
                    changes["width_share"] = float(low[:-1]) / 100.0
                except ValueError:
                    pass
            else:
                changes["width"] = length(v, size)
    if have_margin or have_padding:
        changes["top"] = (margin[0] if have_margin else 0.0) + (padding[0] if have_padding else 0.0)
        changes["bottom"] = (margin[1] if have_margin else 0.0) + (padding[1] if have_padding else 0.0)
    if have_left_margin or have_left_padding:
        changes["left"] = (left_margin if have_left_margin else 0.0) + (left_padding if have_left_padding else 0.0)
    return replace(style, **changes) if changes else style


def _line_height(value: str, size: float) -> float | None:
    if value == "normal":
        return 1.2
    try:
        return max(0.5, float(value))  # a bare number is a multiple of the size
    except ValueError:
        pass
    if value.endswith("%"):
        try:
            return max(0.5, float(value[:-1]) / 100.0)
        except ValueError:
            return None
    pts = length(value, size)
    return max(0.5, pts / size) if pts and size else None


def _font_shorthand(value: str, parent: Style, changes: dict[str, Any]) -> None:
    """``font: italic bold 12pt/14pt Arial, sans-serif``: the words before the size, the size, the family."""
    m = re.search(r"(\S+?)(?:/(\S+))?\s+(['\"]?[^\s].*)$", value.strip())
    words = value.lower().split()
    changes["bold"] = any(_bold(w, False) for w in words[:3])
    changes["italic"] = any(w in ("italic", "oblique") for w in words[:3])
    if m:
        size = _font_size(m.group(1), parent.size)
        if size is not None:
            changes["size"] = size
            changes["family"] = _family(m.group(3))


def _presentational(tag: str, attrib: dict[str, str]) -> list[tuple[str, str]]:
    """HTML attributes that set style: ``align``, ``<font size face>``, a cell's ``width``."""
    out: list[tuple[str, str]] = []
    align = attrib.get("align")
    if align:
        out.append(("text-align", align))
    if tag == "font":
        size = attrib.get("size", "").strip()
        if size:
            try:
                n = int(size[1:]) + 3 if size[0] in "+-" and size[0] == "+" else (
                    3 - int(size[1:]) if size[0] == "-" else int(size))
                out.append(("font-size", f"{_FONT_TAG_SIZES[max(1, min(7, n))]}pt"))
            except ValueError:
                pass
        face = attrib.get("face")
        if face:
            out.append(("font-family", face))
    valign = attrib.get("valign")
    if valign:
        out.append(("vertical-align", valign))
    width = attrib.get("width")
    if width and tag in ("td", "th", "col", "table"):
        out.append(("width", width if width.endswith("%") else f"{width}px"))
    return out


def compute(parent: Style, tag: str, attrib: dict[str, str], sheet_decls: Iterable[tuple[str, str]] = ()) -> Style:
    """The computed style of an element under ``parent`` (see the module docstring for the order)."""
    style = parent.inherited()
    if tag in BLOCK_TAGS:
        style = replace(style, display="block" if tag not in ("li",) else "list-item")
    ua = _UA.get(tag)
    if ua:
        style = _apply(style, ua.items(), parent)
    if attrib:
        pres = _presentational(tag, attrib)
        if pres:
            style = _apply(style, pres, parent)
    style = _apply(style, sheet_decls, parent)
    inline = attrib.get("style") if attrib else None
    if inline:
        style = _apply(style, declarations(inline), parent)
    return style


@dataclass(frozen=True, slots=True)
class _Rule:
    parts: tuple[tuple[str, Any], ...]  # right to left: (combinator to the left, compound)
    specificity: tuple[int, int, int]
    order: int
    decls: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class _Compound:
    tag: str | None
    id: str | None
    classes: frozenset[str]
    attrs: tuple[tuple[str, str | None], ...]  # name, value (None: present)

    def matches(self, el: Element) -> bool:
        if self.tag is not None and self.tag != el.tag:
            return False
        if self.id is not None and self.id != el.id:
            return False
        if self.classes and not self.classes <= el.classes:
            return False
        for name, value in self.attrs:
            have = el.attrib.get(name)
            if have is None or (value is not None and have != value):
                return False
        return True


class _Unsupported(Exception):
    pass


class Stylesheet:
    """The author's ``<style>`` rules, indexed by the id, class or tag their last compound names."""

    def __init__(self) -> None:
        self._by_id: dict[str, list[_Rule]] = {}
        self._by_class: dict[str, list[_Rule]] = {}
        self._by_tag: dict[str, list[_Rule]] = {}
        self._any: list[_Rule] = []
        self._order = 0
        self.skipped = 0  # selectors left out (pseudo-classes, sibling combinators)
        self.imports = 0  # ``@import`` rules (never fetched)

    def __bool__(self) -> bool:
        return self._order > 0

    def add(self, css: str) -> None:
        import tinycss2

        self._rules(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))

    def _rules(self, rules: list[Any]) -> None:
        import tinycss2

        for rule in rules:
            if rule.type == "qualified-rule":
                decls = declarations(tinycss2.serialize(rule.content))
                self._add(tinycss2.serialize(rule.prelude), decls)
            elif rule.type == "at-rule":
                kw = rule.lower_at_keyword
                if kw == "import":
                    self.imports += 1
                elif kw == "media" and rule.content is not None:
                    media = tinycss2.serialize(rule.prelude).lower()
                    if "print" in media or "all" in media:
                        self._rules(tinycss2.parse_rule_list(rule.content, skip_comments=True,
                                                             skip_whitespace=True))

    def _add(self, selector_text: str, decls: tuple[tuple[str, str], ...]) -> None:
        import cssselect

        try:
            selectors = cssselect.parse(selector_text)
        except Exception:  # cssselect raises SelectorSyntaxError and friends on CSS it does not know
            self.skipped += 1
            return
        for sel in selectors:
            try:
                if sel.pseudo_element is not None:
                    raise _Unsupported
                parts = tuple(_flatten(sel.parsed_tree))
            except _Unsupported:
                self.skipped += 1
                continue
            rule = _Rule(parts, sel.specificity(), self._order, decls)
            self._order += 1
            last = parts[0][1]
            if last.id is not None:
                self._by_id.setdefault(last.id, []).append(rule)
            elif last.classes:
                self._by_class.setdefault(min(last.classes), []).append(rule)
            elif last.tag is not None:
                self._by_tag.setdefault(last.tag, []).append(rule)
            else:
                self._any.append(rule)

    def match(self, stack: list[Element], el: Element) -> tuple[tuple[str, str], ...]:
        """Declarations of the rules matching ``el`` (its ancestors in ``stack``), lowest priority first."""
        cands: list[_Rule] = []
        if el.id is not None:
            cands.extend(self._by_id.get(el.id, ()))
        for c in el.classes:
            cands.extend(self._by_class.get(c, ()))
        cands.extend(self._by_tag.get(el.tag, ()))
        cands.extend(self._any)
        if not cands:
            return ()
        hits = [r for r in cands if _matches(r.parts, stack, el)]
        hits.sort(key=lambda r: (r.specificity, r.order))
        return tuple(d for r in hits for d in r.decls)


def _flatten(tree: Any) -> list[tuple[str, _Compound]]:
    """A parsed selector as (combinator, compound) pairs right to left; the combinator joins the
    compound to the one on its left (``""`` for the leftmost)."""
    out: list[tuple[str, _Compound]] = []
    combinator = ""
    while True:
        if type(tree).__name__ == "CombinedSelector":
            if tree.combinator not in (" ", ">"):
                raise _Unsupported
            out.append((tree.combinator, _compound(tree.subselector)))
            tree = tree.selector
            continue
        out.append((combinator, _compound(tree)))
        break
    return out


def _compound(node: Any) -> _Compound:
    tag: str | None = None
    ident: str | None = None
    classes: set[str] = set()
    attrs: list[tuple[str, str | None]] = []
    while True:
        kind = type(node).__name__
        if kind == "Element":
            tag = node.element.lower() if node.element and node.element != "*" else None
            break
        if kind == "Class":
            classes.add(node.class_name)
        elif kind == "Hash":
            ident = node.id
        elif kind == "Attrib" and node.operator in ("exists", "="):
            attrs.append((node.attrib.lower(), None if node.operator == "exists" else node.value.value
                          if hasattr(node.value, "value") else node.value))
        else:
            raise _Unsupported
        node = node.selector
    return _Compound(tag, ident, frozenset(classes), tuple(attrs))


def _matches(parts: tuple[tuple[str, Any], ...], stack: list[Element], el: Element) -> bool:
    combinator, compound = parts[0]
    if not compound.matches(el):
        return False
    return _ancestors_match(parts, 0, stack, len(stack))


def _ancestors_match(parts: tuple[tuple[str, Any], ...], k: int, stack: list[Element], top: int) -> bool:
    """Compounds ``parts[k+1:]`` matched by ancestors below index ``top`` of ``stack``."""
    if k + 1 >= len(parts):
        return True
    combinator = parts[k][0]
    compound = parts[k + 1][1]
    if combinator == ">":
        i = top - 1
        return i >= 0 and compound.matches(stack[i]) and _ancestors_match(parts, k + 1, stack, i)
    for i in range(top - 1, -1, -1):
        if compound.matches(stack[i]) and _ancestors_match(parts, k + 1, stack, i):
            return True
    return False
