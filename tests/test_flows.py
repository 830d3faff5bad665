"""Real Prefect flow runs of the backfill and scheduled ingest flows.

One Prefect server for the module (``prefect_test_harness`` on a free port, temporary
PREFECT_HOME from conftest, analytics off); worker processes, the CLI, ``prefect deploy`` and a
process worker reach it through ``PREFECT_API_URL``. Documents are generated here: PDFs with
PyMuPDF, Markdown, and broken files.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from docgen import write_pdf
from openai_server import OpenAIServer, Reply, Request, echo_summaries

from treebuild.errors import ReadError, StoreError
from treebuild.orchestrate.sources import manifest, split_duplicates
from treebuild.orchestrate.tasks import is_transient
from treebuild.store import Store

ROOT = Path(__file__).resolve().parent.parent
POLL_SECONDS = 0.5  # how often the tests read a deployment run's state (run_deployment's default, 5 s, was idle time)


@pytest.fixture(scope="module")
def prefect_api() -> Iterator[str]:
    """The module's Prefect API URL (one local server for every flow test; only this module uses one).

    Module scope, not session: leaving the harness drains Prefect's log and event worker threads, so they do
    not run on (and touch the global ``random`` state, which hypothesis reports as a deprecated use of
    ``random`` inside a strategy) while later modules' property tests draw their examples."""
    from prefect.settings import PREFECT_API_URL
    from prefect.testing.utilities import prefect_test_harness

    # A worker refused a global-concurrency slot waits as long as the server's Retry-After says: up to 30 s by
    # default, scaled by the limit's average occupancy (2 s before any slot is released). The test server
    # caps it at half a second, so the limit test waits about as long as its requests take.
    os.environ.setdefault("PREFECT_SERVER_CONCURRENCY_MAXIMUM_CONCURRENCY_SLOT_WAIT_SECONDS", "0.5")
    # The server registers every installed block type at start (seconds of its start-up); no test here saves
    # or reads a block document (results and caches use the local default storage).
    os.environ.setdefault("PREFECT_API_BLOCKS_REGISTER_ON_START", "false")
    with prefect_test_harness(server_startup_timeout=120):
        url = PREFECT_API_URL.value()
        assert url and url.startswith("http://127.0.0.1:")
        yield url


def _env(api: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "TREEBUILD_STORE"}
    return {**env, "PREFECT_API_URL": api, "PREFECT_SERVER_ANALYTICS_ENABLED": "false", **extra}


def _pdf(path: Path, title: str, pages: int = 3) -> Path:
    body = [[f"{title} part {k}" if k % 2 == 0 else f"Body text of {title}, page {k}."] + [
        f"Line {i} of page {k} of {title}." for i in range(12)] for k in range(pages)]
    toc = [[1, f"{title} part {k}", k + 1] for k in range(0, pages, 2)]
    return write_pdf(path, body, toc=toc)


def _corpus(folder: Path, *, good: int, broken: bool = True, pages: int = 3) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for i in range(good):
        _pdf(folder / f"report{i}.pdf", f"Report {i}", pages)
        names.append(f"report{i}")
    (folder / "notes.md").write_text("# Notes\n\nalpha\n\n## Details\n\nbeta gamma\n")
    names.append("notes")
    if broken:
        (folder / "broken.pdf").write_bytes(b"%PDF-1.4 truncated")
        (folder / "empty.docx").write_bytes(b"")
    return sorted(names)


def _artifacts(flow_run_id: Any) -> dict[str, Any]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterFlowRunId

    with get_client(sync_client=True) as client:
        found = client.read_artifacts(artifact_filter=ArtifactFilter(
            flow_run_id=ArtifactFilterFlowRunId(any_=[flow_run_id])))
    return {a.key: a for a in found}


def test_backfill_fails_loudly_commits_the_rest_and_reruns_create_nothing(prefect_api: str, tmp_path: Path) -> None:
    """Process pool of 2: broken files fail only themselves; the run is Failed naming them; artifacts."""
    import json

    from treebuild.orchestrate.backfill import backfill

    names = _corpus(tmp_path / "docs", good=3)
    store = tmp_path / "store"
    state = backfill([str(tmp_path / "docs")], store=str(store), workers=2, meta={"batch": "b1"},
                     return_state=True)
    assert state.is_failed()
    assert "2 of 6 document(s) failed" in (state.message or "")
    assert "broken.pdf" in (state.message or "") and "empty.docx" in (state.message or "")
    st = Store(store)
    assert sorted(d.doc_id for d in st.documents()) == names
    assert st.tree("report0").meta == {"batch": "b1"}

    arts = _artifacts(state.state_details.flow_run_id)
    table = json.loads(arts["treebuild-backfill"].data)
    by_name = {Path(r["document"]).name: r for r in table}
    assert by_name["broken.pdf"]["status"] == "failed" and "broken.pdf" in by_name["broken.pdf"]["error"]
    assert by_name["empty.docx"]["status"] == "failed"
    assert by_name["report1.pdf"]["status"] == "created" and by_name["report1.pdf"]["version"] == 1
    assert by_name["report1.pdf"]["pages"] == 3 and by_name["report1.pdf"]["method"] == "outline"
    assert set(by_name["report1.pdf"]) == {"document", "status", "version", "pages", "nodes", "method", "seconds",
                                           "calls", "tokens", "error", "warnings"}
    assert isinstance(by_name["report1.pdf"]["warnings"], str)  # the build's warnings, joined with "; "
    summary = arts["treebuild-backfill-summary"].data
    assert "broken.pdf" in summary and "| 6 | 4 | 0 | 2 |" in summary
    assert arts["treebuild-backfill-progress"].data == 100.0

    again = backfill([str(tmp_path / "docs")], store=str(store), workers=1, return_state=True)
    report = again.result(raise_on_failure=False)
    assert report["totals"]["created"] == 0 and report["totals"]["unchanged"] == 4
    assert report["totals"]["failed"] == 2
    assert all(len(st.versions(n)) == 1 for n in names)

    third = backfill([str(tmp_path / "docs")], store=str(store), workers=1, return_state=True)
    assert _task_states(third.state_details.flow_run_id).count("Cached") == 4  # skipped by the cache key

    shutil.rmtree(store)  # a store replaced under the same path: the cache must not skip its documents
    fourth = backfill([str(tmp_path / "docs")], store=str(store), workers=1, return_state=True)
    assert fourth.result(raise_on_failure=False)["totals"]["created"] == 4
    assert sorted(d.doc_id for d in Store(store).documents()) == names


def _task_states(flow_run_id: Any) -> list[str]:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    with get_client(sync_client=True) as client:
        runs = client.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])))
    return [r.state.name for r in runs if r.state is not None]


def _committed(store: Path) -> set[str]:
    """Documents with a committed version, read through the store's catalog (in another process)."""
    if not (store / "catalog.sqlite").exists():
        return set()
    probe = ("import sys; from treebuild import Store; "
             "print(*(d.doc_id for d in Store(sys.argv[1], create=False).documents()))")
    out = subprocess.run([sys.executable, "-c", probe, str(store)], capture_output=True, text=True, timeout=60)
    return set(out.stdout.split()) if out.returncode == 0 else set()


def test_backfill_reads_html_and_text_documents(prefect_api: str, tmp_path: Path) -> None:
    """A folder of an HTML page with page breaks and a text file: both built, pages and labels kept; a
    ``.txt`` whose lines are not locations is a document, one whose lines are is a list (``manifest``)."""
    from treebuild.orchestrate.backfill import backfill

    docs = tmp_path / "docs"
    docs.mkdir()
    pages = "<hr style='page-break-after:always'/>".join(
        f"<p><b>Chapter {k}</b></p><p>{f'Words of chapter {k}. ' * 40}</p><p align='center'>{k}</p>"
        for k in range(1, 6))
    (docs / "guide.html").write_text(f"<html><body>{pages}</body></html>")
    (docs / "notes.txt").write_text("NOTES\n\n1. First\n\nSome text of the first note, on what it is about.\n\n"
                                    "2. Second\n\nMore text of the second note, on what it is about.\n")
    (tmp_path / "list.txt").write_text("docs/guide.html\n# and\ndocs/notes.txt\n")
    assert manifest([str(tmp_path / "list.txt")]) == [str(docs / "guide.html"), str(docs / "notes.txt")]
    assert manifest([str(docs / "notes.txt")]) == [str(docs / "notes.txt")]
    state = backfill([str(docs)], store=str(tmp_path / "store"), workers=1, return_state=True)
    assert state.is_completed(), state.message
    st = Store(tmp_path / "store")
    guide = st.tree("guide")
    assert guide.doc.page_count == 5 and [u.label for u in guide.doc.units] == ["1", "2", "3", "4", "5"]
    assert [n.title for n in st.tree("notes").walk()][-2:] == ["1. First", "2. Second"]


def test_backfill_killed_mid_run_resumes_without_duplicates(prefect_api: str, tmp_path: Path) -> None:
    """SIGKILL the CLI after the first commit; running it again finishes the rest, one version each."""
    names = _corpus(tmp_path / "docs", good=6, broken=False, pages=80)
    store = tmp_path / "store"
    cmd = [sys.executable, "-m", "treebuild", "backfill", str(tmp_path / "docs"), "--store", str(store),
           "--workers", "1"]
    proc = subprocess.Popen(cmd, env=_env(prefect_api), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, start_new_session=True)
    watchdog = threading.Timer(300, os.killpg, (proc.pid, signal.SIGKILL))
    watchdog.start()
    try:
        for line in proc.stdout or ():  # a line as each document is committed: kill right after the first,
            if line.startswith("created"):  # however long the machine takes (polling the store could miss it)
                break
    finally:
        watchdog.cancel()
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()
    committed = _committed(store)
    assert 1 <= len(committed) < len(names), "the kill must land mid-run"

    done = subprocess.run(cmd, env=_env(prefect_api), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    st = Store(store)
    assert sorted(d.doc_id for d in st.documents()) == names
    assert all([v.version for v in st.versions(n)] == [1] for n in names)
    for name in committed:  # resumed: committed documents come from the cache, nothing rebuilt
        assert f"unchanged {name}." in done.stdout


def test_cli_backfill_exits_1_and_lists_failed_files(prefect_api: str, tmp_path: Path) -> None:
    _corpus(tmp_path / "docs", good=1)
    listing = tmp_path / "files.txt"
    listing.write_text("# two documents and a broken one\ndocs/report0.pdf\ndocs/notes.md\ndocs/broken.pdf\n")
    done = subprocess.run([sys.executable, "-m", "treebuild", "backfill", str(listing), "--store",
                           str(tmp_path / "store"), "--workers", "1", "--meta", "k=v"],
                          env=_env(prefect_api), capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert "1 of 3 document(s) failed" in done.stderr and str(tmp_path / "docs" / "broken.pdf") in done.stderr
    assert "created   report0.pdf v1" in done.stdout and "created   notes.md v1" in done.stdout
    assert Store(tmp_path / "store").tree("notes").meta == {"k": "v"}


def _slow_echo(request: Request) -> Reply:
    return replace(echo_summaries(request, words=20), delay=0.2)


def test_model_requests_of_all_workers_share_the_global_limit(prefect_api: str, server: OpenAIServer,
                                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two worker processes, a Prefect global concurrency limit of 1: never two requests at once."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import GlobalConcurrencyLimitCreate

    from treebuild.orchestrate.backfill import backfill
    from treebuild.orchestrate.settings import FlowSettings

    with get_client(sync_client=True) as client:
        client.create_global_concurrency_limit(GlobalConcurrencyLimitCreate(name=FlowSettings().model_limit,
                                                                            limit=1))
    monkeypatch.setenv("TREEBUILD_API_KEY", "test-key")
    docs = tmp_path / "docs"
    docs.mkdir()
    words = "revenue margin liquidity covenant segment goodwill impairment lease pension hedge".split()
    for i in range(4):  # sections long enough to be summarised by the model
        body = [" ".join(words[(i + k * 7 + j) % len(words)] for j in range(12)) + "." for k in range(150)]
        (docs / f"m{i}.md").write_text(f"# Manual {i}\n\n## Setup\n\n{' '.join(body)}\n\n"
                                       f"## Use\n\n{' '.join(reversed(body))}\n")
    server.reset()
    server.responder = _slow_echo
    try:
        state = backfill([str(docs)], store=str(tmp_path / "store"), workers=2, model="openai/test",
                         api_base=server.url, return_state=True)
        assert state.is_completed(), state.message
        report = state.result()
        assert report["totals"]["created"] == 4
        assert report["totals"]["calls"] == len(server.chat_requests) >= 4
        assert report["totals"]["tokens"] > 0
        assert server.max_in_flight == 1
    finally:
        server.reset()
        with get_client(sync_client=True) as client:
            client.delete_global_concurrency_limit_by_name(FlowSettings().model_limit)


def test_dask_local_cluster_backfill(prefect_api: str, tmp_path: Path) -> None:
    pytest.importorskip("prefect_dask")
    from treebuild.orchestrate.backfill import backfill

    names = _corpus(tmp_path / "docs", good=2, broken=False)
    state = backfill([str(tmp_path / "docs")], store=str(tmp_path / "store"), workers=2, executor="dask",
                     return_state=True)
    assert state.is_completed(), state.message
    assert sorted(d.doc_id for d in Store(tmp_path / "store").documents()) == names


def test_manifest_reads_folders_globs_list_files_and_urls(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    _corpus(docs, good=2)
    (docs / "sub").mkdir()
    (docs / "sub" / "deep.md").write_text("# Deep\n")
    (docs / "skip.csv").write_text("a,b\n")
    listing = tmp_path / "list.txt"
    listing.write_text(f"# comment\n\ndocs/report1.pdf\n{docs / 'notes.md'}\n")
    assert manifest([str(docs)]) == [str(p) for p in sorted(docs.rglob("*")) if p.suffix in (".pdf", ".md", ".docx")]
    assert manifest([str(docs / "*.pdf")]) == [str(docs / n) for n in ("broken.pdf", "report0.pdf", "report1.pdf")]
    assert manifest([str(listing), str(docs / "notes.md")]) == [str(docs / "report1.pdf"), str(docs / "notes.md")]
    urls = manifest([f"file://{docs}/"])
    assert urls[0].startswith("file://") and urls == sorted(urls) and len(urls) == 6
    keep, dupes = split_duplicates([str(docs / "notes.md"), str(tmp_path / "other" / "notes.pdf")])
    assert keep == [str(docs / "notes.md")] and "notes" in dupes[str(tmp_path / "other" / "notes.pdf")]


def test_only_transient_failures_are_retried() -> None:
    from filelock import Timeout

    assert is_transient(TimeoutError()) and is_transient(ConnectionResetError()) and is_transient(Timeout("x"))
    assert is_transient(OSError(5, "Input/output error"))
    assert not is_transient(ReadError("cannot open PDF", path="a.pdf"))
    assert not is_transient(StoreError("invalid doc_id"))
    assert not is_transient(FileNotFoundError()) and not is_transient(PermissionError())
    assert not is_transient(ValueError("a bug"))


def _finished(flow_run_id: Any, timeout: float) -> Any:
    """The flow run once it is in a final state (or as it is when ``timeout`` seconds have passed)."""
    from prefect.client.orchestration import get_client

    deadline = time.monotonic() + timeout
    with get_client(sync_client=True) as client:
        while True:
            run = client.read_flow_run(flow_run_id)
            if (run.state is not None and run.state.is_final()) or time.monotonic() > deadline:
                return run
            time.sleep(POLL_SECONDS)


@pytest.mark.slow
def test_prefect_deploy_and_a_process_worker_run_scheduled_ingest_and_two_batches(prefect_api: str,
                                                                                 tmp_path: Path) -> None:
    """deploy/prefect.yaml deployed with `prefect deploy`; a process worker runs the deployments."""
    from prefect.client.orchestration import get_client
    from prefect.deployments import run_deployment

    inbox, corpus, store = tmp_path / "inbox", tmp_path / "corpus", tmp_path / "store"
    inbox.mkdir()
    (inbox / "nightly.md").write_text("# Nightly\n\nnew filing\n")
    names = _corpus(corpus, good=3, broken=False)
    pool = f"treebuild-test-{os.getpid()}"
    env = _env(prefect_api, TREEBUILD_HOME=str(ROOT), TREEBUILD_INBOX=str(inbox), TREEBUILD_STORE=str(store),
               TREEBUILD_CORPUS=str(corpus), TREEBUILD_POOL=pool, PREFECT_WORKER_QUERY_SECONDS="1",
               PREFECT_WORKER_PREFETCH_SECONDS="1", PREFECT_TASKS_RUNNER_PROCESS_POOL_MAX_WORKERS="1")
    prefect = [sys.executable, "-m", "prefect"]
    subprocess.run([*prefect, "work-pool", "create", pool, "--type", "process"], env=env, check=True,
                   capture_output=True, timeout=120)
    # The worker starts (seconds of imports) while `prefect deploy` runs; it polls an empty pool until then.
    worker = subprocess.Popen([*prefect, "worker", "start", "--pool", pool, "--type", "process"], env=env,
                              cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        deployed = subprocess.run([*prefect, "--no-prompt", "deploy", "--prefect-file", "deploy/prefect.yaml",
                                   "--all"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert deployed.returncode == 0, deployed.stdout + deployed.stderr
        with get_client(sync_client=True) as client:
            scheduled = client.read_deployment_by_name("treebuild-scheduled-ingest/scheduled-ingest")
            assert scheduled.work_pool_name == pool and scheduled.parameters["inbox"] == str(inbox)
            assert [s.schedule.cron for s in scheduled.schedules] == ["0 2 * * *"]  # type: ignore[union-attr]
        # both runs submitted at once (timeout=0 returns the scheduled run): the worker runs them side by side
        nightly = run_deployment("treebuild-scheduled-ingest/scheduled-ingest", timeout=0,
                                 parameters={"workers": 1})
        parent = run_deployment("treebuild-backfill-batches/backfill-batches", timeout=0,
                                parameters={"batch_size": 2, "workers": 1})
        nightly, parent = _finished(nightly.id, 240), _finished(parent.id, 300)
        assert nightly.state is not None and nightly.state.is_completed(), nightly.state
        assert parent.state is not None and parent.state.is_completed(), parent.state
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
    with get_client(sync_client=True) as client:
        from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterName

        batches = client.read_flow_runs(deployment_filter=DeploymentFilter(
            name=DeploymentFilterName(any_=["backfill"])))
    assert sorted(r.name for r in batches) == ["batch 1 of 2", "batch 2 of 2"]
    assert all(r.state is not None and r.state.is_completed() for r in batches)
    st = Store(store)
    assert sorted(d.doc_id for d in st.documents()) == sorted([*names, "nightly"])
    assert all(len(st.versions(d.doc_id)) == 1 for d in st.documents())


def test_serve_runs_the_scheduled_ingest_from_one_process(prefect_api: str, tmp_path: Path) -> None:
    """`treebuild serve` registers a cron deployment and executes a run of it in the same process."""
    from prefect.client.orchestration import get_client
    from prefect.deployments import run_deployment

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "memo.md").write_text("# Memo\n\nserved\n")
    name = f"serve-test-{os.getpid()}"
    proc = subprocess.Popen([sys.executable, "-m", "treebuild", "serve", str(inbox), "--cron", "0 3 * * *", "--name",
                             name, "--store", str(tmp_path / "store"), "--workers", "1"],
                            env=_env(prefect_api, PREFECT_RUNNER_POLL_FREQUENCY="1"),  # the runner's 10 s poll
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deployment = None
        deadline = time.monotonic() + 120
        with get_client(sync_client=True) as client:
            while deployment is None and time.monotonic() < deadline and proc.poll() is None:
                try:
                    deployment = client.read_deployment_by_name(f"treebuild-scheduled-ingest/{name}")
                except Exception:
                    time.sleep(0.5)
        assert deployment is not None, "serve did not register its deployment"
        assert [s.schedule.cron for s in deployment.schedules] == ["0 3 * * *"]  # type: ignore[union-attr]
        run = run_deployment(f"treebuild-scheduled-ingest/{name}", timeout=180, poll_interval=POLL_SECONDS)
        assert run.state is not None and run.state.is_completed(), run.state
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    assert [d.doc_id for d in Store(tmp_path / "store").documents()] == ["memo"]


def test_backfill_from_s3_served_by_moto(prefect_api: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An ``s3://`` prefix (fsspec with s3fs; moto's S3 API on a free loopback port) read by two worker
    processes keeps file names and records the URL; a second run finds every object unchanged (the
    cache key of a URL is the object's ETag)."""
    import boto3
    from moto.server import ThreadedMotoServer

    from treebuild.orchestrate.backfill import backfill

    moto = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    moto.start()
    try:
        host, port = moto.get_host_and_port()
        env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "us-east-1",
               "AWS_ENDPOINT_URL": f"http://{host}:{port}"}
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        names = _corpus(tmp_path / "docs", good=2, broken=False)
        s3 = boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"], region_name="us-east-1")
        s3.create_bucket(Bucket="inbox")
        for path in sorted((tmp_path / "docs").iterdir()):
            s3.upload_file(str(path), "inbox", f"filings/{path.name}")
        s3.put_object(Bucket="inbox", Key="other/elsewhere.md", Body=b"# Not in the prefix\n")

        state = backfill(["s3://inbox/filings/"], store=str(tmp_path / "store"), workers=2, return_state=True)
        assert state.is_completed(), state.message
        st = Store(tmp_path / "store")
        assert sorted(d.doc_id for d in st.documents()) == names
        assert st.tree("report1").meta == {"source_url": "s3://inbox/filings/report1.pdf"}
        assert {r["pages"] for r in state.result()["rows"] if r["document"].endswith(".pdf")} == {3}

        again = backfill(["s3://inbox/filings/"], store=str(tmp_path / "store"), workers=2, return_state=True)
        report = again.result()
        assert report["totals"]["unchanged"] == len(names) and report["totals"]["created"] == 0
    finally:
        moto.stop()


def test_build_pool_forwards_settings_and_survives_a_dead_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers see the caller's current TREEBUILD_* settings; a worker that dies fails the calls then in
    flight with a transient error (Prefect retries them) and the pool goes on with fresh processes."""
    from treebuild.orchestrate.pool import BuildPool, WorkerDied

    pool = BuildPool(2)
    try:
        monkeypatch.setenv("TREEBUILD_POOL_PROBE", "first")
        assert pool.call(os.getenv, "TREEBUILD_POOL_PROBE") == "first"
        monkeypatch.setenv("TREEBUILD_POOL_PROBE", "second")
        assert pool.call(os.getenv, "TREEBUILD_POOL_PROBE") == "second"
        with pytest.raises(WorkerDied) as died:
            pool.call(os._exit, 3)
        assert is_transient(died.value)
        assert pool.call(os.getpid) != os.getpid()
    finally:
        pool.close()


def test_flow_settings_follow_the_environment_and_flags_like_ingest(monkeypatch: pytest.MonkeyPatch) -> None:
    """One settings path: a backfill builds with what `treebuild ingest` would use in the same environment,
    and the CLI's budget, password and key flags reach worker processes through TREEBUILD_* variables."""
    from treebuild.cli.backfill import _prepare
    from treebuild.cli.options import BuildOptions
    from treebuild.orchestrate.backfill import build_settings

    monkeypatch.setenv("TREEBUILD_MODEL", "openai/from-env")
    assert build_settings(None).model == "openai/from-env"
    assert build_settings("openai/flag").model == "openai/flag"
    assert build_settings(None, ignore_outline=True) == BuildOptions(ignore_outline=True).resolve()[0]
    names = ("TREEBUILD_MAX_CALLS", "TREEBUILD_TIMEOUT", "TREEBUILD_PDF_PASSWORD", "TREEBUILD_API_KEY")
    for name in names:  # recorded, so the variables _prepare sets are removed after the test
        monkeypatch.setenv(name, "x")
        monkeypatch.delenv(name)
    assert _prepare(["k=v"], BuildOptions(max_calls=3, timeout=2.5, password="pw"), None) == {"k": "v"}
    assert [os.environ.get(n) for n in names] == ["3", "2.5", "pw", None]


def test_a_prestarted_call_is_collected_once_not_run_again(tmp_path: Path) -> None:
    """The CLI hands the pool its first documents before Prefect is imported: the first call with the same
    function and arguments collects that run (os.mkdir would fail if it ran twice); later calls run anew."""
    from treebuild.orchestrate.pool import BuildPool

    pool = BuildPool(1)
    target = str(tmp_path / "made-once")
    try:
        pool.prestart(os.mkdir, target)
        assert pool.prestarted() == [(os.mkdir, (target,))]
        assert pool.call(os.mkdir, target) is None
        assert pool.prestarted() == [] and os.path.isdir(target)
        with pytest.raises(FileExistsError):
            pool.call(os.mkdir, target)
    finally:
        pool.close()


def test_cli_backfill_into_a_recreated_store_reports_every_document_created(prefect_api: str,
                                                                            tmp_path: Path) -> None:
    """The documents built while Prefect starts are collected by their own task runs: after the store is
    deleted, a backfill at the same path builds and reports them as created (Prefect's cache of the
    first run must not turn them into ``unchanged``), one version each."""
    names = _corpus(tmp_path / "docs", good=3, broken=False)
    store = tmp_path / "store"
    cmd = [sys.executable, "-m", "treebuild", "backfill", str(tmp_path / "docs"), "--store", str(store),
           "--workers", "1"]
    for _ in range(2):
        shutil.rmtree(store, ignore_errors=True)
        t0 = time.monotonic()
        done = subprocess.run(cmd, env=_env(prefect_api), capture_output=True, text=True, timeout=300)
        elapsed = time.monotonic() - t0
        assert done.returncode == 0, done.stderr
        assert all(f"created   {n}." in done.stdout for n in names), done.stdout
        assert f"{len(names)} created, 0 unchanged" in done.stderr
        # pages per second over the command's wall-clock time, Prefect's start and the early builds included
        # (the run's own clock started after the early builds and gave "0.24 s" for a 23-second run)
        wall = float(re.search(r"pages built in ([\d.]+) s wall-clock", done.stderr)[1])  # type: ignore[index]
        assert elapsed / 3 < wall <= elapsed, (wall, elapsed, done.stderr)
    st = Store(store)
    assert all([v.version for v in st.versions(n)] == [1] for n in names)


def test_a_backfill_serialises_prefect_settings_once_not_per_document(prefect_api: str, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers get this run's Prefect settings as variables; serialising them (every settings model, tens of
    ms) happens once per run, not in every task run (each sees its own copy, so a per-call cache missed)."""
    from prefect.settings import Settings

    calls: list[int] = []
    original = Settings.to_environment_variables

    def counted(self: Settings, *args: Any, **kwargs: Any) -> dict[str, str]:
        if type(self) is Settings:  # the whole settings, not the nested models it serialises
            calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Settings, "to_environment_variables", counted)
    from treebuild.orchestrate.backfill import backfill

    names = _corpus(tmp_path / "docs", good=5, broken=False, pages=1)
    state = backfill([str(tmp_path / "docs")], store=str(tmp_path / "store"), workers=2, return_state=True)
    assert state.is_completed() and len(Store(tmp_path / "store").documents()) == len(names) == 6
    assert len(calls) == 1


def test_the_early_pool_starts_in_the_background_and_is_taken_over_with_its_prestarts() -> None:
    """The CLI starts its pool before importing Prefect: starting a worker waits for the fork server's
    preload, so that start (and the prestarts) run in a background thread while the caller goes on; the
    backfill's pool then takes that pool over, with the builds it prestarted."""
    from treebuild.orchestrate.pool import build_pool, start_early

    released = threading.Event()
    order: list[str] = []

    def prestart(pool: Any) -> None:
        released.wait(20)  # the old, blocking start would wait here before returning to the caller
        pool.prestart(os.getpid)
        order.append("prestarted")

    start_early(1, prestart)
    order.append("returned")
    released.set()
    with build_pool(1) as pool:
        order.append("taken over")
        assert pool.prestarted() == [(os.getpid, ())]
        assert pool.call(os.getpid) != os.getpid()
    assert order == ["returned", "prestarted", "taken over"]
