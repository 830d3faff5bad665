"""Trees in and out in other tools' formats: :mod:`.export` writes PageIndex-format JSON and plain outlines
(``treebuild build``, ``show``, ``export``); :mod:`.pageindex` reads a PageIndex tree back and stores it as a
version of its document (``treebuild import-pageindex``).

Import the module you need (``from treebuild.interop.export import to_pageindex``): this package imports
neither, so ``treebuild show`` loads the light export module without the reader and store that the import
needs.
"""
