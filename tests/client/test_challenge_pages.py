"""Bot checks, login walls and consent pages served on loopback: fetch raises ChallengeError
with the kind, fetch_page says so in one line; ordinary pages that merely mention such things
are still content. Fixtures: tests/fixtures/challenge (origins in its README)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.loopback import loopback_config
from helpers.render import needs_browser, render_config
from webgrip import ChallengeError, HTTPStatusError, Tools, WebClient
from webgrip.challenge import KINDS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "challenge"
HTML = "text/html; charset=utf-8"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


@pytest.fixture
def client(tmp_path):
    # No retries: a 429/503 bot check would otherwise be asked again (and waited for).
    with WebClient(loopback_config(tmp_path, max_retries=0, render="never")) as c:
        yield c


def serve(httpserver, path, body, status=200, headers=None, content_type=HTML):
    httpserver.expect_request(path).respond_with_data(
        body, status=status, content_type=content_type, headers=headers or {}
    )
    return httpserver.url_for(path)


# (fixture, status, extra headers, kind, vendor): each modelled on the vendor's real page.
CASES = [
    ("cloudflare-managed.html", 403, {"cf-mitigated": "challenge"}, "challenge", "Cloudflare"),
    ("cloudflare-managed.html", 403, {}, "challenge", "Cloudflare"),  # by the page alone
    ("cloudflare-managed.html", 200, {}, "challenge", "Cloudflare"),
    # The block page has the old CAPTCHA page's title: the block heading decides.
    ("cloudflare-block.html", 403, {}, "blocked", "Cloudflare"),
    ("akamai-denied.html", 403, {"server": "AkamaiGHost"}, "blocked", "Akamai"),
    ("datadome-captcha.html", 403, {"x-datadome": "protected"}, "captcha", "DataDome"),
    ("perimeterx-block.html", 403, {}, "captcha", "PerimeterX"),
    ("incapsula-block.html", 200, {}, "blocked", "Imperva"),
    ("aws-waf-challenge.html", 202, {"x-amzn-waf-action": "challenge"}, "challenge", "AWS WAF"),
    ("aws-waf-challenge.html", 405, {"x-amzn-waf-action": "captcha"}, "captcha", "AWS WAF"),
    ("aws-waf-challenge.html", 202, {}, "challenge", "AWS WAF"),
    ("sucuri-block.html", 403, {"x-sucuri-block": "BNP005"}, "blocked", "Sucuri"),
    ("google-sorry.html", 429, {}, "captcha", "Google"),
    ("hcaptcha-wall.html", 200, {}, "captcha", "hCaptcha"),
    ("login-form.html", 401, {}, "login", None),
    ("login-form.html", 403, {}, "login", None),
]


@pytest.mark.parametrize(("name", "status", "headers", "kind", "vendor"), CASES)
def test_each_kind_raises_a_challenge_error(
    client, httpserver, name, status, headers, kind, vendor
):
    url = serve(httpserver, "/page", fixture(name), status, headers)
    with pytest.raises(ChallengeError) as info:
        client.fetch(url)
    exc = info.value
    assert (exc.kind, exc.vendor, exc.status, exc.reason) == (kind, vendor, status, kind)
    assert exc.kind in KINDS
    assert exc.url == url and not exc.rendered
    assert isinstance(exc, HTTPStatusError)  # what a 403 raised before: handlers still match
    assert "127.0.0.1" in str(exc) and f"HTTP {status}" in str(exc)


@pytest.mark.parametrize("extract", ["markdown", "text", "html", "links", "tables"])
def test_every_view_is_checked(client, httpserver, extract):
    url = serve(httpserver, "/page", fixture("datadome-captcha.html"), 403)
    with pytest.raises(ChallengeError):
        client.fetch(url, extract=extract)


@pytest.mark.parametrize("status", [200, 403])
def test_a_fetch_with_headers_is_checked_too(client, httpserver, status):
    url = serve(httpserver, "/page", fixture("cloudflare-managed.html"), status)
    with pytest.raises(ChallengeError) as info:
        client.fetch(url, headers={"Accept-Language": "en"})
    assert (info.value.kind, info.value.vendor, info.value.status) == (
        "challenge",
        "Cloudflare",
        status,
    )
    assert httpserver.log[-1][0].headers.get("Accept-Language") == "en"


def test_fetch_page_says_bot_check_and_what_to_do(tmp_path, httpserver):
    url = serve(
        httpserver, "/page", fixture("cloudflare-managed.html"), 403, {"cf-mitigated": "challenge"}
    )
    tools = Tools(loopback_config(tmp_path, max_retries=0, render="never"))
    answer = tools.fetch_page(url)
    assert answer.startswith("Error: 127.0.0.1 served a bot check (Cloudflare, HTTP 403)")
    assert url in answer and "another source" in answer and "webgrip[render]" in answer
    assert "\n" not in answer and len(answer) < 400


def test_fetch_page_login_and_consent_wording(tmp_path, httpserver):
    login = serve(httpserver, "/private", fixture("login-form.html"), 401)
    tools = Tools(loopback_config(tmp_path, max_retries=0, render="never"))
    answer = tools.fetch_page(login)
    assert answer.startswith("Error: 127.0.0.1 asks to sign in (a login wall, HTTP 401)")
    assert "another source" in answer and "render" not in answer


@pytest.mark.parametrize(
    "login", ["/users/sign_in", "/accounts/ServiceLogin", "/signin-oidc", "/Account/LogOn.aspx"]
)
def test_redirect_to_a_login_page_is_a_login_wall(client, httpserver, login):
    httpserver.expect_request("/reports/q3").respond_with_data(
        "", status=302, headers={"Location": f"{login}?return_to=%2Freports%2Fq3"}
    )
    serve(httpserver, login, fixture("login-form.html"))
    with pytest.raises(ChallengeError) as info:
        client.fetch(httpserver.url_for("/reports/q3"))
    assert (info.value.kind, info.value.status) == ("login", 200)
    assert login in info.value.url


# A short post with a search form in its header: what a login wall looks like to the rules
# but for its address, where a sign-in word only sits inside ordinary words.
SHORT_POST = """<!doctype html><html><head><title>{title}</title></head><body>
<header><a href="/">Blog</a><form action="/search"><input name="q"></form></header>
<main><h1>{title}</h1><p>A short post about designing small APIs that last.</p></main>
</body></html>"""


@pytest.mark.parametrize(
    "path",
    ["/blog/designing-apis", "/news/resigning-ceo", "/library/cataloging", "/blog-insights/q3"],
)
def test_redirect_to_an_address_with_a_sign_in_word_inside_a_word_is_content(
    client, httpserver, path
):
    httpserver.expect_request("/p/42").respond_with_data("", status=301, headers={"Location": path})
    serve(httpserver, path, SHORT_POST.format(title="Designing APIs"))
    page = client.fetch(httpserver.url_for("/p/42"))
    assert "designing small APIs" in page.content and page.final_url.endswith(path)


@pytest.mark.parametrize("path", ["/research/informed-consent", "/law/age-of-consent.html"])
def test_redirect_to_a_page_about_consent_is_content(client, httpserver, path):
    httpserver.expect_request("/p/7").respond_with_data("", status=301, headers={"Location": path})
    serve(httpserver, path, SHORT_POST.format(title="Informed consent"))
    page = client.fetch(httpserver.url_for("/p/7"))
    assert "designing small APIs" in page.content and page.final_url.endswith(path)


def test_a_login_page_asked_for_is_content(client, httpserver):
    url = serve(httpserver, "/login", fixture("login-form.html"))
    page = client.fetch(url)
    assert "Sign in to continue" in page.content


def test_redirect_to_a_consent_page_is_a_consent_wall(tmp_path, client, httpserver):
    httpserver.expect_request("/article").respond_with_data(
        "", status=302, headers={"Location": "/consent?continue=%2Farticle"}
    )
    serve(httpserver, "/consent", fixture("consent-gate.html"))
    with pytest.raises(ChallengeError) as info:
        client.fetch(httpserver.url_for("/article"))
    assert info.value.kind == "consent"
    answer = Tools(client=client).fetch_page(httpserver.url_for("/article"))
    assert answer.startswith("Error: 127.0.0.1 served a cookie-consent page (HTTP 200)")


# -- negatives: content that talks about such things ------------------------------------

ARTICLE = """<!doctype html><html><head><title>How bot checks work</title></head><body>
<nav><a href="/">Home</a> <a href="/login">Sign in</a> <a href="/register">Register</a></nav>
<article><h1>How bot checks work</h1>
<p>When Cloudflare is not sure about a visitor it shows a page titled "Just a moment..."
and asks the browser to verify you are human, sometimes with a captcha. Checking your
browser takes a few seconds.</p>
<p>Sign in to comment. Access denied pages are something else: the server refuses.</p>
</article></body></html>"""

CONTACT = """<!doctype html><html><head><title>Contact</title>
<script src="https://www.google.com/recaptcha/api.js" async defer></script></head><body>
<h1>Contact us</h1><p>Write to us and we answer within two working days.</p>
<form method="post" action="/contact"><input name="email"><textarea name="msg"></textarea>
<div class="g-recaptcha" data-sitekey="x"></div><button>Send</button></form></body></html>"""

# An app shell whose content comes from scripts, with a hidden login form (Discourse does
# this on every topic page).
SHELL = """<!doctype html><html><head><title>Forum</title><script src="/app.js"></script>
</head><body><section id="main"></section>
<form id="hidden-login-form" method="post" action="/login" style="display: none;">
<input name="username" type="text"><input name="password" type="password"></form>
</body></html>"""


@pytest.mark.parametrize("body", [ARTICLE, CONTACT, SHELL], ids=["article", "contact", "shell"])
def test_pages_that_mention_checks_are_content(client, httpserver, body):
    url = serve(httpserver, "/page", body)
    page = client.fetch(url, extract="html")
    assert page.status == 200


def test_a_long_article_quoting_markers_is_content(client, httpserver):
    quote = "<p>The challenge page sets window._cf_chl_opt and loads px-captcha.</p>"
    body = ARTICLE.replace(
        "</article>", quote + "<p>" + "Lorem ipsum dolor. " * 200 + "</p></article>"
    )
    url = serve(httpserver, "/long", body, status=403)
    with pytest.raises(HTTPStatusError) as info:  # a 403 of a long page: an HTTP error
        client.fetch(url)
    assert not isinstance(info.value, ChallengeError)


def test_a_plain_403_is_an_http_error_not_a_challenge(tmp_path, client, httpserver):
    body = (
        "<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1>"
        "<p>Access denied. You don't have permission to access this resource.</p>"
        "<hr><address>Apache/2.4.62 Server</address></body></html>"
    )
    url = serve(httpserver, "/secret", body, status=403)
    with pytest.raises(HTTPStatusError) as info:
        client.fetch(url)
    assert not isinstance(info.value, ChallengeError) and info.value.status == 403
    answer = Tools(client=client).fetch_page(url)
    assert answer.startswith("Error: HTTP 403 Forbidden for")


def test_json_with_a_challenge_word_is_not_scanned(client, httpserver):
    url = serve(
        httpserver, "/api", '{"error": "_cf_chl_opt"}', status=403, content_type="application/json"
    )
    with pytest.raises(HTTPStatusError) as info:
        client.fetch(url)
    assert not isinstance(info.value, ChallengeError)


def test_the_error_pickles(client, httpserver):
    import pickle

    url = serve(httpserver, "/page", fixture("akamai-denied.html"), 403)
    with pytest.raises(ChallengeError) as info:
        client.fetch(url)
    info.value.response = None  # the Response holds no pickling trouble, but keep it small
    copy = pickle.loads(pickle.dumps(info.value))
    assert (copy.kind, copy.vendor, copy.status) == ("blocked", "Akamai", 403)


# -- auto mode: one render in the guarded browser -----------------------------------------

JS_GATE = """<!doctype html><html><head><title>Just a moment...</title></head><body>
<p>Checking your browser before accessing the site.</p>
<script>window._cf_chl_opt = {cType: 'managed'};
document.cookie = "gate_passed=1; path=/"; location.reload();</script></body></html>"""

ARTICLE_BEHIND = """<!doctype html><html><head><title>Behind the gate</title></head><body>
<main><h1>Behind the gate</h1><p>The JavaScript check passed in the browser.</p></main>
</body></html>"""


def _gate(request):
    from werkzeug import Response

    if request.cookies.get("gate_passed") == "1":
        return Response(ARTICLE_BEHIND, status=200, content_type=HTML)
    return Response(JS_GATE, status=403, content_type=HTML)


def test_without_a_browser_auto_reports_the_static_check(tmp_path, httpserver):
    httpserver.expect_request("/gated").respond_with_handler(_gate)
    cfg = loopback_config(tmp_path, max_retries=0, browser_executable="/nonexistent/chromium")
    with WebClient(cfg) as client, pytest.raises(ChallengeError) as info:
        client.fetch(httpserver.url_for("/gated"))
    assert (info.value.kind, info.value.rendered) == ("challenge", False)


@needs_browser
def test_auto_passes_a_javascript_check_in_the_browser(tmp_path, httpserver):
    httpserver.expect_request("/gated").respond_with_handler(_gate)
    with WebClient(render_config(tmp_path, max_retries=0)) as client:
        page = client.fetch(httpserver.url_for("/gated"))
    assert page.rendered and "The JavaScript check passed" in page.content


@needs_browser
def test_a_captcha_still_there_after_rendering_says_so(tmp_path, httpserver):
    serve(httpserver, "/page", fixture("datadome-captcha.html"), 403)
    tools = Tools(render_config(tmp_path, max_retries=0))
    with pytest.raises(ChallengeError) as info:
        tools.client.fetch(httpserver.url_for("/page"))
    assert (info.value.kind, info.value.vendor, info.value.rendered) == (
        "captcha",
        "DataDome",
        True,
    )
    answer = tools.fetch_page(httpserver.url_for("/page"))
    assert "browser was stopped too" in answer and "webgrip[render]" not in answer
