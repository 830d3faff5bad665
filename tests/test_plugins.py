"""A reader, a structure source and a navigator added by a package through entry points only.

``tests/plugins/ledger`` is such a package (its ``pyproject.toml`` registers a ``.ledger`` reader, a
source for its ``§`` sections and the navigator ``ledger-titles``); the ``.dist-info`` beside it is what
installing it writes, so each test runs treebuild in a subprocess with that folder on ``PYTHONPATH``
(fast, and the test process and the venv stay as they were). Also: treebuild's own readers and sources
are entry points, resolved in name order; a name two packages register is an error naming both.
"""

from __future__ import annotations

import configparser
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from treebuild.plugins import PluginError, load_group
from treebuild.query.spi import ENTRY_POINT_GROUP as NAVIGATORS_GROUP
from treebuild.readers import ENTRY_POINT_GROUP as READERS_GROUP
from treebuild.structure.policy import BUILT_IN_SOURCES
from treebuild.structure.registry import ENTRY_POINT_GROUP as SOURCES_GROUP
from treebuild.structure.registry import installed_sources

PLUGIN = Path(__file__).parent / "plugins" / "ledger"
LEDGER = """Opening words of the ledger, before its first section.

§ Receipts

Money that came in during the year.

§§ Donations

Gifts from members.

§ Expenses

Money that went out.
"""


def _run(code: str, *, plugin: bool = True) -> dict[str, Any]:
    env = dict(os.environ)
    if plugin:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PLUGIN), env.get("PYTHONPATH", "")) if p)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


_BUILD = """
import json, sys
import treebuild
from treebuild.pipeline import build_doc
from treebuild.readers import read, SUPPORTED_SUFFIXES
from treebuild.settings import BuildSettings
from treebuild.store import Store
tree = build_doc(read(sys.argv[1] if len(sys.argv) > 1 else {path!r}), BuildSettings())
store = Store({store!r})
store.commit(tree, doc_id="ledger", settings_hash=BuildSettings().hash())
back = store.tree("ledger")
found = treebuild.navigate("What came in as donations?", store, navigator="ledger-titles")
print(json.dumps({{"format": str(tree.doc.format), "method": tree.method, "stored_format": str(back.doc.format),
                  "titles": [(n.depth, n.title) for n in tree.walk()], "suffixes": list(SUPPORTED_SUFFIXES),
                  "navigator": found.navigator, "passages": [(p.title, p.text) for p in found.passages]}}))
"""


def test_a_plugin_package_adds_a_reader_a_source_and_a_navigator(tmp_path: Path) -> None:
    path = tmp_path / "club.ledger"
    path.write_text(LEDGER, encoding="utf-8")
    got = _run(_BUILD.format(path=str(path), store=str(tmp_path / "store")))
    assert got["format"] == got["stored_format"] == "ledger"
    assert ".ledger" in got["suffixes"] and ".pdf" in got["suffixes"]  # treebuild's own readers are still there
    assert got["method"] == "headings"
    assert [t for _, t in got["titles"]] == ["Preface", "Receipts", "Donations", "Expenses"]
    depths = dict((t, d) for d, t in got["titles"])
    assert depths["Donations"] == depths["Receipts"] + 1
    assert got["navigator"] == "ledger-titles"  # resolved from the plug-in's entry point
    assert [(t, x.split()[:3]) for t, x in got["passages"]] == [
        ("Donations", ["§§", "Donations", "Gifts"])]


def test_the_plugins_installed_entry_points_are_the_ones_its_pyproject_declares() -> None:
    declared = tomllib.loads((PLUGIN / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    installed = configparser.ConfigParser(delimiters=("=",))
    installed.optionxform = str  # type: ignore[assignment,method-assign]
    installed.read(PLUGIN / "treebuild_ledger_plugin-0.1.dist-info" / "entry_points.txt", encoding="utf-8")
    assert {g: dict(installed[g]) for g in installed.sections()} == declared
    assert set(declared) == {READERS_GROUP, SOURCES_GROUP, NAVIGATORS_GROUP}


def test_without_the_plugin_the_format_is_unsupported(tmp_path: Path) -> None:
    path = tmp_path / "club.ledger"
    path.write_text(LEDGER, encoding="utf-8")
    code = ("import json\nfrom treebuild.errors import UnsupportedFormat\nfrom treebuild.readers import read\n"
            f"try:\n    read({str(path)!r})\nexcept UnsupportedFormat as exc:\n"
            "    print(json.dumps({'error': str(exc)}))\n")
    got = _run(code, plugin=False)
    assert "unsupported file type '.ledger'" in str(got["error"])


def test_treebuild_registers_its_own_readers_and_sources_as_entry_points() -> None:
    assert [name for name, _ in installed_sources()] == sorted(name for name, _ in BUILT_IN_SOURCES)
    assert {name: type(s) for name, s in installed_sources()} == {name: type(s) for name, s in BUILT_IN_SOURCES}
    readers = load_group(READERS_GROUP)
    assert [name for name, _ in readers.plugins] == ["docx", "html", "markdown", "pdf", "text"] and not readers.broken


def test_a_name_registered_twice_is_an_error_naming_both(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    for dist in ("one", "two"):
        info = site / f"clash_{dist}-1.0.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: clash-{dist}\nVersion: 1.0\n", encoding="utf-8")
        (info / "entry_points.txt").write_text(f"[{SOURCES_GROUP}]\ntoc = clash_{dist}:Source\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    with pytest.raises(PluginError) as err:
        load_group(SOURCES_GROUP)
    assert "clash_one:Source" in str(err.value) and "clash_two:Source" in str(err.value)
    assert "treebuild.structure.sources:TocSource" in str(err.value)
