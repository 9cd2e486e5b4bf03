"""The short version of ``scripts/fault_batch.py`` (one trial of each fault kind: killed
workers, a killed run resumed, a full disk, a read-only folder, an output under a file, hostile
JSON, an odd folder, broken CSV): 0 crashes, hangs, lost or duplicated records. About 30 s, so
marked slow; every kind also has its own tests in ``tests/test_batch_faults.py``."""
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "fault_batch.py"


@pytest.mark.slow
def test_the_fault_script_finds_no_crash_hang_loss_or_duplicate():
    run = subprocess.run([sys.executable, str(SCRIPT), "--quick"], capture_output=True, text=True,
                         timeout=600)
    last = run.stdout.strip().splitlines()[-1]
    assert run.returncode == 0, run.stdout + run.stderr
    assert last.startswith("trials 8, crashes 0, hangs 0, lost 0, duplicated 0"), last
