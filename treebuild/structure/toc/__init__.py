"""The printed table of contents as a structure source.

- ``detect``: find the TOC pages (visual rows, contents titles, right-aligned page numbers);
- ``parse``: read the rows as entries (title, printed page, numbering label, level);
- ``pagemap``: printed page references to physical pages (labels, folios, a voted offset);
- ``place``: verify each entry by finding its heading on or near its page;
- ``marks``: the pipeline that turns a TOC into marks (``toc_marks``).
"""
