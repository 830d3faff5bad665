"""The PDF's embedded outline (bookmarks) as a structure source.

- ``quality``: whether the outline is worth trusting (junk entries, flat or partial outlines);
- ``marks``: outline entries to marks, placed where the destination point falls on its page.
"""
