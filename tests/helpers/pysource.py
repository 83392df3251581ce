"""Parse Python source for tests that read the repository's own code."""

from __future__ import annotations

import ast


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse``, tried again when CPython 3.11 reports "AST constructor recursion depth
    mismatch": the depth counter behind building the AST can be thrown off by a compile in
    another thread (CPython gh-106905, seen rarely in threaded programs; here a module that a
    server thread left running by another test imports for the first time). The source itself
    is fine: the same call succeeds on the next try."""
    for _ in range(4):
        try:
            return ast.parse(source, filename=filename)
        except SystemError as e:
            if "recursion depth mismatch" not in str(e):
                raise
    return ast.parse(source, filename=filename)
