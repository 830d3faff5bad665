"""Headings read from the type: size, weight, style, position and numbering of the lines.

- ``headings``: the scan (``scan_headings``) and the heading record, turned into marks.
"""
