"""Frames on loopback: same-site ``<iframe>``/``<frame>`` documents read in place under the
call's policy, caps and deadline; cross-site, refused, nested and surplus frames listed as
links and never requested (the site server records every request)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import Reply, Request, SiteServer, article, page
from webgrip import WebClient
from webgrip.tools import Tools

ONLY_127_0_0_1 = ("127.0.0.1/32",)
CHALLENGES = Path(__file__).resolve().parents[1] / "fixtures" / "challenge"
LONG = (
    "Framed documentation text that a reader wants, long enough to be the main "
    "content of the frame it sits in. "
) * 3


def doc(body: str, title: str = "Doc") -> str:
    return f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"


@pytest.fixture
def site():
    with SiteServer() as s:
        yield s


@pytest.fixture
def client():
    cfg = loopback_config(allow_networks=ONLY_127_0_0_1, resolve={"other.test": ("127.0.0.1",)})
    with WebClient(cfg) as c:
        yield c


def test_iframes_inlined_in_reading_order_and_cross_site_listed(site, client):
    site.route("/one.html", page(doc(f"<p>ONE {LONG}</p>")))
    site.route("/two.html", page(doc(f"<p>TWO {LONG}</p>")))
    cross = f"http://other.test:{site.port}/ad.html"
    site.route("/ad.html", page(doc("<p>AD</p>")))
    site.route(
        "/",
        page(
            doc(
                f"<h1>Parent</h1><p>BEFORE {LONG}</p><iframe src='one.html'></iframe>"
                f"<p>MIDDLE {LONG}</p><iframe src='{cross}' title='Partner widget'></iframe>"
                f"<iframe src='/two.html'></iframe><p>AFTER {LONG}</p>"
            )
        ),
    )
    for extract in ("markdown", "text"):
        content = client.fetch(site.url("/"), extract=extract, main_content=False).content
        order = [
            content.index(w) for w in ("BEFORE", "ONE", "MIDDLE", "Partner widget", "TWO", "AFTER")
        ]
        assert order == sorted(order), content
        assert "AD" not in content.replace("ADD", "")
    md = client.fetch(site.url("/"), main_content=False).content
    assert f"[Frame: Partner widget]({cross})" in md
    assert "WGFRAME" not in md
    assert site.hits("/ad.html") == []  # cross-site: listed, never requested
    assert len(site.hits("/one.html")) == 3 and len(site.hits("/two.html")) == 3  # 3 fetches


def test_frameset_documentation_viewer_survives_main_content(site, client):
    site.route("/nav.html", page(doc("<ul><li><a href='/c.html'>Chapter</a></li></ul>")))
    site.route("/c.html", page(doc(f"<h1>Chapter one</h1><p>CONTENT {LONG}</p>")))
    site.route(
        "/",
        page(
            "<html><head><title>Viewer</title></head>"
            "<frameset cols='20%,*'><frame src='nav.html' name='nav'>"
            "<frame src='c.html' name='main'></frameset></html>"
        ),
    )
    for extract in ("markdown", "text"):
        got = client.fetch(site.url("/"), extract=extract)  # main content by default
        assert "CONTENT" in got.content and "Chapter one" in got.content
        assert got.content.index("Chapter") < got.content.index("CONTENT")


def test_frame_outside_the_main_content_is_appended(site, client):
    site.route("/report.html", page(doc(f"<table><tr><td>REPORT {LONG}</td></tr></table>")))
    html = article("Quarterly results", paragraphs=6).replace(
        "<footer>", "<aside><iframe src='/report.html'></iframe></aside><footer>"
    )
    site.route("/", page(html))
    got = client.fetch(site.url("/"), extract="markdown", main_content=True)
    assert got.main_content
    assert "REPORT" in got.content
    assert got.content.index("Quarterly results paragraph 5") < got.content.index("REPORT")


def test_refused_frame_never_fetched(site, raw_server):
    denied = raw_server(host="127.0.0.2")  # refused by the policy: must see no connection
    site.route("/jump.html", lambda req: Reply(302, b"", {"Location": denied.url("/secret")}))
    site.route(
        "/",
        page(
            doc(
                f"<p>PARENT {LONG}</p><iframe src='/jump.html' title='Jump'></iframe>"
                f"<iframe src='{denied.url('/direct')}' title='Direct'></iframe>"
            )
        ),
    )
    with WebClient(loopback_config(allow_networks=ONLY_127_0_0_1)) as c:
        md = c.fetch(site.url("/"), main_content=False).content
    assert "PARENT" in md
    assert "[Frame: Jump]" in md and "loopback-address" in md  # same-site: tried, refused
    assert "[Frame: Direct]" in md  # cross-site: listed
    assert denied.connections == 0
    assert len(site.hits("/jump.html")) == 1


def test_depth_one_frames_inside_frames_are_listed(site, client):
    site.route("/deep.html", page(doc("<p>DEEP</p>")))
    site.route(
        "/inner.html",
        page(doc(f"<p>INNER {LONG}</p><iframe src='/deep.html' title='Deeper'></iframe>")),
    )
    site.route("/", page(doc(f"<p>TOP {LONG}</p><iframe src='/inner.html'></iframe>")))
    md = client.fetch(site.url("/"), main_content=False).content
    assert "INNER" in md and "DEEP" not in md
    assert f"[Frame: Deeper]({site.url('/deep.html')}) (frame inside a frame)" in md
    assert site.hits("/deep.html") == []


def test_count_cap_bounds_requests_on_a_page_of_500_frames(site):
    site.route("/f.html", page(doc(f"<p>FRAME {LONG}</p>")))
    frames = "".join(f"<iframe src='/f.html?n={i}'></iframe>" for i in range(500))
    site.route("/", page(doc(f"<p>MANY {LONG}</p>{frames}")))
    with WebClient(loopback_config(allow_networks=ONLY_127_0_0_1, max_frames=3)) as c:
        md = c.fetch(site.url("/"), main_content=False).content
        assert len(site.hits("/f.html")) == 3
        assert md.count("FRAME Framed") == 3
        listed = md.count("(frame limit reached)")
        assert 0 < listed <= 32
    with WebClient(loopback_config(allow_networks=ONLY_127_0_0_1, max_frames=0)) as c:
        md = c.fetch(site.url("/"), main_content=False).content
    assert len(site.hits("/f.html")) == 3  # none more
    assert "FRAME Framed" not in md and "(frame limit reached)" in md


def test_slow_frame_does_not_extend_the_call(site):
    release = threading.Event()

    def slow(req: Request) -> Reply:
        release.wait(10)  # held until the test is done with the call
        return Reply(body=doc("<p>SLOW</p>").encode())

    site.route("/slow.html", slow)
    site.route("/late.html", page(doc("<p>LATE</p>")))
    site.route(
        "/",
        page(
            doc(
                f"<p>QUICK {LONG}</p><iframe src='/slow.html' title='Slow'>"
                "</iframe><iframe src='/late.html' title='Late'></iframe>"
            )
        ),
    )
    cfg = loopback_config(allow_networks=ONLY_127_0_0_1, timeout=3.0)
    try:
        with WebClient(cfg) as c:
            start = time.monotonic()
            md = c.fetch(site.url("/"), main_content=False).content
            elapsed = time.monotonic() - start
    finally:
        release.set()
    # The call's own timeout (3 s) plus room for a loaded machine, not 3 s more.
    assert elapsed < 4.8, elapsed
    assert "QUICK" in md and "SLOW" not in md and "LATE" not in md
    assert "[Frame: Slow]" in md and "[Frame: Late]" in md and "(no time left)" in md
    assert site.hits("/late.html") == []  # no time was left to ask


def test_srcdoc_inlined_and_trackers_skipped(site, client):
    site.route("/pixel.html", page(doc("<p>PIXEL</p>")))
    site.route(
        "/",
        page(
            doc(
                f"<p>HOST {LONG}</p>"
                "<iframe srcdoc='&lt;p&gt;INLINE &lt;b&gt;doc&lt;/b&gt;&lt;/p&gt;'>"
                "</iframe><iframe src='/pixel.html' width='1' height='1'></iframe>"
                "<iframe src='about:blank'></iframe><iframe src='javascript:void(0)'></iframe>"
                "<iframe src='data:text/html,DATA'></iframe>"
                "<div style='display:none'><iframe src='/pixel.html'></iframe></div>"
            )
        ),
    )
    md = client.fetch(site.url("/"), main_content=False).content
    assert "INLINE **doc**" in md
    assert "PIXEL" not in md and "DATA" not in md and "Frame:" not in md
    assert site.hits("/pixel.html") == []


def test_links_and_tables_views_include_frames(site, client):
    site.route(
        "/t.html",
        page(
            doc(
                "<table><tr><th>Name</th><th>Value</th></tr><tr><td>framed</td><td>1</td></tr>"
                "</table><a href='/inside'>Inside link</a>"
            )
        ),
    )
    site.route(
        "/",
        page(
            doc(
                "<a href='/own'>Own link</a><iframe src='/t.html'></iframe>"
                f"<iframe src='http://other.test:{site.port}/x' title='Other'></iframe>"
            )
        ),
    )
    links = client.fetch(site.url("/"), extract="links")
    urls = [link["url"] for link in links.data or ()]
    assert urls == [site.url("/own"), site.url("/inside"), f"http://other.test:{site.port}/x"]
    assert "[Other]" in links.content
    tables = client.fetch(site.url("/"), extract="tables")
    assert [t["rows"] for t in tables.data or ()] == [[{"Name": "framed", "Value": "1"}]]
    html = client.fetch(site.url("/"), extract="html")
    assert "<iframe src='/t.html'>" in html.content  # the page as sent


def test_paging_runs_over_the_framed_text(site):
    site.route("/f.html", page(doc("".join(f"<p>FRAMED {i} {LONG}</p>" for i in range(20)))))
    site.route("/", page(doc(f"<p>START {LONG}</p><iframe src='/f.html'></iframe>")))
    with WebClient(loopback_config(allow_networks=ONLY_127_0_0_1)) as c:
        tools = Tools(client=c)
        first = tools.fetch_page(site.url("/"), max_length=2000)
        assert "START" in first and "start_index=" in first
        rest = tools.fetch_page(site.url("/"), max_length=20000, start_index=1990)
    assert "FRAMED 19" in rest
    assert len(site.hits("/")) == 1 and len(site.hits("/f.html")) == 1  # the page cache


def test_a_frame_refused_as_too_large_uses_up_the_byte_budget(site):
    # Bodies without Content-Length (streamed to the close, as chunked or compressed ones
    # come): the client reads one up to the budget before refusing it, so the budget is spent.
    big = b"<p>" + b"x " * 100_000 + b"</p>"  # 200 KB
    for i in range(3):
        site.route(f"/big{i}.html", lambda req: Reply(body=iter([big])))
    site.route(
        "/",
        page(
            doc(
                f"<p>PARENT {LONG}</p>"
                + "".join(f"<iframe src='/big{i}.html' title='Big {i}'></iframe>" for i in range(3))
            )
        ),
    )
    with WebClient(loopback_config(allow_networks=ONLY_127_0_0_1, max_response_bytes=150_000)) as c:
        md = c.fetch(site.url("/"), main_content=False).content
    assert "PARENT" in md
    assert "[Frame: Big 0]" in md and "(not fetched: too-large)" in md
    assert md.count("(frame size limit reached)") == 2, md
    assert site.hits("/big1.html") == [] and site.hits("/big2.html") == []


def test_a_frame_that_is_a_wall_is_listed_with_its_kind(site, client):
    bot_check = (CHALLENGES / "cloudflare-managed.html").read_text(encoding="utf-8")
    site.route("/check.html", page(bot_check))  # a bot check served as 200
    site.route("/dash.html", lambda req: Reply(302, b"", {"Location": "/account/login"}))
    site.route("/account/login", page((CHALLENGES / "login-form.html").read_text(encoding="utf-8")))
    site.route("/ok.html", page(doc(f"<p>REPORT {LONG}</p>")))
    site.route(
        "/",
        page(
            doc(
                f"<p>PARENT {LONG}</p><iframe src='/check.html' title='Shop'></iframe>"
                "<iframe src='/dash.html' title='Dashboard'></iframe>"
                "<iframe src='/ok.html'></iframe>"
            )
        ),
    )
    for extract in ("markdown", "text"):
        content = client.fetch(site.url("/"), extract=extract, main_content=False).content
        assert "PARENT" in content and "REPORT" in content
        assert "Verifying you are human" not in content and "Sign in to continue" not in content
    md = client.fetch(site.url("/"), main_content=False).content
    assert f"[Frame: Shop]({site.url('/check.html')}) (challenge page)" in md
    assert f"[Frame: Dashboard]({site.url('/dash.html')}) (login page)" in md
