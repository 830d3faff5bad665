"""The wording of financial filings and releases: a registrant's name, a statement's title, the
auditor's report, the period line under a title. Only the filing package reads it.
"""

from __future__ import annotations

import re

__all__ = ["COMPANY", "COMPANY_LINE", "COMPANY_TITLED", "AUDITOR_REPORT", "STATEMENT_TITLE", "PERIOD_LINE",
           "LEGEND_LINE"]

_COMPANY_SUFFIX = r"\b(?:inc|incorporated|corporation|corp|company|companies|subsidiaries|llc|ltd|plc)\.?"
COMPANY = rf"(?P<company>.{{0,60}}?{_COMPANY_SUFFIX}\s+)?"
"""A registrant's name printed above (and joined to) a statement's title: ``The Boeing Company and
Subsidiaries``, ``Lockheed Martin Corporation`` (optional, as a regex prefix)."""
COMPANY_LINE = re.compile(rf"{_COMPANY_SUFFIX}$", re.IGNORECASE)
"""A line that ends in a corporate suffix: a company's name over a title."""
COMPANY_TITLED = re.compile(
    rf"^(?P<company>.{{0,60}}?{_COMPANY_SUFFIX})\s*[-\u2013\u2014:]\s+(?P<title>.*[A-Za-z].*)$", re.IGNORECASE)
"""A company's name and a table's title on one line, a dash between them: ``PFIZER INC. - REVENUES``."""
_SPANS = (r"(?:three|six|nine|twelve|thirteen|twenty-six|thirty-nine|fifty-two|quarter(?:s|ly)?|years?|periods?|"
          r"months?|weeks?)")
_YEAR = r"(?:19|20)[0-9]{2}"
_RELEASE_SPAN = r"(?:(?:first|second|third|fourth)[- ](?:quarter|half)|(?:three|six|nine|twelve) months|full[- ]year)" \
    rf"\s+{_YEAR}(?:\s+and\s+{_YEAR})?\s*(?:[-\u2013\u2014,]?\s*\(?unaudited\)?)?\s*$"
"""A release's period line naming its quarters by year alone, nothing after it but the legend:
``SECOND-QUARTER 2023 and 2022 - (UNAUDITED)``, ``SIX MONTHS 2023 and 2022``."""
PERIOD_LINE = re.compile(
    rf"^\(?\s*(?:{_RELEASE_SPAN}|in (?:millions|thousands|billions)|"
    rf"(?:for )?(?:the )?(?:fiscal )?{_SPANS}(?:\s+(?:and\s+)?{_SPANS})*\s+ended|"
    r"(?:as of|at)\s|fiscal year\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+[0-9]|"
    r"unaudited\s*\)?$)", re.IGNORECASE)
"""The period or legend line under a statement's or table's title, not part of it: ``Years Ended
December 31``, ``Quarter and Year Ended ...``, ``Three and Six Months Ended``, ``(in millions)``,
``As of June 30``, ``(unaudited)``, ``SECOND-QUARTER 2023 and 2022``."""
LEGEND_LINE = re.compile(r"^\(.*\)$|^\(?\s*(?:\$\s*)?in (?:millions|thousands|billions)\b|^\(?\s*unaudited\b",
                         re.IGNORECASE)
"""A legend under a title, not its period: ``(in millions, except per share amounts)``, ``(unaudited)``."""
AUDITOR_REPORT = r"reports? of independent registered public accounting firm"
"""The auditor's report's title (PCAOB), as a regex fragment."""
STATEMENT_TITLE = re.compile(
    rf"^{COMPANY}(?:{AUDITOR_REPORT}|"
    r"(?:condensed )?(?:consolidated |combined )?(?:condensed )?(?:statements? of (?:income|operations|earnings|"
    r"comprehensive|cash flows?|financial (?:position|condition)|changes in|"
    r"(?:stockholders|shareholders|shareowners|members)|(?:total )?equity)|balance sheets?))", re.IGNORECASE)
"""A financial statement's or the auditor's report's title, the registrant's name before it optional
(``Consolidated Statements of Total Equity and Redeemable Interest``, ``... of Shareowners' Equity``)."""

