"""Headings read from the type: size, weight, style, position and numbering of the lines.

- ``headings``: the scan (``scan_headings``) and its marks; the package's public face;
- ``model``: the records (a row of joined lines, the body's type, a heading, the scan's result) and
  the ``TitleBlock`` hook a caller passes to read a page's title block (the filing package's);
- ``rows``: lines joined into rows, the body's type measured (a line's weight, slant, spacing and
  typeface are the reader's: ``Line.bold``, ``italic``, ``mono``, ``family``);
- ``candidates``: the headings of one page (runs of rows that stand out and start their block);
- ``filters``: what stands out without being a heading (running text, captions, tables, code,
  running titles, repeated headers);
- ``levels``: the document's title and minor headings set aside, then a level for each heading.
"""
