"""fetch_page's Markdown keeps no image that points at a refused address.

A chat UI that renders the answer would load every ``![alt](src)`` from the user's browser,
inside the user's network: an image on ``127.0.0.1``, ``169.254.169.254``, a private
address or a ``localhost`` name (in any spelling) is reduced to its alt text. Only what can
be judged without DNS is judged: public names and addresses stay.
"""

from __future__ import annotations

import re

import pytest
from helpers.loopback import loopback_config, reply
from webgrip import Tools

REFUSED = [
    "http://127.0.0.1/x.png",
    "http://0x7f.1/x.png",
    "http://2130706433/x.png",
    "http://0177.0.0.1/x.png",
    "http://127.1/x.png",
    "http://169.254.169.254/latest/meta-data",
    "http://localhost/a.png",
    "http://LOCALHOST./a.png",
    "http://cam.localhost/a.png",
    "http://Cam.LocalHost/a.png",  # a plain name is judged without the URL parser: any case
    "http://[::1]/a.png",
    "http://[::ffff:10.0.0.1]/a.png",
    "http://[::ffff:a00:1]/a.png",
    "http://10.1.2.3/y.png",
    "http://192.168.0.1/y.png",
    "http://172.16.5.4/y.png",
    "http://0.0.0.0/y.png",
    "https://100.64.0.1/y.png",
    "//127.0.0.1/relative-scheme.png",
    "/same-host.png",  # resolved against the page, which is on loopback
    "http://10.0.0.1/with space (and parens.png",  # written as <...> in the Markdown
]
KEPT = [
    "https://example.com/ok.png",
    "https://93.184.216.34/ok.png",
    "https://img.example.org/a(1).png",
    "https://example.com/with space.png",
    "https://localhost.example.com/a.png",  # named like localhost, not under it
    "https://my-localhost/a.png",
]


def article(images: list[str]) -> bytes:
    text = "<p>" + "Readable words about the topic of this page. " * 20 + "</p>"
    figures = "".join(
        f'<p><img src="{src}" alt="pic{i} [x]"> caption {i}</p>' for i, src in enumerate(images)
    )
    return (
        f"<html><head><title>T</title></head><body><main><article><h1>T</h1>{text}"
        f"{figures}{text}</article></main></body></html>"
    ).encode()


def fetch_markdown(raw_server, images: list[str]) -> str:
    server = raw_server(reply(200, article(images), {"Content-Type": "text/html"}))
    answer = Tools(loopback_config()).fetch_page(server.url("/page"), max_length=20000)
    assert not answer.startswith("Error:"), answer
    return answer


@pytest.mark.parametrize("src", REFUSED)
def test_image_on_refused_address_becomes_its_alt_text(raw_server, src: str) -> None:
    answer = fetch_markdown(raw_server, [src])
    assert "![" not in answer
    assert "pic0 \\[x\\] caption 0" in answer


@pytest.mark.parametrize("src", KEPT)
def test_image_on_public_host_is_kept(raw_server, src: str) -> None:
    answer = fetch_markdown(raw_server, [src])
    assert re.search(r"!\[pic0 \\\[x\\\]\]\(<?https://", answer), answer


def test_linked_image_keeps_the_link(raw_server) -> None:
    html = (
        "<html><body><main><article><h1>T</h1><p>"
        + "Enough words here. " * 20
        + '</p><p><a href="https://example.com/home"><img src="http://10.0.0.5/logo.png"'
        ' alt="Logo"></a></p></article></main></body></html>'
    )
    server = raw_server(reply(200, html.encode(), {"Content-Type": "text/html"}))
    answer = Tools(loopback_config()).fetch_page(server.url("/"))
    assert "[Logo](https://example.com/home)" in answer
    assert "10.0.0.5" not in answer


def test_mixed_images_only_refused_ones_go(raw_server) -> None:
    answer = fetch_markdown(raw_server, [REFUSED[0], KEPT[0], REFUSED[5], KEPT[1]])
    assert answer.count("![") == 2
    assert "127.0.0.1/x.png" not in answer and "169.254.169.254" not in answer
