"""The wording of financial filings and releases: a registrant's name, a statement's title, the
auditor's report, the period line under a title. Only the filing package reads it.
"""

from __future__ import annotations

import re

__all__ = ["COMPANY", "COMPANY_LINE", "AUDITOR_REPORT", "STATEMENT_TITLE", "PERIOD_LINE"]

_COMPANY_SUFFIX = r"\b(?:inc|incorporated|corporation|corp|company|companies|subsidiaries|llc|ltd|plc)\.?"
COMPANY = rf"(?P<company>.{{0,60}}?{_COMPANY_SUFFIX}\s+)?"
"""A registrant's name printed above (and joined to) a statement's title: ``The Boeing Company and
Subsidiaries``, ``Lockheed Martin Corporation`` (optional, as a regex prefix)."""
COMPANY_LINE = re.compile(rf"{_COMPANY_SUFFIX}$", re.IGNORECASE)
"""A line that ends in a corporate suffix: a company's name over a title."""
_SPANS = r"(?:three|six|nine|twelve|thirteen|twenty-six|thirty-nine|fifty-two|quarters?|years?|periods?|months?|weeks?)"
PERIOD_LINE = re.compile(
    rf"^\(?\s*(?:in (?:millions|thousands|billions)|(?:for )?(?:the )?(?:fiscal )?{_SPANS}(?:\s+(?:and\s+)?{_SPANS})*"
    r"\s+ended|(?:as of|at)\s|fiscal year\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+[0-9]|"
    r"unaudited\s*\)?$)", re.IGNORECASE)
"""The period or legend line under a statement's or table's title, not part of it: ``Years Ended
December 31``, ``Quarter and Year Ended ...``, ``Three and Six Months Ended``, ``(in millions)``,
``As of June 30``, ``(unaudited)``."""
AUDITOR_REPORT = r"reports? of independent registered public accounting firm"
"""The auditor's report's title (PCAOB), as a regex fragment."""
STATEMENT_TITLE = re.compile(
    rf"^{COMPANY}(?:{AUDITOR_REPORT}|"
    r"(?:condensed )?(?:consolidated |combined )?(?:condensed )?(?:statements? of (?:income|operations|earnings|"
    r"comprehensive|cash flows?|financial (?:position|condition)|changes in|"
    r"(?:stockholders|shareholders|shareowners|members)|(?:total )?equity)|balance sheets?))", re.IGNORECASE)
"""A financial statement's or the auditor's report's title, the registrant's name before it optional
(``Consolidated Statements of Total Equity and Redeemable Interest``, ``... of Shareowners' Equity``)."""

