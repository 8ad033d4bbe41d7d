"""Run the import fuzzer longer than the suite does (by hand, e.g. before a release).

    python tools/fuzz_import.py --cases 50000 --seed 7

Runs tests/security/test_fuzz_import.py with FUZZ_CASES and FUZZ_SEED set: every damaged
or mail-mangled log file must import (exit 0) or be refused with `Error:` (exit 1), never
a traceback, and a refused import must leave the store byte for byte as it was. A failure
names its case number and seed, so it replays exactly.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description="Run the import fuzzer longer.")
    parser.add_argument("--cases", type=int, default=50_000, help="files to try")
    parser.add_argument("--seed", type=int, default=1, help="the generator's seed")
    args = parser.parse_args()
    env = {**os.environ, "FUZZ_CASES": str(args.cases), "FUZZ_SEED": str(args.seed)}
    test = ("tests/security/test_fuzz_import.py", "-k", "no_damaged_file")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *test]
    return subprocess.run(command, cwd=ROOT, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
