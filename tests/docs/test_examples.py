"""Every ``>>>`` example in README.md and docs/ runs, and prints what the page says it prints.

The examples' pages come from the demo site (scripts/demo_site.py), started here on the docs'
port 8765, or on a free port of as many digits when that one is taken (so every length and
offset an example prints is the one a person sees on 8765); the examples'
``http://127.0.0.1:8765`` and their download folder ``/tmp/wgdemo/dl`` are rewritten to this
run's before the examples run and before their output is compared. One page is one session
(doctest): its examples run in order and share names. Each page starts with the README's
``tools`` (loopback opened on purpose, the search stand-ins, the download folder) and the names
the docs import at their top. A ```toml block
whose first line is ``# NAME.toml`` is written to the page's working folder first, so a page
can show its configuration file and then load it. Output may use ``...`` (doctest's ELLIPSIS)
for what changes between runs (dates, timings).

The pages' shell sessions (```console blocks of ``$ webgrip ...`` lines) run in one bash each,
compared the same way; the plain ```python programs are all compiled, and those that can run
here (installed modules, only the demo site's URLs, no mark saying otherwise) run and must print
what their closing ``# `` comments say. Every other block that shows output (```text,
```console, an unlabelled fence, a ``>>>`` or ``$`` prompt) must say on the line before it why
it is not run here (:data:`NOT_RUN`), and the demo site's output never may.
"""

from __future__ import annotations

import ast
import asyncio
import doctest
import importlib.util
import inspect
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
DOCS_ORIGIN = "http://127.0.0.1:8765"
DOCS_DOWNLOADS = "/tmp/wgdemo/dl"

#: A fenced block: its fence (three or more backticks), its language and its text.
FENCE = re.compile(
    r"^(?P<fence>`{3,})(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)^(?P=fence)\s*$",
    re.MULTILINE | re.DOTALL,
)


def _demo_site_module():
    spec = importlib.util.spec_from_file_location("demo_site", ROOT / "scripts" / "demo_site.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules["demo_site"] = module  # dataclass-free, but keep the usual import invariants
    spec.loader.exec_module(module)
    return module


#: Written on the line before a fence, keeps a program from running here (it is still compiled):
#: ``<!-- example: compile only, <why> -->``.
COMPILE_ONLY = re.compile(r"<!-- example: compile only, [^>]+ -->\s*$")


#: Anywhere in a page, keeps all its programs from running here: ``<!-- examples: compile
#: only, <why> -->`` (recipes that call a model: the framework tests register the tools).
PAGE_COMPILE_ONLY = re.compile(r"^<!-- examples: compile only, [^>]+ -->\s*$", re.MULTILINE)


#: Written on the line before a fence, says why a block showing output is not run here:
#: ``<!-- output: not run here, <why> -->`` (another site's answers, one machine's timings, a
#: corpus outside the repository). Every other block showing output is run and compared.
NOT_RUN = re.compile(r"<!-- output: not run here, [^>]+ -->\s*$")


def blocks(page: Path) -> list[tuple[str, str, int]]:
    """The page's fenced blocks: (language, text, line number of the text's first line); the
    language of a block marked :data:`COMPILE_ONLY` (or on a page marked
    :data:`PAGE_COMPILE_ONLY`) ends in ``!compile-only``, of one marked :data:`NOT_RUN` in
    ``!not-run``."""
    text = page.read_text(encoding="utf-8")
    whole_page = bool(PAGE_COMPILE_ONLY.search(text))
    found = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start("body")) + 1
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marked = whole_page or COMPILE_ONLY.search(before)
        lang = m.group("lang") + ("!compile-only" if marked else "")
        lang += "!not-run" if NOT_RUN.search(before) else ""
        found.append((lang, m.group("body"), line))
    return found


def _is_example(lang: str, body: str) -> bool:
    return lang.split("!")[0] in ("python", "pycon", "") and bool(
        re.search(r"^>>> ", body, re.MULTILINE)
    )


def examples(page: Path) -> list[tuple[str, int]]:
    """The page's ``>>>`` blocks, run as doctests."""
    return [(body, line) for lang, body, line in blocks(page) if _is_example(lang, body)]


PAGES_WITH_EXAMPLES = [p for p in PAGES if examples(p)]


@pytest.fixture(scope="module")
def site():
    """The demo site on the docs' port, or on one as wide: an origin of another length would
    shift every character count the examples print."""
    with _demo_site_module().DemoSite.like_the_docs() as s:
        assert len(s.origin) == len(DOCS_ORIGIN), s.origin
        _start_the_pdf_reader()
        yield s


def _start_the_pdf_reader() -> None:
    """Read one PDF before the examples: the first PDF a process reads starts its reader
    process (webgrip._pdfpool), inside that call's deadline, and the examples' deadline is the
    docs' 2 s (their error messages print it). The start took 0.73 s at a load average of 14
    on 2 cores; started here, an example's 2 s are the fetch's and the read's alone."""
    from webgrip.pdf import extract_pdf

    extract_pdf((ROOT / "tests" / "fixtures" / "pdf" / "running.pdf").read_bytes())


def _namespace(origin: str, downloads: Path) -> dict:
    import webgrip
    from webgrip import Config, Tools

    tools = Tools(
        Config(
            allow_networks=("127.0.0.0/8",),
            rate_limit_seconds=0,
            timeout=2,
            download_dirs=(str(downloads),),
            search_endpoints={
                "duckduckgo_html": f"{origin}/html/",
                "duckduckgo_lite": f"{origin}/lite/",
            },
        )
    )
    # The library's names, as a page's snippets assume them imported.
    names = {name: getattr(webgrip, name) for name in webgrip.__all__}
    return {**names, "webgrip": webgrip, "tools": tools}


def _localise(text: str, origin: str, downloads: Path) -> str:
    """The block as doctest reads it: this run's origin and folder, and a blank line inside an
    output (Markdown has many) written as doctest's ``<BLANKLINE>``; a blank line before the
    next ``>>>`` or at the end still ends the output."""
    text = (
        text.replace(DOCS_ORIGIN, origin)
        .replace("127.0.0.1:8765", origin.removeprefix("http://"))
        .replace(DOCS_DOWNLOADS, str(downloads))
    )
    lines = text.split("\n")
    for i, line in enumerate(lines):
        rest = [x for x in lines[i + 1 :] if x.strip()]
        if not line.strip() and rest and not rest[0].startswith(">>>"):
            lines[i] = "<BLANKLINE>"
    return "\n".join(lines)


class _Checker(doctest.OutputChecker):
    """doctest's comparison, less trailing white space: ``print`` of a page ending in a
    newline adds a blank line the docs leave out."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        return super().check_output(want.rstrip() + "\n", got.rstrip() + "\n", optionflags)

    def output_difference(self, example: doctest.Example, got: str, optionflags: int) -> str:
        example.want = example.want.rstrip() + "\n"
        return super().output_difference(example, got.rstrip() + "\n", optionflags)


@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=lambda p: p.relative_to(ROOT).name)
def test_every_example_prints_what_the_page_says(page, site, tmp_path, monkeypatch):
    downloads = tmp_path / "dl"
    downloads.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    # A page's own configuration files, and the repository's files it reads by path.
    for lang, body, _ in blocks(page):
        first = body.split("\n", 1)[0].strip()
        if lang == "toml" and re.fullmatch(r"# [\w.-]+\.toml", first):
            (work / first[2:]).write_text(body, encoding="utf-8")
    (work / "tests").symlink_to(ROOT / "tests")
    monkeypatch.chdir(work)
    for name in [k for k in os.environ if k.startswith("WEBGRIP_")]:
        monkeypatch.delenv(name)

    parser = doctest.DocTestParser()
    globs = _namespace(site.origin, downloads)
    runner = doctest.DocTestRunner(checker=_Checker(), optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for body, line in examples(page):
        test = parser.get_doctest(
            _localise(body, site.origin, downloads), globs, f"{page.name}:{line}", str(page), line
        )
        runner.run(test, out=report.append, clear_globs=False)
        globs.update(test.globs)  # a DocTest runs in a copy: the next block sees these names
    failed = runner.summarize(verbose=False).failed
    assert failed == 0, "".join(report)


@pytest.fixture(autouse=True)
def _webgrip_logger_restored():
    """A page may configure the ``webgrip`` logger (docs/library.md does): undone after it."""
    log = logging.getLogger("webgrip")
    saved = (log.level, list(log.handlers), log.propagate)
    yield
    log.setLevel(saved[0])
    log.handlers[:] = saved[1]
    log.propagate = saved[2]


def _is_session(lang: str, body: str) -> bool:
    return lang.split("!")[0] == "console" and bool(re.search(r"^\$ webgrip", body, re.MULTILINE))


def sessions(page: Path) -> list[tuple[str, int]]:
    """The page's shell sessions: ```console blocks of ``$ command`` lines and their output."""
    return [(body, line) for lang, body, line in blocks(page) if _is_session(lang, body)]


PAGES_WITH_SESSIONS = [p for p in PAGES if sessions(p)]


def _script(session: str) -> tuple[str, list[str], str]:
    """A bash script running the session's commands in order in one shell (so ``export`` and
    ``echo $?`` mean what they do in a terminal), each command's output (stderr with stdout,
    as a terminal shows them) after a marker line; the expected outputs; and the marker."""
    marker = "@@webgrip-docs-command@@"
    lines = [f'webgrip() {{ "{sys.executable}" -m webgrip "$@"; }}', "__status=0"]
    expected: list[str] = []
    for line in session.split("\n"):
        if line.startswith("$ "):
            lines += [
                f"echo '{marker}'",
                f"(exit $__status); {{ {line[2:]}\n}} 2>&1",
                "__status=$?",
            ]
            expected.append("")
        elif expected:
            expected[-1] += line + "\n"
    return "\n".join(lines) + "\n", expected, marker


def _same_lines(text: str) -> str:
    """Trailing white space is not compared (editors strip it; a cut line keeps it)."""
    return "\n".join(line.rstrip() for line in text.strip("\n").split("\n")) + "\n"


@pytest.mark.parametrize("page", PAGES_WITH_SESSIONS, ids=lambda p: p.relative_to(ROOT).name)
def test_every_session_prints_what_the_page_says(page, site, tmp_path):
    downloads = tmp_path / "dl"
    downloads.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("WEBGRIP_")}
    env.update(PYTHONUNBUFFERED="1", COLUMNS="80", HOME=str(tmp_path), NO_COLOR="1")
    failures = []
    for body, line in sessions(page):
        script, expected, marker = _script(
            _localise(body, site.origin, downloads).replace("<BLANKLINE>", "")
        )
        done = subprocess.run(
            ["bash", "-c", script],
            env=env,
            cwd=tmp_path,
            text=True,
            capture_output=True,
            timeout=120,
        )
        got = done.stdout.split(marker + "\n")[1:]
        checker = doctest.OutputChecker()
        for i, (want, out) in enumerate(zip(expected, got, strict=True)):
            if not checker.check_output(_same_lines(want), _same_lines(out), doctest.ELLIPSIS):
                command = [x for x in body.split("\n") if x.startswith("$ ")][i]
                failures.append(
                    f"{page.name}:{line}: {command}\n--- the page says:\n{want}"
                    f"--- it printed:\n{out}{done.stderr}"
                )
    assert not failures, "\n".join(failures)


def programs(page: Path) -> list[tuple[str, int]]:
    """The page's plain ```python blocks (no ``>>>``): programs and recipes."""
    return [
        (body if lang == "python" else "# compile only\n" + body, line)
        for lang, body, line in blocks(page)
        if lang in ("python", "python!compile-only") and not re.search(r"^>>> ", body, re.MULTILINE)
    ]


PAGES_WITH_PROGRAMS = [p for p in PAGES if programs(p)]


def _runnable_here(source: str) -> bool:
    """Whether a program can run in the suite: every module it imports is installed, and every
    URL it names is the demo site's (the tests never touch the internet; a recipe calling a
    model needs a key)."""
    for module in re.findall(r"^\s*(?:from|import)\s+([\w.]+)", source, re.MULTILINE):
        if importlib.util.find_spec(module.split(".")[0]) is None:
            return False
    urls = re.findall(r"""https?://[^\s"')]+""", source)
    return (
        all(u.startswith(DOCS_ORIGIN) for u in urls)
        and "api_key" not in source
        and not source.startswith("# compile only\n")
    )


def _printed_in_comments(source: str) -> str:
    """What a program says it prints: the ``# `` comment lines closing the block."""
    lines = source.rstrip("\n").split("\n")
    said: list[str] = []
    while lines and lines[-1].startswith("# "):
        said.insert(0, lines.pop()[2:])
    return "\n".join(said) + "\n" if said else ""


@pytest.mark.parametrize("page", PAGES_WITH_PROGRAMS, ids=lambda p: p.relative_to(ROOT).name)
def test_every_program_compiles_and_the_local_ones_run(page, site, tmp_path, monkeypatch, capsys):
    """Every plain block is valid Python; those that can run here (the demo site's URLs,
    installed modules) run, and print what their closing comments say."""
    downloads = tmp_path / "dl"
    downloads.mkdir()
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    ran = 0
    for body, line in programs(page):
        source = _localise(body, site.origin, downloads).replace("<BLANKLINE>", "")
        # Recipes for notebooks and async frameworks may await at the top level.
        code = compile(source, f"{page.name}:{line}", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        if not _runnable_here(body):
            continue
        capsys.readouterr()
        if code.co_flags & inspect.CO_COROUTINE:  # top-level await
            asyncio.run(eval(code, _namespace(site.origin, downloads)))
        else:
            exec(code, _namespace(site.origin, downloads))
        printed = capsys.readouterr().out
        said = _printed_in_comments(source)
        if printed or said:
            assert doctest.OutputChecker().check_output(said, printed, doctest.ELLIPSIS), (
                f"{page.name}:{line} says it prints:\n{said}but printed:\n{printed}"
            )
        ran += 1
    assert ran or not any(_runnable_here(b) for b, _ in programs(page))


def test_the_runner_catches_a_wrong_output(site, tmp_path):
    """The comparison can fail: a page whose example claims another title."""
    page = tmp_path / "wrong.md"
    page.write_text(
        "```python\n>>> print(tools.fetch_page('http://127.0.0.1:8765/article'))"
        "\nTitle: Something else\n...\n```\n",
        encoding="utf-8",
    )
    ((body, line),) = examples(page)
    globs = _namespace(site.origin, tmp_path)
    runner = doctest.DocTestRunner(checker=_Checker(), optionflags=doctest.ELLIPSIS)
    test = doctest.DocTestParser().get_doctest(
        _localise(body, site.origin, tmp_path), globs, "wrong", str(page), line
    )
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.summarize(verbose=False).failed == 1
    assert "Getting started with webgrip" in "".join(report)


def test_every_page_with_examples_is_collected():
    names = {p.name for p in PAGES_WITH_EXAMPLES}
    assert {"README.md", "tools.md", "library.md", "configuration.md"} <= names, names


#: Languages of blocks that show what something printed, rather than code or configuration.
OUTPUT_LANGUAGES = ("", "text", "console", "markdown", "pycon", "output", "shell-session")


def unchecked_outputs(page: Path) -> list[str]:
    """The page's blocks that show output but are neither run here nor marked :data:`NOT_RUN`
    with a reason; a marked block that is run anyway, or that shows the demo site (whose
    output can always be run); each as ``page:line: what is wrong``."""
    problems = []
    for lang, body, line in blocks(page):
        where = f"{page.name}:{line}"
        run = _is_example(lang, body) or _is_session(lang, body)
        marked = lang.endswith("!not-run")
        prompts = re.search(r"^(>>> |\$ )", body, re.MULTILINE)
        shows_output = lang.split("!")[0] in OUTPUT_LANGUAGES or prompts
        if run and marked:
            problems.append(f"{where}: marked not run, but it is run: drop the mark")
        elif marked and "127.0.0.1:8765" in body:
            problems.append(
                f"{where}: shows the demo site, so it can run: make it >>> or $ webgrip"
            )
        elif shows_output and not run and not marked:
            problems.append(
                f"{where}: a ```{lang} block shows output nobody checks: write it as >>> "
                "examples or a ```console session of $ webgrip commands, or mark it "
                "<!-- output: not run here, WHY -->"
            )
    return problems


def test_every_block_showing_output_is_run_or_says_why_not():
    """What a page shows a command or a call printing is checked on every run, or the page
    says why it cannot be (and no block of the demo site's may say so)."""
    problems = [p for page in PAGES for p in unchecked_outputs(page)]
    assert not problems, "\n".join(problems)


def test_an_unchecked_output_block_is_caught(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "```text\nError: made up\n```\n\n"
        "<!-- output: not run here, another site's answer -->\n```text\nError: theirs\n```\n\n"
        "<!-- output: not run here, no reason to -->\n"
        "```text\nError: http://127.0.0.1:8765/missing\n```\n\n"
        "<!-- output: not run here, it is -->\n```python\n>>> print(1)\n1\n```\n\n"
        "```python\n>>> print(2)\n2\n```\n",
        encoding="utf-8",
    )
    problems = unchecked_outputs(page)
    assert [p.split(":")[1] for p in problems] == ["2", "12", "17"], problems
