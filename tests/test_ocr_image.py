"""What a page image shows, from its pixels (``treebuild.readers.ocr_image``): light text on dark boxes, dot
leaders, stroke widths. Pages are drawn here with PyMuPDF and rendered as the OCR reader renders them; no OCR
engine is needed."""

from __future__ import annotations

import random

import pymupdf

from treebuild.readers.ocr import PageImage
from treebuild.readers.ocr_image import dark_boxes, dark_pixels, find_leader, invert_dark_boxes, stroke_counts
from treebuild.readers.ocr_pages import BLANK_DARK_PIXELS, OCR_DPI, render_page


def _render(draw: object, dpi: int = OCR_DPI) -> PageImage:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=200)
    draw(page)  # type: ignore[operator]
    return render_page(page, dpi)


def _label_in_a_dark_box(page: pymupdf.Page) -> None:
    page.draw_rect(pymupdf.Rect(20, 20, 90, 44), color=None, fill=(0.25, 0.25, 0.25))
    page.insert_text((26, 38), "Note 4 :", fontsize=12, color=(1, 1, 1))
    page.insert_text((100, 38), "Earnings per share", fontsize=12)
    page.insert_text((20, 80), "Body text in black on white paper, as most of a page is.", fontsize=10)


def test_a_dark_box_holding_light_text_is_found_and_turned_dark_on_white() -> None:
    image = _render(_label_in_a_dark_box)
    [box] = dark_boxes(image)
    scale = image.dpi / 72
    assert abs(box.x0 - 20 * scale) <= 3 and abs(box.x1 - 90 * scale) <= 3
    assert abs(box.y0 - 20 * scale) <= 3 and abs(box.y1 - 44 * scale) <= 3
    assert abs(box.fill - 64) <= 4  # 0.25 grey
    turned, boxes = invert_dark_boxes(image)
    assert boxes == [box]
    grey = turned.samples
    inside = [grey[y * turned.width + x] for y in range(box.y0, box.y1) for x in range(box.x0, box.x1)]
    dark = sum(1 for v in inside if v < 128)
    assert 0.03 * len(inside) < dark < 0.4 * len(inside)  # the letters, now dark on white
    outside = turned.samples[:box.y0 * turned.width]
    assert outside == image.samples[:box.y0 * image.width]  # the rest of the page is untouched


def test_boxes_without_text_rules_pictures_and_text_are_left_alone() -> None:
    def page_of_other_things(page: pymupdf.Page) -> None:
        page.draw_rect(pymupdf.Rect(20, 20, 120, 50), color=None, fill=(0.1, 0.1, 0.1))  # a plain dark bar
        page.draw_line((20, 70), (380, 70), width=2)  # a rule
        page.insert_text((20, 110), "Heading in large bold type", fontsize=28, fontname="hebo")
        noise = random.Random(7)  # a photograph: dark shades with light spots, no flat fill
        shades = bytes(min(255, max(0, 20 + 2 * x + 2 * y + noise.randint(-40, 40) + (160 if noise.random() < 0.1
                                                                                      else 0)))
                       for y in range(64) for x in range(64))
        page.insert_image(pymupdf.Rect(250, 120, 330, 190), pixmap=pymupdf.Pixmap(pymupdf.csGRAY, 64, 64, shades, 0))

    image = _render(page_of_other_things)
    assert dark_boxes(image) == []
    assert invert_dark_boxes(image)[0] is image


def test_a_box_found_inside_another_is_not_turned_twice() -> None:
    def title_bar(page: pymupdf.Page) -> None:
        page.draw_rect(pymupdf.Rect(10, 10, 390, 50), color=None, fill=(0.3, 0.3, 0.3))
        page.insert_text((16, 40), "Consolidated Condensed Statements of Income", fontsize=20, color=(1, 1, 1))

    boxes = dark_boxes(_render(title_bar))
    assert len(boxes) == 1


LEADER_ROW = "2.1 Introduction" + "." * 60 + "10"


def test_a_dense_dot_leader_is_found_between_the_title_and_its_page() -> None:
    def row(page: pymupdf.Page) -> None:
        page.insert_text((20, 40), LEADER_ROW, fontsize=11)
        page.insert_text((20, 80), "A line of ordinary words, with a period at its end.", fontsize=11)

    image = _render(row)
    scale = image.dpi / 72
    font = pymupdf.Font("helv")
    title_end = 20 + font.text_length("2.1 Introduction", 11)
    page_start = 20 + font.text_length("2.1 Introduction" + "." * 60, 11)
    leader = find_leader(image, (20 * scale, 30 * scale, 380 * scale, 43 * scale))
    assert leader is not None and 55 <= leader.dots <= 60
    assert abs(leader.x0 - title_end * scale) <= 2 * scale and abs(leader.x1 - page_start * scale) <= 2 * scale
    assert find_leader(image, (20 * scale, 70 * scale, 380 * scale, 83 * scale)) is None


def test_strokes_of_bold_type_are_wider() -> None:
    def two_lines(page: pymupdf.Page) -> None:
        page.insert_text((20, 40), "Harbour master", fontsize=14)
        page.insert_text((20, 80), "Harbour master", fontsize=14, fontname="hebo")

    image = _render(two_lines)
    scale = image.dpi / 72
    regular = stroke_counts(image, (20 * scale, 28 * scale, 150 * scale, 44 * scale))
    bold = stroke_counts(image, (20 * scale, 68 * scale, 150 * scale, 84 * scale))
    assert regular[1] > 0 and bold[1] > 0
    assert bold[0] / bold[1] > 1.25 * regular[0] / regular[1]


def test_a_page_holding_only_rules_is_blank_for_ocr() -> None:
    def rules(page: pymupdf.Page) -> None:
        page.draw_line((20, 30), (380, 30), width=0.8)  # a running head's rule
        page.draw_line((200, 40), (200, 190), width=0.8)  # a column rule

    def a_word(page: pymupdf.Page) -> None:
        rules(page)
        page.insert_text((20, 100), "Harbour", fontsize=12)

    assert dark_pixels(_render(rules)) == 0
    assert dark_pixels(_render(a_word)) > BLANK_DARK_PIXELS


def test_cells_of_one_row_get_the_row_s_type_size() -> None:
    """A label cell whose words the engine boxed over two rows (a wrapped label beside one row of figures) would
    read twice its size alone; its row's words say the size."""
    from treebuild.readers.ocr import OcrLine, OcrWord
    from treebuild.readers.ocr_pages import ocr_layout

    def word(text: str, x: float, height: float) -> OcrWord:
        return OcrWord(text, (x, 100.0, x + 10 * len(text), 100.0 + height), 0.9)

    words = (word("Adjusted", 100, 80), word("Other", 190, 80), *(word(f"({n})", 600 + 200 * k, 31)
                                                                   for k, n in enumerate((551, 377, 1079, 783))))
    page = ocr_layout([OcrLine(" ".join(w.text for w in words), (100, 100, 1400, 180), 0.9, 1, words)], 300)
    assert [ln.text for ln in page.lines] == ["Adjusted Other", "(551)", "(377)", "(1079)", "(783)"]
    assert {ln.size for ln in page.lines} == {8.0}  # 31 px at 300 dpi over the ratio of ( and digits


def test_a_dark_picture_is_not_taken_for_rules() -> None:
    def dark_cover(page: pymupdf.Page) -> None:  # a cover picture: dark all over, with light lettering
        page.draw_rect(page.rect, color=None, fill=(0.1, 0.1, 0.2))
        page.insert_text((40, 100), "Annual Report", fontsize=30, color=(1, 1, 1))

    assert dark_pixels(_render(dark_cover)) > BLANK_DARK_PIXELS
