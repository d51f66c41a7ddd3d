"""MkDocs hook: the site's home page is the repository's README.md.

docs/index.md holds only a marker; this hook swaps in the README and rewrites its links into docs/
(written relative to the repository root) so that they resolve inside the site.
"""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def on_page_markdown(markdown, page, config, files, **kwargs):
    if page.file.src_uri != "index.md":
        return markdown
    text = README.read_text(encoding="utf-8")
    return re.sub(r"\]\(docs/", "](", text)
