"""SEC filings (10-K, 10-Q, annual reports): the filing structure source and what it needs.

``items``: Parts and Items recognised by pattern on the body pages; ``tail``: the sections after
the last Item (Signatures, the financial statements placed from their own index page, Exhibits
one by one); ``statements``: statements and notes inside an Item; ``subsections``: which body
headings nest under the Items (looks ranked by prominence, MD&A always read); ``source``: the
:class:`~treebuild.structure.filing.source.FilingSource` the cascade asks (a skeleton source that
claims filings; its proposal's hooks lay the headings out); ``title_block``: a statement page's
title block, the typography scan's hook; ``patterns``: the filings' wording; ``confidence``.
"""
