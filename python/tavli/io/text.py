"""Reading text files from outside: bounded size and line length, UTF-8 or Latin-1, any line ending."""

from __future__ import annotations

from typing import Iterator

MAX_FILE_BYTES = 50_000_000
MAX_LINE_CHARS = 100_000  # gnubg's SGF analysis lines run to a few kB; nothing real comes near this
MAX_MAT_LINE_CHARS = 2_000  # a .mat turn line is under 100 characters


def decode(data: bytes | str, what: str = "file") -> str:
    """Text of a file's bytes: UTF-8 (a BOM dropped), else Latin-1; ValueError for binary data or an
    oversized file."""
    if isinstance(data, str):
        text = data
        if len(text) > MAX_FILE_BYTES:
            raise ValueError(f"{what}: larger than {MAX_FILE_BYTES // 1_000_000} MB")
    else:
        if not isinstance(data, (bytes, bytearray)):
            raise ValueError(f"{what}: expected bytes or text, got {type(data).__name__}")
        if len(data) > MAX_FILE_BYTES:
            raise ValueError(f"{what}: larger than {MAX_FILE_BYTES // 1_000_000} MB")
        data = bytes(data)
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
    bad = sum(1 for c in text[:65536] if ord(c) < 32 and c not in "\t\n\r\f")
    if "\x00" in text[:65536] or bad > 8:
        raise ValueError(f"{what}: binary data, not a text file")
    return text


class Lines:
    """The lines of a text, numbered from 1, with CR, LF and CRLF endings; a line longer than
    MAX_LINE_CHARS is refused with its number."""

    def __init__(self, text: str, what: str, max_chars: int = MAX_LINE_CHARS) -> None:
        self._lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self._what = what
        self._max = max_chars
        self._i = 0
        self.count = len(self._lines)

    def __iter__(self) -> Iterator[tuple[int, str]]:
        return self

    def __next__(self) -> tuple[int, str]:
        if self._i >= len(self._lines):
            raise StopIteration
        line = self._lines[self._i]
        self._i += 1
        if len(line) > self._max:
            raise ValueError(f"line {self._i}: longer than {self._max} characters (not a {self._what} file?)")
        return self._i, line

    def next_nonblank(self) -> tuple[int, str | None]:
        for no, line in self:
            if line.strip():
                return no, line
        return self.count, None
