"""Front ends: command lines and reports built on the engine's Python API."""
