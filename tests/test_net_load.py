"""tavli.nn.Net.load on hostile paths (issue 18): devices and pipes that never end, directories,
truncated files and headers that declare more than the file holds are refused at once with a
ValueError naming the path, never read to the end or into memory without bound."""

from __future__ import annotations

import os
import struct
import subprocess
import sys

import pytest

import tavli
from tavli import nn


def _load_in_child(path: str) -> subprocess.CompletedProcess:
    """Net.load(path) in a child process, so that a regression (an endless read) fails the test
    instead of hanging the suite."""
    code = ("import sys, tavli.nn as nn\n"
            "try:\n    nn.Net.load(sys.argv[1])\n"
            "except ValueError as e:\n    print('ValueError:', e)\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in [os.path.dirname(os.path.dirname(tavli.__file__)), env.get("PYTHONPATH", "")] if p)
    return subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="POSIX devices")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_endless_devices_are_refused(device):
    r = _load_in_child(device)
    assert r.stdout.startswith("ValueError:"), (r.stdout, r.stderr)
    assert device in r.stdout and "not a regular file" in r.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX pipes")
def test_a_named_pipe_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "net.fifo"
    os.mkfifo(fifo)
    r = _load_in_child(str(fifo))  # opening it would block until a writer came
    assert r.stdout.startswith("ValueError:") and str(fifo) in r.stdout, (r.stdout, r.stderr)


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(ValueError, match="not a regular file .a directory.") as e:
        nn.Net.load(tmp_path)
    assert str(tmp_path) in str(e.value)


def _header(inputs: int, hidden: int, metadata_len: int | None = None) -> bytes:
    """The start of a weight file (layout in cpp/include/tavli/nnet.h), without weights."""
    def text(s: bytes) -> bytes:
        return struct.pack("<I", len(s)) + s
    out = b"TAVLINET" + struct.pack("<IIIII", 1, 2, inputs, hidden, 5) + text(b"raw") + text(b"fevga")
    return out + (struct.pack("<I", metadata_len) if metadata_len is not None else text(b""))


def test_a_huge_declared_size_is_refused_from_the_header(tmp_path):
    bad = tmp_path / "huge.tnet"
    bad.write_bytes(_header(4096, 4096) + b"\0" * 100)
    with pytest.raises(ValueError, match=r"truncated file: the header describes \d+ bytes, the file has \d+") as e:
        nn.Net.load(bad)
    assert str(bad) in str(e.value)


def test_a_huge_declared_text_is_refused(tmp_path):
    bad = tmp_path / "text.tnet"
    bad.write_bytes(_header(10, 4, metadata_len=2**31))
    with pytest.raises(ValueError, match="metadata is 2147483648 bytes long"):
        nn.Net.load(bad)


def test_layer_sizes_beyond_the_bound_are_refused(tmp_path):
    bad = tmp_path / "wide.tnet"
    bad.write_bytes(_header(10**6, 4))
    with pytest.raises(ValueError, match="corrupt layer size 1000000"):
        nn.Net.load(bad)


@pytest.mark.parametrize("keep", [3, 30, 60])
def test_truncated_headers_are_refused(tmp_path, keep):
    bad = tmp_path / "cut.tnet"
    bad.write_bytes(_header(10, 4)[:keep])
    with pytest.raises(ValueError, match="bad magic" if keep < 8 else "truncated file"):
        nn.Net.load(bad)


def test_a_good_file_still_loads(tmp_path):
    net = nn.Net("fevga", 8)
    net.save(tmp_path / "ok.tnet")
    again = nn.Net.load(tmp_path / "ok.tnet")
    assert again.hidden == 8
