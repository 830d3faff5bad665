"""Bad inputs: each gives the exact error (or warning) that ``docs/bad-inputs.md`` documents.

Every case builds its file for real (PyMuPDF, python-docx, zipfile, os.symlink), runs it through
the CLI, and checks the one-line message; the documentation test checks that the page lists each
message verbatim, so the page and the behaviour cannot drift apart.
"""

from __future__ import annotations

import os
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import docx
import pymupdf
import pytest
from docgen import scanned_pdf
from typer.testing import CliRunner

from treebuild.cli import app
from treebuild.ingestion import ingest_many
from treebuild.readers.docx import _unpacked_size
from treebuild.readers.ocr import OcrUnavailable, engine
from treebuild.store import Store

runner = CliRunner()
DOC_UNPACKED_MB = "64.8"  # the zip bomb's size as the page shows it: 64 MiB of zeros plus python-docx's template
DOCS = Path(__file__).resolve().parent.parent / "docs" / "bad-inputs.md"


def _pdf(path: Path, pages: int = 3) -> Path:
    doc = pymupdf.open()
    for i in range(pages):
        page = doc.new_page()
        page.insert_text((72, 72), f"Section {i + 1}", fontsize=16)
        page.insert_text((72, 110), f"Body text of page {i + 1}. " * 4, fontsize=10)
    doc.save(path)
    return path


def _docx(path: Path) -> Path:
    document = docx.Document()
    document.add_heading("Scope", level=1)
    document.add_paragraph("This policy applies to everyone.")
    document.save(str(path))
    return path


def empty(tmp: Path) -> Path:
    (tmp / "empty.pdf").write_bytes(b"")
    return tmp / "empty.pdf"


def truncated(tmp: Path) -> Path:
    data = _pdf(tmp / "whole.pdf").read_bytes()
    (tmp / "truncated.pdf").write_bytes(data[: len(data) // 2])
    return tmp / "truncated.pdf"


def random_bytes(tmp: Path) -> Path:
    (tmp / "random.pdf").write_bytes(bytes(range(256)) * 16)
    return tmp / "random.pdf"


def encrypted(tmp: Path) -> Path:
    doc = pymupdf.open(_pdf(tmp / "plain.pdf"))
    doc.save(tmp / "encrypted.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="s3cret", owner_pw="owner")
    return tmp / "encrypted.pdf"


def zero_pages(tmp: Path) -> Path:
    (tmp / "zero.pdf").write_bytes(b"%PDF-1.4\n1 0 obj\n<</Type/Catalog/Pages 2 0 R>>\nendobj\n2 0 obj\n"
                                   b"<</Type/Pages/Kids[]/Count 0>>\nendobj\ntrailer\n<</Root 1 0 R>>\n%%EOF\n")
    return tmp / "zero.pdf"


def pages_missing(tmp: Path) -> Path:
    """A page tree whose /Count says 5 over 3 pages: MuPDF counts 5 and cannot load the 4th."""
    doc = pymupdf.open()
    for i in range(3):
        doc.new_page().insert_text((72, 72), f"Page {i + 1} of a short report.")
    data = doc.tobytes(garbage=0, deflate=False, no_new_id=True)
    assert data.count(b"/Count 3") == 1
    (tmp / "pages-missing.pdf").write_bytes(data.replace(b"/Count 3", b"/Count 5"))
    return tmp / "pages-missing.pdf"


def image_only(tmp: Path) -> Path:
    return scanned_pdf(tmp / "scan.pdf")


# The image-only row's warning, with an OCR engine installed (OCR finds no writing in the images) and without one
# (a venv set up without TREEBUILD_SETUP_OCR=1: the pages were not read, and the warning says what to install).
IMAGE_ONLY = {True: "no text on 2 of 2 pages, OCR included",
              False: "2 of 2 pages have no usable text layer and were not read: "}


def _ocr_installed() -> bool:
    try:
        engine()
    except OcrUnavailable:
        return False
    return True


def zip_bomb(tmp: Path) -> Path:
    """A real DOCX plus a 64 MiB part of zeros (about 64 KiB zipped) under a 16 MiB unpacked cap."""
    src = _docx(tmp / "small.docx")
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(tmp / "bomb.docx", "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            zout.writestr(item, zin.read(item.filename))
        with zout.open("word/media/padding.bin", "w") as fh:
            chunk = b"\0" * (1 << 20)
            for _ in range(64):
                fh.write(chunk)
    return tmp / "bomb.docx"


def corrupt_docx(tmp: Path) -> Path:
    src = _docx(tmp / "good.docx")
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(tmp / "corrupt.docx", "w") as zout:
        for item in zin.infolist():
            data = b"<w:document><unclosed" if item.filename == "word/document.xml" else zin.read(item.filename)
            zout.writestr(item, data)
    return tmp / "corrupt.docx"


def encrypted_docx(tmp: Path) -> Path:
    """A real password-protected DOCX: the package encrypted into an OLE2 file (ECMA-376 agile encryption,
    what Word writes), made with msoffcrypto-tool from a python-docx document."""
    from msoffcrypto.format.ooxml import OOXMLFile

    plain = _docx(tmp / "plain.docx")
    with open(plain, "rb") as src, open(tmp / "locked.docx", "wb") as out:
        OOXMLFile(src).encrypt("s3cret", out)
    plain.unlink()
    return tmp / "locked.docx"


def legacy_doc(tmp: Path) -> Path:
    """An OLE2 compound file that is no encrypted package (a legacy .doc), named .docx."""
    header = bytes.fromhex("d0cf11e0a1b11ae1") + b"\0" * 504
    (tmp / "old.docx").write_bytes(header + b"\0" * 1024)
    return tmp / "old.docx"


def non_utf8_markdown(tmp: Path) -> Path:
    (tmp / "latin.md").write_bytes("# Caf\xe9 menu\n\nCr\xe8me br\xfbl\xe9e.\n".encode("latin-1"))
    return tmp / "latin.md"


def binary_html(tmp: Path) -> Path:
    (tmp / "page.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 16)
    return tmp / "page.html"


def nested_html(tmp: Path) -> Path:
    (tmp / "nested.html").write_text("<html><body>" + "<div>" * 10_000 + "deep" + "</div>" * 10_000 + "</body></html>")
    return tmp / "nested.html"


def large_html(tmp: Path) -> Path:
    paragraph = "<p>" + "Text of a very long page. " * 40 + "</p>"
    (tmp / "large.html").write_text("<html><body>" + paragraph * ((3 << 20) // len(paragraph)) + "</body></html>")
    return tmp / "large.html"


def non_utf8_html(tmp: Path) -> Path:
    (tmp / "latin.html").write_bytes("<html><body><h1>Caf\u00e9</h1><p>cr\u00e8me</p></body></html>".encode("latin-1"))
    return tmp / "latin.html"


def wrong_extension(tmp: Path) -> Path:
    return _pdf(tmp / "report.docx")


def directory_named_like_a_file(tmp: Path) -> Path:
    (tmp / "folder.pdf").mkdir()
    return tmp / "folder.pdf"


def symlink_loop(tmp: Path) -> Path:
    os.symlink(tmp / "b.pdf", tmp / "a.pdf")
    os.symlink(tmp / "a.pdf", tmp / "b.pdf")
    return tmp / "a.pdf"


# case -> (make the file, extra CLI args, exit code of `treebuild build`, exact message)
CASES: dict[str, tuple[Callable[[Path], Path], list[str], int, str]] = {
    "empty": (empty, [], 1, "file is empty (0 bytes) (export or download it again)"),
    "truncated": (truncated, [], 1, "PDF is truncated (no %%EOF at the end; only part of it could be recovered) "
                                    "(download or export the file again)"),
    "random bytes": (random_bytes, [], 1, "not a PDF file (no %PDF- header at its start) "
                                          "(the file is damaged or has the wrong extension)"),
    "encrypted, no password": (encrypted, [], 1, "PDF is password-protected (pass its password with --password or "
                                                 "TREEBUILD_PDF_PASSWORD, or decrypt it first with qpdf --decrypt)"),
    "encrypted, wrong password": (encrypted, ["--password", "guess"], 1, "wrong password for this encrypted PDF "
                                  "(check the --password value or TREEBUILD_PDF_PASSWORD)"),
    "encrypted, right password": (encrypted, ["--password", "s3cret"], 0, "wrote "),
    "zero pages": (zero_pages, [], 1, "PDF has no pages (export or download it again)"),
    "pages missing from the page tree": (pages_missing, [], 1, "the page tree lists 5 pages but page 4 cannot be "
                                         "read: page not in document (the file is damaged or uses what MuPDF cannot "
                                         "read: download it again, or print it to a new PDF)"),
    "image-only": (image_only, [], 0, "warning   {path}: {image_only}"),
    "zip bomb DOCX": (zip_bomb, [], 1, "unpacked size {unpacked} MB is over the limit of 16 MB (a zip bomb, or a huge "
                                       "document) (raise it with TREEBUILD_MAX_UNPACKED_MB if the document is "
                                       "genuine)"),
    "corrupt DOCX": (corrupt_docx, [], 1, "cannot open DOCX: "),
    "encrypted DOCX, no password": (encrypted_docx, [], 1, "DOCX is password-protected (pass its password with "
                                    "--password or TREEBUILD_PDF_PASSWORD, or save it without a password in Word or "
                                    "LibreOffice)"),
    "encrypted DOCX, wrong password": (encrypted_docx, ["--password", "guess"], 1, "wrong password for this "
                                       "encrypted DOCX (check the --password value or TREEBUILD_PDF_PASSWORD)"),
    "encrypted DOCX, right password": (encrypted_docx, ["--password", "s3cret"], 0, "wrote "),
    "legacy .doc named .docx": (legacy_doc, [], 1, "legacy Word file (an OLE2 container such as .doc), not a .docx "
                                                   "(save it as .docx in Word or LibreOffice)"),
    "non-UTF-8 Markdown": (non_utf8_markdown, [], 0, "warning   {path}: not valid UTF-8; read as Latin-1 (save it as "
                                                     "UTF-8 if characters look wrong)"),
    "binary file named .html": (binary_html, [], 1, "binary content (a PNG image), not HTML (check the file's real "
                                                    "type and rename it)"),
    "10,000 nested elements": (nested_html, [], 1, "elements nested more than 512 deep (the page is malformed or "
                                                   "generated to exhaust parsers; browsers flatten it)"),
    "HTML over the size cap": (large_html, [], 1, "HTML file size 3.0 MB is over the limit of 2 MB (raise it with "
                                                  "TREEBUILD_MAX_HTML_MB if the document is genuine)"),
    "non-UTF-8 HTML": (non_utf8_html, [], 0, "warning   {path}: no declared encoding and not valid UTF-8; read as "
                                             "windows-1252"),
    "wrong extension": (wrong_extension, [], 1, "content is a PDF, but the name ends in .docx "
                                                "(rename it to its real extension)"),
    "directory named like a file": (directory_named_like_a_file, [], 1, "is a directory, not a file (pass the "
                                    "folder to `treebuild ingest`, which reads the files inside it)"),
    "symlink loop": (symlink_loop, [], 1, "symbolic link loop (fix or remove the link)"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_gives_its_documented_message(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make, args, code, message = CASES[case]
    monkeypatch.setenv("TREEBUILD_MAX_UNPACKED_MB", "16")
    monkeypatch.setenv("TREEBUILD_MAX_HTML_MB", "2")
    path = make(tmp_path)
    res = runner.invoke(app, ["build", str(path), "-o", str(tmp_path / "out.json"), *args])
    output = " ".join(res.output.split())
    assert res.exit_code == code, res.output
    unpacked = f"{_unpacked_size(path) / (1 << 20):.1f}" if "{unpacked}" in message else ""
    image = IMAGE_ONLY[_ocr_installed()] if "{image_only}" in message else ""
    assert " ".join(message.format(path=path, unpacked=unpacked, image_only=image).split()) in output, res.output
    assert "Traceback" not in output
    if code == 1:
        assert f"error: {path}: " in output  # every error names the file first


def test_ingest_goes_on_past_every_bad_input_and_leaves_no_lock(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TREEBUILD_MAX_UNPACKED_MB", "16")
    monkeypatch.setenv("TREEBUILD_MAX_HTML_MB", "2")
    folder = tmp_path / "in"
    folder.mkdir()
    for i, (make, args, _code, _msg) in enumerate(CASES.values()):
        if not args:
            sub = folder / f"c{i:02d}"
            sub.mkdir()
            make(sub)
    (folder / "ok.md").write_text("# Fine\n\ntext\n")
    store = tmp_path / "s"
    res = runner.invoke(app, ["ingest", str(folder), "--store", str(store), "--doc-id-from-path"])
    assert res.exit_code == 1
    assert "ok" in [d.doc_id for d in Store(store).documents()]
    errors = [line for line in res.output.splitlines() if line.startswith("error ")]
    assert len(errors) >= 9 and all(str(folder) in e for e in errors)
    assert not [p for p in store.rglob("*") if "folder" in p.name]  # a folder is searched, never locked


def test_file_removed_mid_ingest_is_reported_and_the_batch_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("a", "b", "c"):
        (folder / f"{name}.md").write_text(f"# {name}\n\ntext {name}\n")

    def remove_next(res: object) -> None:
        victim = folder / "b.md"
        if victim.exists():
            victim.unlink()

    results = ingest_many([folder], tmp_path / "s", on_result=remove_next)
    assert [(Path(r.path).name, str(r.status)) for r in results] == [
        ("a.md", "created"), ("b.md", "error"), ("c.md", "created")]
    assert results[1].error == f"{folder / 'b.md'}: file not found (check the path)"


def test_encrypted_docx_is_decrypted_in_memory_with_its_password(tmp_path: Path) -> None:
    from treebuild.readers import read
    from treebuild.readers.common import file_digest

    path = encrypted_docx(tmp_path)
    doc = read(path, password="s3cret")
    assert [(u.kind, u.text) for u in doc.units] == [("heading", "Scope"),
                                                     ("paragraph", "This policy applies to everyone.")]
    assert doc.sha256 == file_digest(path)[0]  # the source is the file as stored: encrypted
    assert not list(tmp_path.glob("*.docx.*")) and [p.name for p in tmp_path.iterdir()] == ["locked.docx"]


def test_docs_list_every_case_with_its_exact_message() -> None:
    page = " ".join(DOCS.read_text(encoding="utf-8").split())
    for case, (_make, _args, _code, message) in CASES.items():
        assert f"| {case} |" in page, f"{case} missing from {DOCS.name}"
        if message == "wrote ":
            continue  # builds normally
        text = re.sub(r"^warning +\{path\}: ", "", message).replace("{unpacked}", DOC_UNPACKED_MB)
        for variant in IMAGE_ONLY.values() if "{image_only}" in text else [""]:
            shown = " ".join(text.replace("{image_only}", variant).split())
            assert shown in page, f"message of {case!r} missing from {DOCS.name}: {shown}"
    assert "file not found (check the path)" in page


def test_limits_name_the_file_and_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = _pdf(tmp_path / "long.pdf", pages=3)
    monkeypatch.setenv("TREEBUILD_MAX_PAGES", "2")
    res = runner.invoke(app, ["build", str(pdf)])
    assert res.exit_code == 1
    assert (f"{pdf}: page count 3 is over the limit of 2 pages (raise it with TREEBUILD_MAX_PAGES if the "
            "document is genuine)") in " ".join(res.output.split())
    monkeypatch.delenv("TREEBUILD_MAX_PAGES")
    monkeypatch.setenv("TREEBUILD_MAX_FILE_MB", "0.001")
    res = runner.invoke(app, ["build", str(pdf)])
    assert res.exit_code == 1 and "file size" in res.output and "TREEBUILD_MAX_FILE_MB" in res.output
    monkeypatch.delenv("TREEBUILD_MAX_FILE_MB")
    md = tmp_path / "many.md"
    md.write_text("".join(f"paragraph {i}\n\n" for i in range(50)))
    monkeypatch.setenv("TREEBUILD_MAX_UNITS", "10")
    res = runner.invoke(app, ["build", str(md)])
    assert res.exit_code == 1 and "unit count (pages, paragraphs, tables) 50 is over the limit of 10" in res.output
    monkeypatch.delenv("TREEBUILD_MAX_UNITS")
    monkeypatch.setenv("TREEBUILD_MAX_CHARS", "100")
    res = runner.invoke(app, ["build", str(md)])
    assert res.exit_code == 1 and "text length" in res.output and "TREEBUILD_MAX_CHARS" in res.output


def test_default_limits_take_a_5000_page_pdf() -> None:
    from treebuild.settings import Limits

    limits = Limits()
    pages, chars_per_page, bytes_per_page = 5_000, 6_000, 60_000  # dense text pages, generous per-page bytes
    assert limits.max_pages >= pages and limits.max_units >= pages
    assert limits.max_chars >= pages * chars_per_page and limits.max_file_bytes >= pages * bytes_per_page


def test_zip_bomb_is_measured_from_the_zip_directory(tmp_path: Path) -> None:
    """The unpacked size comes from the zip directory: the bomb is refused without inflating it."""
    bomb = zip_bomb(tmp_path)
    assert bomb.stat().st_size < 1 << 20 and _unpacked_size(bomb) >= 64 << 20


def test_caps_are_checked_before_the_file_is_hashed_or_locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import treebuild.ingestion as ingestion

    def no_hashing(path: Path) -> tuple[str, int]:
        raise AssertionError(f"{path} was hashed before its size was checked")

    monkeypatch.setattr(ingestion, "file_digest", no_hashing)
    monkeypatch.setenv("TREEBUILD_MAX_FILE_MB", "0.001")
    pdf = _pdf(tmp_path / "big.pdf")
    results = ingest_many([pdf], tmp_path / "s")
    assert results[0].error is not None and "file size" in results[0].error
    assert not [p for p in (tmp_path / "s").rglob("*") if p.name.startswith("big")]
