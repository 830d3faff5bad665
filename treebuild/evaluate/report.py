"""An evaluation as text (a table per question, totals by type) and as one self-contained HTML file (the
same table and a bar chart of hit rates drawn as inline SVG: no script, no external asset, nothing fetched)."""

from __future__ import annotations

from html import escape
from typing import Any

from .run import EvalReport, EvalRow

__all__ = ["text_lines", "summary_line", "html_report", "METHOD_LABELS"]

METHOD_LABELS = {"nav": "navigator", "bm25": "BM25 over pages", "hybrid": "hybrid (navigator seeded by BM25)"}
_SHORT = {"nav": "nav", "bm25": "bm25", "hybrid": "hyb"}
_COLORS = {"nav": "#2f6fb3", "bm25": "#c2872b", "hybrid": "#3c9a5f"}


def _evidence(row: EvalRow) -> str:
    q = row.question
    if q.evidence:
        return ",".join(str(e.page) for e in q.evidence)
    return "answer" if len(q.answers) == 1 else f"{len(q.answers)} answers"


def _label(report: EvalReport, method: str) -> str:
    return f"navigator {report.navigator}" if method == "nav" else METHOD_LABELS.get(method, method)


def _kind(report: EvalReport) -> str:
    return "a language model" if report.is_language_model else "not a language model"


def summary_line(totals: dict[str, Any], label: str, methods: tuple[str, ...]) -> str:
    n = totals["questions"]
    if not n:
        return f"{label:8} 0 questions"
    parts = [f"{m} {totals[m]['hits']}/{n} = {totals[m]['rate']:.3f} ({totals[m]['mean_pages']:.1f} p)"
             for m in methods]
    return f"{label:8} " + "   ".join(parts)


def text_lines(report: EvalReport, *, header: str | None = None) -> list[str]:
    """The per-question table and the totals by type, as ``bench/navigation_eval.py`` has printed them."""
    methods = report.methods
    lines = [header or (f"navigator={report.navigator} ({_kind(report)}) max_pages={report.max_pages}; "
                        f"{report.source or ''}")]
    marks_head = " ".join(f"{_SHORT.get(m, m)[:4]:>4}" for m in methods)
    lines.append(f"{'question':24} {'document':24} {'type':5} {'evidence':>11} {marks_head} {'pages':>5} "
                 f"{'calls':>5} {'tokens':>7} {'ms':>6}  returned (node:pages)")
    for r in report.rows:
        marks = " ".join(f"{'hit' if r.methods[m].hit else '-':>4}" for m in methods)
        nav_pages = r.methods["nav"].pages if "nav" in r.methods else 0
        returned = ", ".join(r.methods["nav"].returned) if "nav" in r.methods else ""
        if r.error:
            returned = f"error: {r.error}"
        docs = ",".join(r.question.docs) or "all"
        lines.append(f"{r.question.id[-24:]:24} {docs[:24]:24} {r.question.qtype[:5]:5} {_evidence(r)[-11:]:>11} "
                     f"{marks} {nav_pages:5d} {r.calls:5d} {r.tokens:7d} {r.seconds * 1000:6.0f}  {returned}")
    t = report.totals()
    lines.append("")
    lines.append(f"{t['questions']} questions; hits at {report.max_pages} pages (mean pages returned); navigator "
                 f"'{report.navigator}': {t['calls']} calls, {t['tokens']} tokens, {t['seconds']:.2f} s"
                 + (f"; {t['errors']} question(s) not measured" if t["errors"] else ""))
    for label, totals in report.by_type().items():
        lines.append(summary_line(totals, label, methods))
    return lines


def _chart(report: EvalReport) -> str:
    groups = report.by_type()
    methods = report.methods
    bar, gap, top, height, left = 22, 26, 20, 180, 40
    group_width = bar * len(methods) + gap
    width = max(left + group_width * len(groups) + 20, left + 250 * len(methods))
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{top + height + 60}" '
             f'role="img" aria-label="hit rate by method">']
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        y = top + height * (1 - tick)
        parts.append(f'<line x1="{left}" x2="{width - 10}" y1="{y:.1f}" y2="{y:.1f}" class="grid"/>'
                     f'<text x="{left - 6}" y="{y + 4:.1f}" class="tick">{tick:.2f}</text>')
    for g, (label, totals) in enumerate(groups.items()):
        x0 = left + gap // 2 + g * group_width
        for i, m in enumerate(methods):
            rate = totals[m]["rate"] if totals["questions"] else 0.0
            h = height * rate
            x = x0 + i * bar
            parts.append(f'<rect class="bar" data-group="{escape(label)}" data-method="{m}" data-rate="{rate:.4f}" '
                         f'x="{x}" y="{top + height - h:.1f}" width="{bar - 4}" height="{h:.1f}" '
                         f'fill="{_COLORS.get(m, "#777")}"><title>{escape(label)} {escape(_label(report, m))}: '
                         f'{totals[m]["hits"]}/{totals["questions"]} = {rate:.3f}</title></rect>')
            parts.append(f'<text x="{x + (bar - 4) / 2}" y="{top + height - h - 4:.1f}" class="value">'
                         f'{rate:.2f}</text>')
        parts.append(f'<text x="{x0 + bar * len(methods) / 2}" y="{top + height + 18}" class="group">'
                     f'{escape(label)} ({totals["questions"]})</text>')
    legend_y = top + height + 42
    for i, m in enumerate(methods):
        x = left + i * 250
        parts.append(f'<rect x="{x}" y="{legend_y - 10}" width="12" height="12" fill="{_COLORS.get(m, "#777")}"/>'
                     f'<text x="{x + 18}" y="{legend_y}" class="legend">{escape(_label(report, m))}</text>')
    parts.append("</svg>")
    return "".join(parts)


_STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:20px;margin:0 0 4px}p.meta{color:#555;margin:0 0 16px}
table{border-collapse:collapse;margin:12px 0 24px}th,td{border-bottom:1px solid #e3e6ea;padding:4px 8px;
text-align:left;vertical-align:top}th{background:#f4f6f8;position:sticky;top:0}td.num{text-align:right;
font-variant-numeric:tabular-nums}td.hit{color:#1e7a3c;font-weight:600}td.miss{color:#a33}
td.q{max-width:420px}td.ret{color:#555;font-size:12px;max-width:320px}tr.error td{background:#fff4f4}
svg .grid{stroke:#e3e6ea}svg .tick,svg .value,svg .group,svg .legend{font:12px system-ui,sans-serif;fill:#333}
svg .tick{text-anchor:end}svg .value,svg .group{text-anchor:middle}
"""


def html_report(report: EvalReport, *, title: str = "treebuild eval") -> str:
    """One HTML page: settings, totals by type, the bar chart and a row per question."""
    methods = report.methods
    groups = report.by_type()
    total_rows = "".join(
        f"<tr><td>{escape(label)}</td><td class=num>{t['questions']}</td>"
        + "".join(f"<td class=num>{t[m]['hits']} ({t[m]['rate']:.3f})</td><td class=num>{t[m]['mean_pages']:.1f}</td>"
                  for m in methods) + "</tr>"
        for label, t in groups.items())
    total_head = "".join(f"<th>{escape(_label(report, m))} hits</th><th>pages</th>" for m in methods)
    rows = []
    for r in report.rows:
        q = r.question
        cells = "".join(f"<td class={'hit' if r.methods[m].hit else 'miss'}>{'hit' if r.methods[m].hit else '-'}"
                        f"</td>" for m in methods)
        returned = "error: " + r.error if r.error else ", ".join(r.methods["nav"].returned) if "nav" in r.methods \
            else ""
        nav_pages = r.methods["nav"].pages if "nav" in r.methods else 0
        wanted = ", ".join(f"{e.doc_id + ' ' if e.doc_id and len(q.docs) != 1 else ''}p.{e.page}"
                           for e in q.evidence) or "; ".join(q.answers)
        rows.append(f"<tr class={'error' if r.error else 'ok'} data-id=\"{escape(q.id)}\"><td>{escape(q.id)}</td>"
                    f"<td>{escape(q.qtype)}</td><td class=q>{escape(q.question)}</td>"
                    f"<td>{escape(', '.join(q.docs) or 'all')}</td><td>{escape(wanted)}</td>{cells}"
                    f"<td class=num>{nav_pages}</td><td class=num>{r.calls}</td><td class=num>{r.tokens}</td>"
                    f"<td class=num>{r.seconds * 1000:.0f}</td><td class=ret>{escape(returned)}</td></tr>")
    t = report.totals()
    meta = (f"navigator <b>{escape(report.navigator)}</b> ({_kind(report)}); hits at {report.max_pages} pages; "
            f"{t['questions']} questions from {escape(report.source or 'the questions given')}; navigator spent "
            f"{t['calls']} calls, {t['tokens']} tokens, ${t['cost_usd']:.4f}, {t['seconds']:.2f} s")
    head = "".join(f"<th>{escape(m)}</th>" for m in methods)
    return (f"<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body><h1>{escape(title)}</h1><p class=meta>{meta}</p>"
            f"<h2>Hit rate</h2>{_chart(report)}"
            f"<h2>Totals</h2><table id=totals><thead><tr><th>type</th><th>questions</th>{total_head}</tr></thead>"
            f"<tbody>{total_rows}</tbody></table>"
            f"<h2>Questions</h2><table id=questions><thead><tr><th>id</th><th>type</th><th>question</th><th>documents"
            f"</th><th>evidence / answers</th>{head}<th>pages</th><th>calls</th><th>tokens</th><th>ms</th>"
            f"<th>returned (node:pages)</th></tr></thead><tbody>{''.join(rows)}</tbody></table></body></html>\n")
