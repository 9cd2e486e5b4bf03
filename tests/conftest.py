"""Lets test modules import the shared helpers in this folder (``adversarial``)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
